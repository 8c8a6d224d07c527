"""What the CLI prints with rich: progress bars, the status tables, the guidance report."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from decimal import Decimal
from itertools import groupby

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn
from rich.table import Table

from flows import progress
from tasks.core.readouts import GuidanceRow, WarehouseStatus
from tasks.runs.guidance_report import quarter_label


class ProgressBars:
    """A progress listener drawing one bar per batch (issuer, or the local files)."""

    def __init__(self, bars: Progress) -> None:
        self._bars = bars
        self._current: TaskID | None = None

    def start(self, total: int, label: str) -> None:
        """Open a bar for the batch."""
        self._current = self._bars.add_task(label, total=total, item="")

    def advance(self, item: str) -> None:
        """Move the current bar one document on."""
        if self._current is not None:
            self._bars.update(self._current, advance=1, item=item)


class ProgressLines:
    """A progress listener printing one line per batch and per document (for plain runs)."""

    def __init__(self, console: Console) -> None:
        self._console = console

    def start(self, total: int, label: str) -> None:
        """Say how many documents the batch has."""
        self._console.print(f"{label}: {total} document(s) to process", style="dim")

    def advance(self, item: str) -> None:
        """Say which document is done."""
        self._console.print(f"  done: {item}", style="dim", highlight=False)


@contextmanager
def progress_lines(console: Console) -> Iterator[None]:
    """Print the run's progress, a line at a time, while the block runs."""
    with progress.listening(ProgressLines(console)):
        yield


@contextmanager
def progress_bars(console: Console) -> Iterator[None]:
    """Draw the run's progress while the block runs."""
    bars = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[item]}", style="dim"),
        console=console,
    )
    with bars, progress.listening(ProgressBars(bars)):
        yield


def status_tables(state: WarehouseStatus) -> list[Table]:
    """Last runs, documents by status, undelivered alerts."""
    runs = Table("started (UTC)", "finished", "status", "ingested", "facts", "run", title="Runs")
    for r in state.runs:
        runs.add_row(
            f"{r.started_at:%Y-%m-%d %H:%M:%S}",
            f"{r.finished_at:%H:%M:%S}" if r.finished_at else "-",
            r.status,
            str(r.summary.get("ingested", "-")),
            str(r.summary.get("facts_loaded", "-")),
            r.flow_run_id or r.run_id,
        )
    docs = Table("status", "documents", title="Documents")
    for name, count in state.documents_by_status.items():
        docs.add_row(name, str(count))
    alerts = Table(
        "created (UTC)", "kind", "issuer", "subject", "alert", title="Undelivered alerts"
    )
    for a in state.undelivered:
        alerts.add_row(f"{a.created_at:%Y-%m-%d %H:%M}", a.kind, a.issuer, a.subject, a.alert_id)
    return [runs, docs, alerts]


def guidance_tables(rows: Sequence[GuidanceRow]) -> list[Table]:
    """One table per issuer: metric, quarter, guided range, actual, outcome, variance."""
    tables = []
    for issuer, group in groupby(rows, key=lambda r: r.issuer):
        table = Table(
            "metric", "quarter", "guidance", "actual", "unit", "outcome", "variance %", title=issuer
        )
        for r in group:
            table.add_row(
                r.metric,
                quarter_label(r.period_start, r.period_end),
                f"{_amount(r.guidance_low)} – {_amount(r.guidance_high)}",
                _amount(r.actual),
                r.unit,
                r.outcome,
                "" if r.variance_pct is None else f"{r.variance_pct:+.2f}",
            )
        tables.append(table)
    return tables


def _amount(value: Decimal | None) -> str:
    if value is None:
        return "-"
    return f"{value.normalize():,f}"
