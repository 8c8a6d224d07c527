"""Statement rows -> standard metrics and line items, for any issuer (``standard_metrics.toml``).

The mapping is data shared by every issuer: per statement kind, the labels each metric is
printed under and the section totals printed without a label. An issuer's catalog overlay
(``tasks/parsers/statements/catalogs``) maps the same rows first
(:mod:`tasks.parsers.statements.metric_mapping`); these
rules fill in only cells it left unmapped, never a metric and period it already holds.
Amounts keep the currency the statement is printed in (USD statements give USD facts).
"""

from __future__ import annotations

import re
import tomllib
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal
from functools import cache
from pathlib import Path

from domain.enums import Basis, Origin
from domain.errors import ConfigError
from domain.metrics import OPENING_BALANCES, metrics
from domain.records import Fact
from domain.rowrecords import LineItem, StatementKind, StatementRow
from tasks.parsers.documents.numbers import cents_of
from tasks.parsers.statements.catalog import LabelCatalog, Section, normalize_label

STANDARD_FILE = Path(__file__).resolve().parent / "standard_metrics.toml"
_TRAILING_NOTE = re.compile(r"\s*\([^()]*\)\s*:?\s*$")
CellKey = tuple[str, str, date, Basis, Decimal]
# The catalog section names the statement reader knows each statement kind by.
_SECTION_NAMES = {
    StatementKind.BALANCE_SHEET: "balance",
    StatementKind.INCOME_STATEMENT: "operations",
    StatementKind.CASH_FLOW: "cash_flow",
}


@dataclass(frozen=True, slots=True)
class StatementRules:
    """How one statement kind's rows map to metrics."""

    titles: tuple[str, ...]
    labels: dict[str, str]  # normalised "label" or "section > label" -> metric
    positive: frozenset[str]
    section_totals: dict[str, str]  # normalised section -> metric of its unlabelled total


@cache
def standard_rules(path: Path = STANDARD_FILE) -> dict[StatementKind, StatementRules]:
    """The shared mapping, read and checked once (every metric must be in metrics.csv)."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"standard metrics {path}: {exc}") from exc
    known = metrics()
    out = {}
    for kind_name, body in data.items():
        named = [*body.get("metrics", {}), *body.get("section_totals", {}).values()]
        unknown = sorted(set(named) - set(known))
        if unknown:
            raise ConfigError(f"standard metrics {path}: unknown metric(s) {unknown}")
        labels = {_key(s): m for m, spellings in body.get("metrics", {}).items() for s in spellings}
        totals = {normalize_label(s): m for s, m in body.get("section_totals", {}).items()}
        titles = tuple(t.lower() for t in body.get("titles", []))
        out[StatementKind(kind_name)] = StatementRules(
            titles, labels, frozenset(body.get("positive", [])), totals
        )
    return out


def shared_catalog(ticker: str) -> LabelCatalog:
    """The catalog of an issuer without an overlay: it finds the statement tables by their
    titles and maps no label (the shared mapping reads their rows)."""
    sections = tuple(
        Section(_SECTION_NAMES[kind], rules.titles, False, (), {}, frozenset(), frozenset())
        for kind, rules in standard_rules().items()
        if kind in _SECTION_NAMES
    )
    return LabelCatalog(ticker, sections, metrics())


def _key(spelling: str) -> str:
    section, _, label = spelling.rpartition(">")
    return f"{normalize_label(section)} > {_norm(label)}" if section else _norm(label)


def _norm(label: str) -> str:
    return normalize_label(_TRAILING_NOTE.sub("", label) or label)


def metric_for(rules: StatementRules, section: str, label: str) -> str | None:
    """The metric a label maps to under its section path, or None."""
    norm = _norm(label)
    heading = normalize_label(section)
    for key, metric in rules.labels.items():
        context, sep, wanted = key.partition(" > ")
        if sep and wanted == norm and heading.startswith(context):
            return metric
    return rules.labels.get(norm)


def shared_metric(row: StatementRow) -> str | None:
    """The metric the shared labels map a row to, or None (its label alone: a section total
    printed without a label is known only beside the rows above it)."""
    rules = standard_rules().get(row.statement)
    return metric_for(rules, row.section, row.row_label) if rules else None


def _cell(file: str, locator: str, r: StatementRow | Fact, day: date | None = None) -> CellKey:
    # The sign may differ (an expense printed in parentheses is stored positive) and a balance
    # read from a flow column (cash at the end of a period) is an instant.
    return (file, locator, day or r.period_end, Basis(r.basis), abs(r.value))


def row_facts(rows: Sequence[StatementRow], facts: Iterable[Fact]) -> dict[int, Fact]:
    """Row index -> the table fact read from that row's cell (the same period start, then the
    same label, break a tie). An opening balance is of the day before its column starts."""
    by_cell: dict[CellKey, list[int]] = defaultdict(list)
    by_opening: dict[CellKey, list[int]] = defaultdict(list)
    for i, row in enumerate(rows):
        p = row.provenance
        by_cell[_cell(p.document, p.locator, row)].append(i)
        if row.period_start is not None:
            day = row.period_start - timedelta(days=1)
            by_opening[_cell(p.document, p.locator, row, day)].append(i)
    chosen: dict[int, Fact] = {}
    for fact in facts:
        if fact.origin != Origin.TABLE:
            continue
        p = fact.provenance
        index = by_opening if fact.metric in OPENING_BALANCES else by_cell
        cell = index.get(_cell(p.document, p.locator, fact), [])
        ranked = sorted(
            (i for i in cell if i not in chosen),
            key=lambda i: (
                rows[i].period_start != fact.period_start,
                rows[i].row_label != p.row_label,
            ),
        )
        if ranked:
            chosen[ranked[0]] = fact
    return chosen


def fact_unit(catalog_unit: str, currency: str) -> str:
    """metrics.csv's unit in the statement's currency ("CNY/share" in USD -> "USD/share")."""
    if currency and catalog_unit.startswith("CNY"):
        return currency + catalog_unit[3:]
    return catalog_unit


def line_items(
    rows: Sequence[StatementRow], facts: Iterable[Fact], ties: Iterable[tuple[int, str]] = ()
) -> tuple[LineItem, ...]:
    """Every row as a line item, with the metric, unit and proof of the table fact read from
    its cell; a row no published fact holds keeps its own arithmetic's tie (``ties``)."""
    chosen = row_facts(rows, facts)
    tied = dict(ties)
    return tuple(
        LineItem(row, chosen[i].unit, chosen[i].metric, chosen[i].proved_by or None)
        if i in chosen
        else LineItem(row, row_unit(row), None, tied.get(i))
        for i, row in enumerate(rows)
    )


def row_unit(row: StatementRow) -> str:
    """The unit of a row no metric maps: its currency (per share / per ADS when the label says
    so), else shares, percent or count by its label."""
    label = f"{row.section} {row.row_label}".lower()
    if row.currency:
        if "per ads" in label or "per american depositary" in label:
            return f"{row.currency}/ADS"
        if any(w in label for w in ("per share", "per ordinary share", "per common share", "每股")):
            return f"{row.currency}/share"
        if cents_of(f"{row.section} {row.row_label}") is not None:  # "(HK cents)" on EPS
            return f"{row.currency}/share"
        return row.currency
    if "%" in label or "percent" in label or "margin" in label:
        return "percent"
    if "shares" in label or "ads" in label.split():
        return "shares"
    return "count"
