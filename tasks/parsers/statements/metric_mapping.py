"""Statement rows -> facts: one mapping, the issuer's catalog an overlay of labels on it.

The rows are the statement tables' one reading (:mod:`tasks.parsers.statements.asreported`). The
mapping
is data: ``standard_metrics.toml``, shared by every issuer (read by
:mod:`tasks.parsers.statements.standard`),
and an issuer's catalog overlay (``catalogs/<ticker>.toml``) whose sections name the labels of
its own statements, with the section context that tells two rows of one label apart ("Credit
driven services > Other services fees"). The overlay's labels map a file's rows first
(:func:`issuer_facts`); after the narrative figures, the shared labels map the document's rows
it left (:func:`standard_facts`), never a key already held.

A row of an overlay section that no label maps (and not known-ignored), or whose figure does
not fit its metric, is listed as unmapped with a warning, never a fact; an IFRS figure is a
fact only when its printed row adds up (GAAP + adjustments = IFRS), and is dropped when its
GAAP column disagrees with the GAAP statement (:func:`tasks.parsers.statements.checks.settle`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal

from domain.enums import Basis, Origin
from domain.metrics import MetricDef, figure_period, metrics
from domain.records import Fact, UnmappedRow
from domain.rowrecords import StatementRow
from tasks.parsers.documents.numbers import CellKind, CellValue, parse_cell
from tasks.parsers.statements.asreported import RowsRead
from tasks.parsers.statements.catalog import (
    IGNORED,
    LabelCatalog,
    Section,
    context_of,
    lookup,
    normalize_label,
)
from tasks.parsers.statements.checks import settle
from tasks.parsers.statements.standard import (
    StatementRules,
    fact_unit,
    metric_for,
    row_facts,
    shared_metric,
    standard_rules,
)


@dataclass(frozen=True, slots=True)
class StatementFacts:
    """Facts the overlay maps from a document's statement rows, with what it could not use."""

    facts: tuple[Fact, ...]
    unmapped: tuple[UnmappedRow, ...]
    warnings: tuple[str, ...]


@dataclass
class _Sink:
    document: str
    facts: list[Fact] = field(default_factory=list)
    unmapped: dict[tuple[str, int, str, str], UnmappedRow] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    gaap_refs: dict[int, Decimal] = field(default_factory=dict)  # id(ifrs fact) -> GAAP value

    def reject(self, row: StatementRow, reason: str) -> None:
        key = (row.provenance.locator, row.row_index, row.row_label, reason)
        if key in self.unmapped:
            return  # one printed row, several columns
        p = row.provenance
        self.unmapped[key] = UnmappedRow(p.locator, row.table_title, row.row_label, reason)
        self.warnings.append(f"{self.document} {p.locator} {row.row_label!r}: {reason}")


def issuer_facts(read: RowsRead, catalog: LabelCatalog, document: str) -> StatementFacts:
    """The facts the issuer's catalog overlay maps from one file's statement rows (none
    without an overlay), one value per key (disagreeing ones dropped with a warning)."""
    sink = _Sink(document)
    if catalog.sections:
        for i, row, section, context in _placed(read.rows, catalog.sections):
            _map_row(row, section, context, read.gaap.get(i), catalog, sink)
    facts, warnings = settle(sink.facts, sink.gaap_refs, document)
    return StatementFacts(tuple(facts), tuple(sink.unmapped.values()), (*sink.warnings, *warnings))


def _placed(
    rows: tuple[StatementRow, ...], sections: tuple[Section, ...]
) -> Iterator[tuple[int, StatementRow, Section, str | None]]:
    """(position, row, overlay section, sub-section context) of each row an overlay section
    covers. The context is the latest declared one opened above the row in its table: by the
    heading it stands under or by a row's own label ("Credit driven services 2,630,621")."""
    chosen = _ifrs_sections(rows, sections)
    table, context = ("", ""), None
    for i, row in enumerate(rows):
        section = chosen.get(row.provenance.locator) or _section_of(row, sections)
        if section is None:
            continue
        here = (row.provenance.locator, section.name)
        if here != table:
            table, context = here, None
        context = context_of(section, row.section) or context_of(section, row.row_label) or context
        yield i, row, section, context


def _section_of(row: StatementRow, sections: tuple[Section, ...]) -> Section | None:
    """The overlay section of a row: the first whose titles name its table's title."""
    title = row.table_title.lower()
    return next((s for s in sections if not s.ifrs and any(t in title for t in s.titles)), None)


def _ifrs_sections(
    rows: tuple[StatementRow, ...], sections: tuple[Section, ...]
) -> dict[str, Section]:
    """An IFRS reconciliation's tables are titled by their period, the statement named only
    in their column heads: each table's section is the IFRS one that knows most of its
    labels."""
    labels: dict[str, list[StatementRow]] = {}
    for row in rows:
        if row.basis == Basis.IFRS:
            labels.setdefault(row.provenance.locator, []).append(row)
    out = {}
    for locator, found in labels.items():
        scored = [
            (sum(_knows(s, r) for r in found), -n, s) for n, s in enumerate(sections) if s.ifrs
        ]
        best = max(scored, key=lambda t: t[:2], default=None)
        if best is not None and best[0]:
            out[locator] = best[2]
    return out


def _knows(section: Section, row: StatementRow) -> bool:
    return lookup(section, row.row_label, context_of(section, row.section)) is not None


def _map_row(
    row: StatementRow,
    section: Section,
    context: str | None,
    gaap: Decimal | None,
    catalog: LabelCatalog,
    sink: _Sink,
) -> None:
    if not row.row_label or parse_cell(row.row_label).kind is not CellKind.TEXT:
        sink.reject(row, "values without a readable row label")
        return
    metric = lookup(section, row.row_label, context)
    if metric is None and row.section:
        # a label wrapped over two lines read as a heading and a row: joined if only the
        # whole label is known ("Non-GAAP net income per ADS ... of Qifu" / "Technology, Inc")
        joined = f"{row.section} {row.row_label}"
        metric = lookup(section, joined, context)
        if metric is not None:
            row = replace(row, provenance=replace(row.provenance, row_label=joined))
    if metric is None:
        if shared_metric(row) is None:  # else the shared labels read it
            sink.reject(row, "no metric for this label")
        return
    if metric == IGNORED:
        return
    made = _fact(metric, row, section, catalog.metrics[metric])
    where = f"{metric} [{row.provenance.column}]"
    if isinstance(made, str):
        sink.reject(row, f"{made}: {row.provenance.raw_text!r} {where}")
        return
    if row.basis == Basis.IFRS:
        if gaap is None:
            sink.reject(row, f"IFRS row does not add up {where}")
            return
        sink.gaap_refs[id(made)] = -gaap if metric in section.negate else gaap
    sink.facts.append(made)


def _fact(metric: str, row: StatementRow, section: Section, definition: MetricDef) -> Fact | str:
    """The fact of one row's figure, or why it cannot be one."""
    cell = parse_cell(row.provenance.raw_text)
    problem = _check(cell, definition.unit)
    period = figure_period(definition, row.period_start, row.period_end)
    if problem is None and (period is None or definition.kind != "instant" and not period[0]):
        problem = "period not readable from the header"
    if problem is not None:
        return problem
    assert period is not None
    start, end = period
    assert cell.value is not None
    money = definition.unit == "CNY"
    scale = row.scale if money else 0
    sign = -1 if metric in section.negate else 1
    return Fact(
        metric=metric,
        period_start=start,
        period_end=end,
        value=sign * cell.value * Decimal(10) ** scale,
        unit=fact_unit(definition.unit, row.currency) if money else definition.unit,
        scale=scale,
        decimals=-scale if money else cell.frac_digits,
        provenance=row.provenance,
        basis=row.basis,
    )


def _check(cell: CellValue, unit: str) -> str | None:
    """Why a printed figure cannot be a value of this unit (None when it can)."""
    if cell.kind is CellKind.DAMAGED or cell.value is None:
        return "damaged cell"
    if unit == "percent":
        return None if cell.percent else "percent metric without a % sign"
    if cell.percent:
        return "unexpected % sign"
    if unit == "CNY":
        return "fraction in a whole-thousands figure" if cell.frac_digits else None
    if unit in ("shares", "count"):
        return "fraction in a count" if cell.frac_digits else None
    return None


def standard_facts(rows: Sequence[StatementRow], facts: Sequence[Fact]) -> tuple[Fact, ...]:
    """Facts the shared mapping reads from rows no fact of ``facts`` was read from.

    The first row of a metric and period wins; a key ``facts`` holds is never read again.
    """
    taken = row_facts(rows, facts)
    held = {f.key for f in facts}
    rules = standard_rules()
    out: list[Fact] = []
    for i, row in enumerate(rows):
        kind = rules.get(row.statement)
        if i in taken or kind is None:
            continue
        metric = metric_for(kind, row.section, row.row_label) or _section_total(rows, i, kind)
        if metric is None:
            continue
        fact = _shared_fact(metric, row, kind)
        if fact is not None and fact.key not in held:
            held.add(fact.key)
            out.append(fact)
    return tuple(out)


def _section_total(rows: Sequence[StatementRow], i: int, kind: StatementRules) -> str | None:
    """A row without a label equal to the sum of the rows above it in its section."""
    row = rows[i]
    metric = kind.section_totals.get(normalize_label(row.section).rstrip())
    if row.row_label.strip() or metric is None:
        return None
    same = (row.provenance.document, row.provenance.locator, row.section, row.period_end)
    above = [
        r.value
        for r in rows[:i]
        if (r.provenance.document, r.provenance.locator, r.section, r.period_end) == same
        and r.period_start == row.period_start
    ]
    return metric if above and sum(above) == row.value else None


def _shared_fact(metric: str, row: StatementRow, kind: StatementRules) -> Fact | None:
    """The fact of a row the shared labels map (None: its balance's day is not printed)."""
    period = figure_period(metrics()[metric], row.period_start, row.period_end)
    if period is None:
        return None
    value = abs(row.value) if metric in kind.positive else row.value
    return Fact(
        metric=metric,
        period_start=period[0],
        period_end=period[1],
        value=value,
        unit=fact_unit(metrics()[metric].unit, row.currency),
        scale=row.scale,
        decimals=row.decimals,
        provenance=row.provenance,
        basis=row.basis,
        origin=Origin.TABLE,
    )
