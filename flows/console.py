"""What the CLI prints with rich: progress bars, the status tables, the guidance report."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from decimal import Decimal
from itertools import groupby

from rich.console import Console, Group
from rich.padding import Padding
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn
from rich.table import Table
from rich.text import Text

from domain.readouts import GuidanceRow, WarehouseStatus
from domain.xbrlrecords import Accuracy
from flows import progress
from tasks.runs.guidance_report import display_unit, metric_label, quarter_label
from tasks.runs.summary import count_lines


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
        self._console.print(f"  done: {item}", style="dim", highlight=False, soft_wrap=True)


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
    """Last runs, documents by status, undelivered alerts: 80 columns wide, ids never cut
    (an alert's subject goes on its own line, wrapped)."""
    runs = _table("Runs")
    runs.add_column("started (UTC), status, run / what it did (as `filings run` says it)")
    for r in state.runs:
        head = f"{r.started_at:%Y-%m-%d %H:%M}  {r.status}  run {r.flow_run_id or r.run_id}"
        did = [x for x in count_lines(r.summary) if x.startswith(_RUN_LINES)] if r.summary else []
        runs.add_row("\n".join([head, *(f"    {line}" for line in did)]))
    docs = _table("Documents")
    docs.add_column("status")
    docs.add_column("documents", justify="right")
    for name, count in state.documents_by_status.items():
        docs.add_row(name, str(count))
    alerts = _table("Undelivered alerts")
    alerts.add_column("alert, created (UTC), kind, issuer / subject", overflow="fold")
    for a in state.undelivered:
        head = f"{a.alert_id}  {a.created_at:%Y-%m-%d %H:%M}  {a.kind}  {a.issuer}"
        alerts.add_row(Group(Text(head), Padding(Text(a.subject), (0, 0, 0, 4))))
    waiting = [alerts] if state.undelivered else []  # no header over nothing
    return [runs, docs, *quarantined_table(state), *waiting, *accuracy_table(state.accuracy)]


def quarantined_table(state: WarehouseStatus) -> list[Table]:
    """The documents ``filings release`` takes, by id, and why each is held (none: no table)."""
    if not state.quarantined:
        return []
    table = _table("Quarantined documents")
    table.add_column("document, issuer / why it is held (filings release DOC --by NAME)")
    for q in state.quarantined:
        table.add_row(
            Group(Text(f"{q.document_id}  {q.issuer}"), Padding(Text(q.reason), (0, 0, 0, 4)))
        )
    return [table]


def accuracy_table(measures: Sequence[Accuracy]) -> list[Table]:
    """Per issuer, the audited annual figures its releases match (none: no table)."""
    if not measures:
        return []
    table = _table("Extraction accuracy (audited annual figures the releases match)")
    table.add_column("issuer", no_wrap=True)
    table.add_column("statement: matched / compared", overflow="fold")
    for issuer, group in groupby(measures, key=lambda a: a.issuer):
        parts = [f"{a.statement} {a.matched}/{a.compared} ({a.share * 100:.1f}%)" for a in group]
        table.add_row(issuer, ", ".join(parts))
    return [table]


_RUN_LINES = ("documents:", "alerts:", "also delivered:")


def _table(title: str) -> Table:
    # no borders, two spaces between columns: the widest table (runs) fits 80 columns
    return Table(
        title=f"\n{title}", title_justify="left", title_style="bold", box=None,
        padding=(0, 2, 0, 0), pad_edge=False,
    )  # fmt: skip


def guidance_tables(rows: Sequence[GuidanceRow]) -> list[Table]:
    """One table per issuer: metric, quarter, guided range, actual, outcome, variance.

    Money is shown in millions, exactly (4,482.252 for 4,482,252,000), so a row fits an
    80-column terminal without cutting a figure; the metric's name wraps instead.
    """
    tables = []
    for issuer, group in groupby(rows, key=lambda r: r.issuer):
        table = _table(issuer)
        table.add_column("metric", overflow="fold", ratio=1)
        for name in ("quarter", "guidance", "actual", "unit", "outcome", "vs mid"):
            table.add_column(name, no_wrap=True, justify="left" if name == "outcome" else "right")
        for r in group:
            scale, unit = display_unit(r.unit)
            table.add_row(
                metric_label(r.metric),
                quarter_label(r.period_start, r.period_end),
                f"{_amount(r.guidance_low, scale)}–{_amount(r.guidance_high, scale)}",
                _amount(r.actual, scale),
                unit,
                r.outcome,
                "" if r.variance_pct is None else f"{r.variance_pct:+.1f}%",
            )
        tables.append(table)
    return tables


def _amount(value: Decimal | None, scale: Decimal) -> str:
    if value is None:
        return "-"
    return f"{(value / scale).normalize():,f}"
