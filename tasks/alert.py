"""Alert stage: turn findings into stored alerts (an outbox), then deliver them once per channel.

Storing comes first: a crash between storing and sending re-sends on the next run, and a
delivered alert is never sent again because deliveries are recorded per (alert, channel).
"""

from __future__ import annotations

import smtplib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from email.message import EmailMessage
from urllib.parse import parse_qs, unquote, urlsplit

import requests
from prefect import task
from prefect.cache_policies import NO_CACHE
from sqlalchemy.engine import Engine

from storage import repo
from tasks.config import Settings
from tasks.models import ValidationResult


@dataclass(frozen=True, slots=True)
class Channel:
    """A configured delivery channel: a name and a function that sends one alert."""

    name: str
    send: Callable[[repo.PendingDelivery], None]


def data_quality_alerts(
    issuer: str, document_id: str, results: Sequence[ValidationResult]
) -> list[repo.NewAlert]:
    """One alert per failed expectation; the same failure of the same document dedups."""
    alerts = []
    for result in results:
        if result.success:
            continue
        check = f"{result.suite}.{result.expectation}"
        subject = f"{issuer} {document_id}: {check} failed ({result.severity})"
        message = f"{subject}. Observed: {result.observed}. {result.details}".strip()
        alerts.append(
            repo.NewAlert(
                kind="data_quality",
                issuer=issuer,
                subject=subject,
                message=message,
                dedup_key=f"data_quality:{document_id}:{result.suite}:{result.expectation}:"
                f"{result.observed}",
                document_id=document_id,
            )
        )
    return alerts


def store_alerts(engine: Engine, alerts: Sequence[repo.NewAlert]) -> list[str]:
    """Insert alerts not seen before; return the ids created by this call."""
    with engine.begin() as conn:
        return repo.add_alerts(conn, alerts)


def deliver_pending(engine: Engine, channels: Sequence[Channel]) -> int:
    """Send every stored alert not yet delivered on each channel; return deliveries made."""
    if not channels:
        return 0
    with engine.begin() as conn:
        pending = repo.pending_deliveries(conn, [c.name for c in channels])
    by_name = {c.name: c for c in channels}
    delivered = 0
    for item in pending:
        try:
            by_name[item.channel].send(item)
        except (OSError, smtplib.SMTPException, requests.RequestException) as exc:
            with engine.begin() as conn:
                repo.mark_delivery(
                    conn, item.alert_id, item.channel, ok=False, error=_one_line(exc)
                )
            continue
        with engine.begin() as conn:
            repo.mark_delivery(conn, item.alert_id, item.channel, ok=True)
        delivered += 1
    return delivered


def channels_from_settings(settings: Settings) -> list[Channel]:
    """Email, JSON webhook and Slack webhook channels, for those configured."""
    channels = []
    if settings.smtp_url is not None and settings.alert_email_to:
        smtp = settings.smtp_url.get_secret_value()
        channels.append(
            Channel(
                "email",
                lambda a: send_email(smtp, settings.alert_email_from, settings.alert_email_to, a),
            )
        )
    if settings.webhook_url is not None:
        hook = settings.webhook_url.get_secret_value()
        channels.append(Channel("webhook", lambda a: post_json(hook, _webhook_body(a))))
    if settings.slack_webhook_url is not None:
        slack = settings.slack_webhook_url.get_secret_value()
        channels.append(Channel("slack", lambda a: post_json(slack, {"text": a.message})))
    return channels


def send_email(smtp_url: str, sender: str, to: str, alert: repo.PendingDelivery) -> None:
    """Send one alert over SMTP (``smtp://user:pass@host:port`` or ``smtps://``)."""
    parts = urlsplit(smtp_url)
    message = EmailMessage()
    message["Subject"] = f"[{alert.kind}] {alert.subject}"
    message["From"], message["To"] = sender, to
    message["X-Filings-Alert-Id"] = alert.alert_id
    message.set_content(alert.message)
    ssl = parts.scheme == "smtps"
    client_cls = smtplib.SMTP_SSL if ssl else smtplib.SMTP
    with client_cls(
        parts.hostname or "localhost", parts.port or (465 if ssl else 25), timeout=30
    ) as client:
        if "starttls" in parse_qs(parts.query):
            client.starttls()
        if parts.username:
            client.login(unquote(parts.username), unquote(parts.password or ""))
        client.send_message(message)


def post_json(url: str, body: dict[str, object]) -> None:
    """POST a JSON body; any non-2xx answer is a failed delivery."""
    response = requests.post(url, json=body, timeout=30)
    response.raise_for_status()


def _webhook_body(alert: repo.PendingDelivery) -> dict[str, object]:
    return {
        "alert_id": alert.alert_id,
        "kind": alert.kind,
        "issuer": alert.issuer,
        "subject": alert.subject,
        "message": alert.message,
        "created_at": alert.created_at.isoformat() if alert.created_at else None,
    }


def _one_line(exc: BaseException) -> str:
    # Webhook URLs are secrets and requests puts them in its messages: store no message text
    # for HTTP errors, only what went wrong.
    if isinstance(exc, requests.HTTPError) and exc.response is not None:
        return f"HTTP {exc.response.status_code}"
    if isinstance(exc, requests.RequestException):
        return type(exc).__name__
    text = str(exc).splitlines()[0] if str(exc) else ""
    return f"{type(exc).__name__}: {text}"[:300]


store_alerts_task = task(name="store-alerts", cache_policy=NO_CACHE)(store_alerts)
deliver_task = task(name="deliver-alerts", cache_policy=NO_CACHE)(deliver_pending)
