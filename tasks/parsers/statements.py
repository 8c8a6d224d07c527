"""Statement tables -> Facts, through the label catalog.

Every value column is read for its period from the headers; every body row is looked up in the
catalog. A row no metric maps to (and not known-ignored), a damaged cell, an unreadable period
or two disagreeing values for one fact become UnmappedRow/warning entries, never a fact.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from tasks.core.enums import Basis
from tasks.core.records import Fact, Provenance, UnmappedRow
from tasks.parsers.catalog import LabelCatalog, Section
from tasks.parsers.checks import settle
from tasks.parsers.headers import Column, header_lines, resolve_columns, without_notes
from tasks.parsers.numbers import CellKind, CellValue, parse_cell
from tasks.parsers.rows import IGNORED, BodyRow, body_rows, has_values, lookup, segments
from tasks.parsers.setting import TableSetting, read_setting
from tasks.parsers.tablemeta import titled
from tasks.parsers.tables import ParsedDocument, RawTable

Setting = TableSetting[Section]


@dataclass(frozen=True, slots=True)
class StatementFacts:
    """Facts read from a document's statement tables, with what could not be used."""

    facts: tuple[Fact, ...]
    unmapped: tuple[UnmappedRow, ...]
    warnings: tuple[str, ...]


@dataclass
class _Sink:
    """Collector while walking one document (internal, mutable)."""

    document: str
    catalog: LabelCatalog
    facts: list[Fact] = field(default_factory=list)
    unmapped: list[UnmappedRow] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    gaap_refs: dict[int, Decimal] = field(default_factory=dict)  # id(ifrs fact) -> GAAP value
    columns: list[Column] = field(default_factory=list)  # the last table's, for its sequel

    def reject(self, table: RawTable, setting: Setting, label: str, reason: str) -> None:
        title = setting.title or (setting.what.name if setting.what else "")
        self.unmapped.append(UnmappedRow(table.locator, title, label, reason))
        self.warnings.append(f"{self.document} {table.locator} {label!r}: {reason}")


def extract_statements(doc: ParsedDocument, catalog: LabelCatalog, document: str) -> StatementFacts:
    """Read every statement table of a parsed document into facts."""
    sink = _Sink(document, catalog)
    setting: Setting = TableSetting(None)
    for table in doc.tables:
        previous, setting = setting, table_setting(table, catalog, setting)
        if setting.what is not None:
            _read_table(table, setting, sink, continued=setting is previous)
    facts, warnings = settle(sink.facts, sink.gaap_refs, document)
    return StatementFacts(tuple(facts), tuple(sink.unmapped), tuple(sink.warnings + warnings))


def table_setting(table: RawTable, catalog: LabelCatalog, previous: Setting) -> Setting:
    """A table's setting, its catalog section recognised by the section's titles (or the
    IFRS column headers)."""
    header = " ".join(c for seg in segments(table.rows) for row in seg.header for c in row)
    return read_setting(table, previous, lambda near, _: _find_section(catalog, near, header))


def _find_section(
    catalog: LabelCatalog, near: tuple[str, ...], header_text: str
) -> tuple[Section | None, str]:
    ifrs = "IFRS" in header_text
    candidates = [s for s in catalog.sections if s.ifrs == ifrs]
    lines = [ln for ln in reversed(near) if len(ln) <= 300 and titled(ln)]
    lines = ([header_text] if ifrs else []) + lines
    for line in lines:
        lowered = line.lower()
        for section in candidates:
            if any(t in lowered for t in section.titles):
                return section, line[:200]
    return None, ""


def _read_table(table: RawTable, setting: Setting, sink: _Sink, continued: bool) -> None:
    assert setting.what is not None
    width = len(table.rows[0]) if table.rows else 0
    lead = table.preamble[-3:]
    for number, segment in enumerate(segments(table.rows)):
        sequel = continued and number == 0 and not segment.header and not header_lines(lead)
        if sequel and sink.columns and sink.columns[-1].index < width:
            columns = sink.columns  # continued on the next page without its header
        else:
            head = lead if number == 0 else ()
            columns = resolve_columns(list(segment.header), width, setting.period_title, head)
        sink.columns = columns
        for row in body_rows(without_notes(segment.body, columns), setting.what):
            _read_row(row, columns, table, setting, sink)


def _read_row(
    row: BodyRow, columns: list[Column], table: RawTable, setting: Setting, sink: _Sink
) -> None:
    assert setting.what is not None
    if not row.label or parse_cell(row.label).kind is not CellKind.TEXT:
        sink.reject(table, setting, row.label, "values without a readable row label")
        return
    metric = lookup(setting.what, row.label, row.context)
    if metric is None:
        sink.reject(table, setting, row.label, "no metric for this label")
        return
    if metric == IGNORED:
        return
    targets = [c for c in columns if c.role in ("value", "ifrs")]
    if not targets:
        sink.reject(table, setting, row.label, "no value column found in the header")
    for column in targets:
        fact = _fact(metric, row, column, columns, table, setting, sink)
        if fact is not None:
            sink.facts.append(fact)


def _fact(
    metric: str,
    row: BodyRow,
    column: Column,
    columns: list[Column],
    table: RawTable,
    setting: Setting,
    sink: _Sink,
) -> Fact | None:
    assert setting.what is not None
    cell = parse_cell(_cell(row, column))
    if cell.kind in (CellKind.EMPTY, CellKind.TEXT):
        return None
    if cell.kind is CellKind.NIL and not any(has_values(("", c)) for c in row.cells):
        return None
    where = f"{metric} [{column.header}]"
    definition = sink.catalog.metrics[metric]
    problem = _check(cell, definition.unit, setting.scale)
    period = _period(definition.kind, column)
    if problem is None and period is None:
        problem = "period not readable from the header"
    if problem is not None:
        sink.reject(table, setting, row.label, f"{problem}: {cell.raw!r} {where}")
        return None
    assert cell.value is not None and period is not None
    sign = -1 if metric in setting.what.negate else 1
    scale = setting.scale if definition.unit == "CNY" else 0
    assert scale is not None
    gaap = _ifrs_check(row, column, columns) if column.role == "ifrs" else None
    if column.role == "ifrs" and gaap is None:
        sink.reject(table, setting, row.label, f"IFRS row does not add up {where}")
        return None
    fact = Fact(
        metric=metric,
        period_start=period[0],
        period_end=period[1],
        value=sign * cell.value * Decimal(10) ** scale,
        unit=definition.unit,
        scale=scale,
        decimals=-scale if definition.unit == "CNY" else cell.frac_digits,
        provenance=Provenance(sink.document, table.locator, row.label, column.header, cell.raw),
        basis=Basis.IFRS if setting.what.ifrs else Basis.US_GAAP,
    )
    if gaap is not None:
        sink.gaap_refs[id(fact)] = sign * gaap * Decimal(10) ** scale
    return fact


def _cell(row: BodyRow, column: Column) -> str:
    index = column.index - 1
    return row.cells[index] if 0 <= index < len(row.cells) else ""


def _check(cell: CellValue, unit: str, scale: int | None) -> str | None:
    """Why a cell cannot be a value of this unit (None when it can)."""
    if cell.kind is CellKind.DAMAGED:
        return "damaged cell"
    if unit == "percent":
        return None if cell.percent else "percent metric without a % sign"
    if cell.percent:
        return "unexpected % sign"
    if unit == "CNY":
        if scale is None:
            return "no scale statement (in thousands) for the table"
        return "fraction in a whole-thousands figure" if cell.frac_digits else None
    if unit in ("shares", "count"):
        return "fraction in a count" if cell.frac_digits else None
    return None


def _period(kind: str, column: Column) -> tuple[date | None, date] | None:
    if column.end is None:
        return None
    if kind == "instant":
        return None, column.end  # e.g. cash at end of period, read from a flow column
    return (column.start, column.end) if column.start is not None else None


def _ifrs_check(row: BodyRow, column: Column, columns: list[Column]) -> Decimal | None:
    """The GAAP amount when GAAP + adjustments = IFRS holds exactly, else None."""
    values: dict[str, Decimal] = {"adjustment": Decimal(0)}
    gaap: Decimal | None = None
    for other in columns:
        cell = parse_cell(_cell(row, other))
        if cell.kind in (CellKind.DAMAGED, CellKind.TEXT):
            return None
        amount = cell.value if cell.value is not None else Decimal(0)
        if other.role == "gaap":
            gaap = amount if cell.kind is CellKind.NUMBER else None
        elif other.role == "adjustment":
            values["adjustment"] += amount
    ifrs = parse_cell(_cell(row, column)).value
    if gaap is None or ifrs is None or gaap + values["adjustment"] != ifrs:
        return None
    return gaap
