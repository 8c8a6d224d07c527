"""Artifacts stage: what a run publishes to the Prefect UI.

Published from the flow itself (not a task), so they are the flow run's artifacts: the
run's page in the UI shows them. Each run writes a markdown summary, a guidance-versus-actual
table and (when Data Docs are served) a link, under stable keys (``<deployment>-run-summary``,
``<deployment>-guidance-vs-actual``, ``<deployment>-data-docs``), so the UI's Artifacts page
shows every run's version side by side.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal

from prefect.artifacts import (
    create_link_artifact,
    create_markdown_artifact,
    create_table_artifact,
)

from domain.readouts import GuidanceRow, RunActivity
from tasks.runs.guidance_report import plain, quarter_label
from tasks.runs.summary import RunSummary, count_lines


def artifact_key(scope: str, kind: str) -> str:
    """A Prefect artifact key: lowercase letters, digits and dashes only."""
    slug = re.sub(r"[^a-z0-9]+", "-", f"{scope}-{kind}".lower()).strip("-")
    return slug or kind


def run_markdown(title: str, summary: RunSummary, activity: RunActivity) -> str:
    """The run's summary: the counts in the words ``filings run`` and ``filings status`` use,
    then the ids behind them (this run's own, never a run's beside it)."""
    lines = [f"# {title}", "", *(f"- {line}" for line in count_lines(summary.counts()))]
    lines += [f"- quarantined: {len(summary.quarantined)}"]
    lines += _section("Documents", [f"`{d}` ({s})" for d, s in activity.documents])
    checks = activity.failed_checks
    lines += _section(
        "Validation failures",
        [f"`{c.document_id}` {c.check} ({c.severity}): {c.observed}" for c in checks],
    )
    lines += _section("Quarantined documents", [f"`{d}`" for d in summary.quarantined])
    lines += _section("Alerts", [f"`{a.alert_id}` {a.kind}: {a.subject}" for a in activity.alerts])
    lines += _section("Failed documents", summary.failed)
    lines += _section("Source failures", summary.source_failures)
    lines += _docs_line(summary.data_docs)
    return "\n".join(lines) + "\n"


def _docs_line(link: str) -> list[str]:
    """The Data Docs link, over http only: the UI cannot open a ``file://`` one, so a site not
    served says where it is and which setting links it."""
    if link.startswith(("http://", "https://")):
        return ["", f"**Data Docs:** [open this run's validation results]({link})"]
    if link:
        where = f"**Data Docs:** built on the worker at `{link}` (not served: set "
        return ["", where + "FILINGS_DATA_DOCS_URL to where that folder is published to link it)"]
    return []


def _section(title: str, items: Sequence[str]) -> list[str]:
    if not items:
        return ["", f"**{title}:** none"]
    return ["", f"## {title}", "", *(f"- {_cell(item)}" for item in items)]


def _cell(text: str) -> str:
    # A pipe or a newline would break the markdown table or list the text sits in.
    return " ".join(str(text).split()).replace("|", "\\|")


def guidance_table(rows: Sequence[GuidanceRow]) -> list[dict[str, str]]:
    """Guidance versus actual as table rows (amounts as exact decimal text)."""
    return [
        {
            "issuer": r.issuer,
            "metric": r.metric,
            "quarter": quarter_label(r.period_start, r.period_end),
            "guidance_low": _text(r.guidance_low),
            "guidance_high": _text(r.guidance_high),
            "actual": _text(r.actual),
            "unit": r.unit,
            "outcome": r.outcome,
            "variance_pct": _text(r.variance_pct),
            "guidance_document_id": r.guidance_document_id,
            "actual_document_id": r.actual_document_id or "",
        }
        for r in rows
    ]


def _text(value: Decimal | None) -> str:
    return plain(value)


def publish_run(
    scope: str, summary: RunSummary, activity: RunActivity, guidance: Sequence[GuidanceRow]
) -> tuple[str, str]:
    """Publish the run's markdown and guidance table; return their keys."""
    summary_key = artifact_key(scope, "run-summary")
    table_key = artifact_key(scope, "guidance-vs-actual")
    create_markdown_artifact(
        run_markdown(f"{scope} run", summary, activity),
        key=summary_key,
        description="Documents, facts, validation failures, quarantines and alerts of the run.",
    )
    table: list[dict[str, str]] = guidance_table(guidance) or [
        {"issuer": "", "metric": "", "outcome": "no guidance in the warehouse yet"}
    ]
    create_table_artifact(
        table, key=table_key, description="Guidance versus actual, per issuer and quarter."
    )
    if summary.data_docs.startswith(("http://", "https://")):
        create_link_artifact(
            summary.data_docs,
            link_text="Data Docs of this run",
            key=artifact_key(scope, "data-docs"),
            description="Great Expectations validation results of every document of the run.",
        )
    return summary_key, table_key
