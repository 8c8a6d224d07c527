"""``filings alerts resend``: an operator's decision to send alerts again.

A send in doubt (it may have reached the receiver: a connection lost after the message went
out, or a run killed while sending) is never sent again on its own. Whoever checked the
receiver and found the alert missing sends it again here, by id or every send in doubt.
"""

from __future__ import annotations

from typing import Annotated

import typer

from domain.errors import PipelineError
from flows import preflight
from flows.cli_common import ReplayOpt, app, console, one_line_errors, settings_for

alerts_app = typer.Typer(help="Alert deliveries an operator decides on.", no_args_is_help=True)
app.add_typer(alerts_app, name="alerts")


@alerts_app.command("resend")
@one_line_errors
def resend(
    alert_ids: Annotated[
        list[str] | None, typer.Argument(help="Alert ids (filings status lists them).")
    ] = None,
    in_doubt: Annotated[
        bool, typer.Option("--in-doubt", help="Every send in doubt, whatever its alert.")
    ] = False,
    replay: ReplayOpt = False,
) -> None:
    """Send the named alerts (or every send in doubt) again on each configured channel now."""
    if not alert_ids and not in_doubt:
        raise PipelineError("name the alerts to resend, or --in-doubt for every send in doubt")
    # deferred for start-up speed: the warehouse's SQL layer and the HTTP clients
    from storage import alerts
    from tasks.alert import deliver_pending
    from tasks.delivery.channels import channels_from_settings

    settings = settings_for(replay)
    channels = channels_from_settings(settings)
    if not channels:
        raise PipelineError(
            "no alert channel is configured: set FILINGS_SMTP_URL and FILINGS_ALERT_EMAIL_TO,"
            " FILINGS_WEBHOOK_URL or FILINGS_SLACK_WEBHOOK_URL (docs/operator.md, Alerts)"
        )
    engine = preflight.existing_warehouse(settings)
    names = [c.name for c in channels]
    with engine.begin() as conn:
        unknown = alerts.unknown_alerts(conn, alert_ids or [])
        if unknown:
            raise PipelineError(
                f"unknown alert {', '.join(unknown)}: `filings status` lists alert ids"
            )
        released = alerts.release_for_resend(conn, alert_ids or [], in_doubt, names)
        # a named alert no configured channel has tried yet (raised before it was set up) too
        wanted = {*(alert_ids or []), *(a for a, _ in released)}
        sends = [p for p in alerts.pending_deliveries(conn, names) if p.alert_id in wanted]
    if not sends:
        raise PipelineError("nothing to resend: those sends were delivered, or none is in doubt")
    report = deliver_pending(engine, channels, only=wanted)
    engine.dispose()
    # sends: one alert in doubt on two channels is two sends
    sent = sum(report.sent.values())
    console.print(f"resent: {sent} of {len(sends)} send(s)", highlight=False)
    for channel, (count, error) in sorted({**report.failed, **report.in_doubt}.items()):
        console.print(f"not delivered: {channel}: {count} ({error})", highlight=False)
    if report.failed or report.in_doubt:
        raise typer.Exit(code=1)
