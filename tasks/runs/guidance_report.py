"""The guidance report: guidance versus actual from the warehouse view, drawn as a chart.

The chart has one panel per (issuer, metric): each quarter's guidance range is a band and the
actual a point coloured by outcome. It is written as PNG and as a self-contained HTML page (the
same chart as inline SVG, plus the exact figures as a table). Amounts stay ``Decimal`` until
they are drawn: only the picture is approximate.
"""

from __future__ import annotations

import html
import io
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from itertools import groupby
from pathlib import Path
from typing import Any

from sqlalchemy.engine import Engine

from domain.enums import VersusGuidance
from domain.metrics import metrics
from domain.readouts import GuidanceRow
from storage import findings

OUTCOME_COLOURS = {
    VersusGuidance.ABOVE: "#1a7f37",
    VersusGuidance.WITHIN: "#0969da",
    VersusGuidance.BELOW: "#cf222e",
    VersusGuidance.PENDING: "#888",
}
_MILLION = Decimal(1_000_000)
# Money is drawn and printed in millions; other units (per share, percent, counts) as they are.
_MONEY = {"CNY", "USD", "HKD"}


@dataclass(frozen=True, slots=True)
class ReportFiles:
    """Where the chart was written."""

    png: Path
    html: Path


def read_guidance(engine: Engine, issuers: Sequence[str] = ()) -> list[GuidanceRow]:
    """Guidance versus actual, by issuer, metric and period (all issuers when none named)."""
    with engine.connect() as conn:
        return findings.guidance_rows(conn, issuers)


def quarter_label(start: date, end: date) -> str:
    """``2024Q3`` for a quarter, ``2024-01-01..2024-06-30`` for any other period."""
    months = (end.year - start.year) * 12 + end.month - start.month + 1
    if months == 3 and start.day == 1 and start.month % 3 == 1:
        return f"{end.year}Q{(end.month - 1) // 3 + 1}"
    return f"{start.isoformat()}..{end.isoformat()}"


def metric_label(metric: str) -> str:
    """The metric's name as the filings print it ("Net income"); the id when it has none."""
    known = metrics().get(metric)
    return known.label if known is not None and known.label else metric


def display_unit(unit: str) -> tuple[Decimal, str]:
    """How amounts of ``unit`` are shown: the divisor and its caption (CNY -> CNY m)."""
    return (_MILLION, f"{unit} m") if unit in _MONEY else (Decimal(1), unit)


def plain(value: Decimal | None) -> str:
    """Exact decimal text without trailing zeros (PostgreSQL NUMERIC pads them)."""
    if value is None:
        return ""
    return f"{value.normalize():f}"


def write_report(rows: Sequence[GuidanceRow], out_dir: Path, stem: str = "guidance") -> ReportFiles:
    """Write ``<stem>.png`` and ``<stem>.html`` into ``out_dir``."""
    out_dir.mkdir(parents=True, exist_ok=True)
    files = ReportFiles(png=out_dir / f"{stem}.png", html=out_dir / f"{stem}.html")
    figure = _figure(rows)
    try:
        figure.savefig(files.png, format="png", dpi=110)
        svg = io.StringIO()
        # deferred heavy import: matplotlib, only when a chart is drawn
        import matplotlib

        with matplotlib.rc_context({"svg.fonttype": "none"}):  # words as text, not outlines
            figure.savefig(svg, format="svg")
    finally:
        # deferred heavy import: matplotlib, only when a chart is drawn
        import matplotlib.pyplot as plt

        plt.close(figure)
    files.html.write_text(_html(rows, svg.getvalue()), encoding="utf-8")
    return files


def _panels(rows: Sequence[GuidanceRow]) -> list[tuple[tuple[str, str, str], list[GuidanceRow]]]:
    def key(r: GuidanceRow) -> tuple[str, str, str]:
        return (r.issuer, r.metric, r.unit)

    ordered = sorted(rows, key=lambda r: (key(r), r.period_end))
    return [(k, list(group)) for k, group in groupby(ordered, key=key)]


def _figure(rows: Sequence[GuidanceRow]) -> Any:
    # deferred heavy import: matplotlib, only when a chart is drawn
    import matplotlib

    matplotlib.use("Agg")  # no display on servers; set before pyplot is imported
    # deferred heavy import: matplotlib, only when a chart is drawn
    import matplotlib.pyplot as plt

    panels = _panels(rows)
    figure, axes = plt.subplots(
        max(1, len(panels)), 1, figsize=(8, 3.2 * max(1, len(panels))), squeeze=False
    )
    if not panels:
        axes[0][0].text(0.5, 0.5, "no guidance in the warehouse yet", ha="center")
        axes[0][0].set_axis_off()
    for ax, ((issuer, metric, unit), group) in zip(axes[:, 0], panels, strict=False):
        _draw_panel(ax, issuer, metric, unit, group)
    figure.tight_layout()
    return figure


def _draw_panel(ax: Any, issuer: str, metric: str, unit: str, group: list[GuidanceRow]) -> None:
    scale, unit_label = display_unit(unit)
    labels = [quarter_label(r.period_start, r.period_end) for r in group]
    for x, (row, label) in enumerate(zip(group, labels, strict=True)):
        gid = f"{issuer}-{metric}-{label}"
        low = row.guidance_low if row.guidance_low is not None else row.guidance_high
        high = row.guidance_high if row.guidance_high is not None else row.guidance_low
        if low is not None and high is not None:
            bottom, top = float(low / scale), float(high / scale)
            band = ax.bar(x, max(top - bottom, 0.0), bottom=bottom, width=0.5, color=_BAND)
            band.patches[0].set_gid(f"band-{gid}")
        if row.actual is not None:
            (point,) = ax.plot(
                [x], [float(row.actual / scale)], "o", color=OUTCOME_COLOURS.get(row.outcome)
            )
            point.set_gid(f"actual-{gid}")
    ax.set_xticks(range(len(labels)), labels)
    ax.set_xlim(-0.75, len(labels) - 0.25)
    ax.set_title(f"{issuer}: {metric_label(metric)}, guidance versus actual")
    ax.set_ylabel(unit_label.replace(" m", " million"))
    ax.grid(axis="y", alpha=0.3)
    # beside the panel, never over a band; only the outcomes this panel shows
    shown = {r.outcome for r in group if r.actual is not None}
    ax.legend(handles=_legend(shown), loc="upper left", bbox_to_anchor=(1.01, 1.0),
              fontsize="small", borderaxespad=0)  # fmt: skip


_BAND = "#9ecae1"


def _legend(shown: set[VersusGuidance]) -> list[Any]:
    """What the band and the colours of the points ``shown`` (their outcomes) mean."""
    # deferred heavy import: matplotlib, only when a chart is drawn
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    points = [
        Line2D([], [], marker="o", linestyle="", color=colour, label=f"actual: {outcome}")
        for outcome, colour in OUTCOME_COLOURS.items()
        if outcome is not VersusGuidance.PENDING and outcome in shown  # pending: no point
    ]
    return [Patch(color=_BAND, label="guided range"), *points]


def _html(rows: Sequence[GuidanceRow], svg: str) -> str:
    svg_body = svg[svg.find("<svg") :]  # drop the XML prolog: inline SVG in HTML has none
    head = (
        "<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>"
        "<title>Guidance versus actual</title>"
        "<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}"
        "td,th{border:1px solid #ccc;padding:4px 8px;text-align:right}"
        "td:first-child,th:first-child{text-align:left}</style></head><body>"
        "<h1>Guidance versus actual</h1>"
        "<p>Band: the guided range; point: the actual, coloured by outcome (green above the "
        "range, blue within, red below; no point yet: pending). The chart draws money in "
        "millions; the tables give exact amounts in whole units of the currency (CNY, not "
        "thousands or millions) and the variance against the range's midpoint in percent, "
        "to two places.</p>"
    )
    tables = [_html_table(issuer, list(group)) for issuer, group in _by_issuer(rows)]
    body = "".join(tables) or "<p>No guidance in the warehouse yet.</p>"
    return f"{head}<figure>{svg_body}</figure>{body}</body></html>\n"


def _by_issuer(rows: Sequence[GuidanceRow]) -> list[tuple[str, list[GuidanceRow]]]:
    ordered = sorted(rows, key=lambda r: (r.issuer, r.metric, r.period_end))
    return [(k, list(g)) for k, g in groupby(ordered, key=lambda r: r.issuer)]


def _html_table(issuer: str, rows: list[GuidanceRow]) -> str:
    header = (
        "metric", "quarter", "guidance low", "guidance high", "actual", "unit", "outcome",
        "variance %",
    )  # fmt: skip
    cells = [
        (
            metric_label(r.metric),
            quarter_label(r.period_start, r.period_end),
            r.guidance_low,
            r.guidance_high,
            r.actual,
            r.unit,
            r.outcome,
            _percent(r.variance_pct),
        )
        for r in rows
    ]
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    body = "".join(
        f"<tr class='{html.escape(str(c[6]))}'>"
        + "".join(f"<td>{html.escape(_cell(v))}</td>" for v in c)
        + "</tr>"
        for c in cells
    )
    return f"<h2>{html.escape(issuer)}</h2><table><tr>{head}</tr>{body}</table>"


def _percent(value: Decimal | None) -> str:
    return "" if value is None else f"{Decimal(str(value)).quantize(Decimal('0.01'))}"


def _cell(value: object) -> str:
    return plain(value) if isinstance(value, Decimal) else "" if value is None else str(value)
