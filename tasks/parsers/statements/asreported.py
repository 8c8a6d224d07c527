"""Statement tables -> StatementRows: every value cell of every statement, as printed.

Issuer-independent (no label catalog): the statement comes from the table's title, each
column's period and currency from the header, the scale from the scale line. A convenience
translation column (USD beside RMB) is not a row. A cell that cannot be read exactly (its
period, currency or scale unknown, or the figure damaged) is refused with a reason, never
guessed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from decimal import Decimal

from domain.enums import Basis
from domain.provenance import Provenance
from domain.rowrecords import RefusedRow, StatementKind, StatementRow
from tasks.parsers.documents import wrapping
from tasks.parsers.documents.numbers import CellKind, CellValue, cents_of, parse_cell
from tasks.parsers.documents.raw_tables import ParsedDocument, RawTable, Row
from tasks.parsers.documents.zh import has_han
from tasks.parsers.statements.reconciliation import gaap_basis
from tasks.parsers.tables.headers import Column, header_lines, resolve_columns, without_notes
from tasks.parsers.tables.segments import clean_label, has_values, segments, unplaced_figures
from tasks.parsers.tables.statement_titles import (
    CONTINUED,
    currencies_in,
    except_per_share,
    except_shares,
    scale_of,
    statement_kind,
)
from tasks.parsers.tables.table_setting import TableSetting, read_setting

# the first lines of an income statement: "Revenue", "Turnover", "Total net revenues", 收益
_REVENUE = re.compile(
    r"(?:total )?(?:net )?(?:revenues?|turnover|sales)\b"
    r"|(?:收益|收入|營業額|营业额|營業收入|营业收入)$",
    re.I,
)
_SHARES = re.compile(
    r"weighted[- ]average\b.*\b(?:shares|ADSs?)\b|\b(?:shares|ADSs?) used\b|number of .*shares",
    re.IGNORECASE,
)
# a Chinese total closes its section: "流動資產總值", "负债总额", "合計"
_ZH_TOTAL = re.compile(r"(?:[總总](?:值|額|额|計|计)|合[計计])$")
_DASHED = re.compile(r"[–—－-]\s*\S")
_FULL_WIDTH = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]")
_PER_SHARE = re.compile(r"\bper (?:ordinary |common |class \w )?share\b|\bper ADS\b|每股", re.I)


@dataclass(frozen=True, slots=True)
class RowsRead:
    """The statement rows of one document, and what could not be read."""

    rows: tuple[StatementRow, ...]
    refused: tuple[RefusedRow, ...]
    # an IFRS reconciliation row (by its position in ``segments``) -> its U.S. GAAP amount, when
    # GAAP + adjustments = IFRS holds exactly in its printed row, else None
    gaap: dict[int, Decimal | None] = field(default_factory=dict)


Setting = TableSetting[StatementKind]
_IFRS = StatementKind.IFRS_RECONCILIATION


@dataclass
class _Sink:
    document: str
    rows: list[StatementRow] = field(default_factory=list)
    gaap: dict[int, Decimal | None] = field(default_factory=dict)
    refused: dict[tuple[str, str, str, str], RefusedRow] = field(default_factory=dict)
    index: int = 0  # row position within the current statement
    columns: list[Column] = field(default_factory=list)  # the last table's, for its sequel

    def refuse(self, table: RawTable, setting: Setting, label: str, reason: str) -> None:
        assert setting.what is not None
        key = (table.locator, setting.title, label, reason)
        row = RefusedRow(setting.what, setting.title, label, table.locator, reason)
        self.refused.setdefault(key, row)


def read_rows(doc: ParsedDocument, document: str) -> RowsRead:
    """Every value cell of every statement table of a parsed document."""
    sink = _Sink(document)
    setting: Setting = TableSetting(None)
    for table in doc.tables:
        previous, setting = setting, table_setting(table, setting)
        if setting.what is None:
            continue
        # a statement's "(continued)" page goes on with its rows: one table, one row count
        goes_on = setting.what is previous.what and any(CONTINUED.search(x) for x in table.preamble)
        if setting is not previous and not goes_on:
            sink.index = 0
        _read_table(table, setting, sink, continued=setting is previous)
    return RowsRead(tuple(sink.rows), tuple(sink.refused.values()), sink.gaap)


def table_setting(table: RawTable, previous: Setting) -> Setting:
    """A table's setting, its statement kind named by its title's words. A single statement
    of comprehensive income (IFRS allows one) that opens with revenue is the income
    statement: profit or loss is its first part."""
    setting = read_setting(table, previous, _kind)
    if setting is previous and setting.what is _IFRS and setting.scale is None:
        # an IFRS table continuing one without a scale line, printing its own in its heads
        setting = replace(read_setting(table, previous, _ifrs_heads), title=previous.title)
    if setting.what is StatementKind.OTHER and _opens_with_revenue(table):
        return replace(setting, what=StatementKind.INCOME_STATEMENT)
    return setting


def _opens_with_revenue(table: RawTable) -> bool:
    labels = [row[0] for row in table.rows if row and row[0].strip()][:3]
    return any(_REVENUE.match(label.strip()) for label in labels)


def _kind(near: tuple[str, ...], header: str) -> tuple[StatementKind | None, str]:
    titled = [(k, ln) for ln in reversed(near) for k in [statement_kind(ln, header)] if k]
    return titled[0] if titled else (None, "")


def _ifrs_heads(near: tuple[str, ...], header: str) -> tuple[StatementKind | None, str]:
    """An untitled IFRS reconciliation table, named by its columns' heads."""
    if statement_kind("", header) is StatementKind.IFRS_RECONCILIATION:
        return StatementKind.IFRS_RECONCILIATION, ""
    return None, ""


def _read_table(table: RawTable, setting: Setting, sink: _Sink, continued: bool) -> None:
    width = len(table.rows[0]) if table.rows else 0
    lead = table.preamble[-3:]
    offset = 0
    for number, segment in enumerate(segments(table.rows)):
        sequel = continued and number == 0 and not segment.header and not header_lines(lead)
        if sequel and sink.columns and sink.columns[-1].index < width:
            found = sink.columns  # continued on the next page without its header
        else:
            found = resolve_columns(
                list(segment.header), width, setting.period_title, lead if number == 0 else ()
            )
        sink.columns = found
        body = without_notes(segment.body, found)
        start = offset + len(segment.header)
        indents = table.indents[start : start + len(body)] or (0,) * len(body)
        offset = start + len(body)
        _read_body(body, indents, _value_columns(found), table, setting, sink)


@dataclass
class _Outline:
    """The headings open above a row, innermost last: (heading, indent, whether its rows are
    indented under it). A heading whose rows are indented under it closes at the first row
    printed at its own level or left of it; one whose rows stand at its level closes after
    its total or unlabelled subtotal."""

    open: list[tuple[str, int, bool | None]] = field(default_factory=list)
    printed: dict[str, str] = field(default_factory=dict)  # a heading as printed, by its name

    def heading(self, text: str, indent: int) -> None:
        self.open = [h for h in self.open if h[1] < indent]
        name = clean_label(text).rstrip(":：").strip()
        self.open.append((name, indent, None))
        self.printed[name] = clean_label(text)

    def sub_row(self, label: str) -> str:
        """A row opening with a dash indented under its heading ("– Owners of the Company"
        under "Profit for the period attributable to:") is read with the heading before it."""
        if not _DASHED.match(label) or not self.open or not self.open[-1][2]:
            return label
        head = self.printed.get(self.open[-1][0], self.open[-1][0])
        return f"{head}{'' if _FULL_WIDTH.search(head[-1:] + label[:1]) else ' '}{label}"

    def section(self, indent: int) -> str:
        """The section of a row at ``indent`` (closing the headings it ends)."""
        self.open = [(t, i, indent > i if under is None else under) for t, i, under in self.open]
        self.open = [h for h in self.open if not (h[2] and indent <= h[1])]
        return self.open[-1][0] if self.open else ""

    def closed_by(self, label: str) -> None:
        """A total or an unlabelled subtotal ends the innermost heading at its level."""
        if not label or label.lower().startswith("total") or _ZH_TOTAL.search(label):
            self.open = self.open[:-1]


def _read_body(
    body: tuple[Row, ...],
    indents: tuple[int, ...],
    columns: list[Column],
    table: RawTable,
    setting: Setting,
    sink: _Sink,
) -> None:
    outline, pending, level = _Outline(), "", 0
    widest = max((len(row[0]) for row in body), default=0)
    for at, (row, indent) in enumerate(zip(body, indents, strict=True)):
        if not has_values(row) and not any(_damaged(c) for c in row[1:]):
            text = " ".join(c for c in row if c)
            if unplaced_figures(text):  # "GAAP operating margin 24.2% 28.5%" and no column for them
                sink.refuse(table, setting, clean_label(text), "figures outside the columns")
                pending = ""
                continue
            # a heading wrapped over two lines goes on in lower case, or after a line
            # left unfinished ("... 50,773,796 shares at November 2, 2024,")
            if pending and _goes_on(pending, text, widest):
                pending = f"{pending} {text}"
                continue
            if pending and _heading(pending):
                outline.heading(pending, level)  # a heading above another heading
            pending, level = text, indent
            continue
        label = row[0]
        if pending and not label.strip():
            label = pending  # the label printed on the line above its figures
        elif pending and _goes_on(pending, label, widest):
            label, indent = f"{pending} {label}", level  # a label wrapped over two lines
        elif pending and _wrapped_han(pending, level, indent, indents[at + 1 : at + 2]):
            label, indent = f"{pending}{label}", level
        elif pending and _heading(pending):
            outline.heading(pending, level)
        pending = ""
        section = outline.section(indent)
        read = outline.sub_row(clean_label(label)) if label.strip() else label
        _read_row(clean_label(read), section, row, columns, table, setting, sink)
        outline.closed_by(clean_label(label) if label.strip() else "")


def _goes_on(pending: str, line: str, widest: int) -> bool:
    """``line`` continues the label or heading ``pending`` printed above it: in lower case,
    after a line left unfinished, or where the printer wrapped it."""
    if wrapping.goes_on(line):
        return True
    if line.lower().startswith("total "):
        return False  # a total opens a row of its own, whatever the line above left unfinished
    # "... equity shareholders of the Company" / "(expressed in RMB)": an aside in lower case
    aside = line.startswith("(") and line.endswith(")") and line[1:2].islower()
    named = wrapping.name_goes_on(pending, line)
    return wrapping.unfinished(pending) or aside or named or _wrapped(pending, line, widest)


def _wrapped(pending: str, label: str, widest: int) -> bool:
    """The printer wrapped the label: the line above could not take the next word within the
    widest label's width, has no colon, and the line below goes on with a figure ("... shares
    at October" / "28, 2023") or both are in capitals ("OPERATING LEASE RIGHT-OF-USE" /
    "ASSETS"; a heading in capitals, "CURRENT ASSETS", is short). Lower case goes on anyway."""
    words = label.split(maxsplit=1)
    if not words or pending.endswith((":", "：")) or len(pending) + 1 + len(words[0]) <= widest:
        return False
    return label[:1].isdigit() or (pending.isupper() and label.isupper())


def _wrapped_han(pending: str, level: int, indent: int, after: tuple[int, ...]) -> bool:
    """A Chinese label wrapped under a hanging indent: its one line below stands further in
    and the row after it back at the label's level ("出售按公允值計入損益之" / "金融資產所得款項");
    a heading's rows go on at their indent, and a heading ending in a colon opens sub-rows."""
    if not has_han(pending) or pending.endswith((":", "：")) or indent <= level:
        return False
    return not after or after[0] <= level


def _heading(text: str) -> bool:
    """A value-less row that names a section (not a scale note or the end of one)."""
    return scale_of(text) is None and text.count("(") == text.count(")")


def _value_columns(columns: list[Column]) -> list[Column]:
    """The columns whose cells are statement rows: not a convenience translation, and in an
    IFRS reconciliation only the figures reported under IFRSs."""
    if any(c.role == "ifrs" for c in columns):
        return [c for c in columns if c.role == "ifrs"]
    values = [c for c in columns if c.role == "value"]
    return values or [c for c in columns if c.role == "usd"]  # a USD-only statement


def _damaged(cell: str) -> bool:
    return parse_cell(cell).kind is CellKind.DAMAGED


def _read_row(
    label: str,
    section: str,
    row: Row,
    columns: list[Column],
    table: RawTable,
    setting: Setting,
    sink: _Sink,
) -> None:
    if not columns:
        sink.refuse(table, setting, label, "no value column found in the header")
        return
    for column in columns:
        index = column.index
        cell = parse_cell(row[index] if index < len(row) else "")
        if cell.kind in (CellKind.EMPTY, CellKind.TEXT):
            continue
        made = _row(label, section, cell, column, table, setting, sink)
        if isinstance(made, str):
            sink.refuse(table, setting, label, f"{made} [{column.header}]")
            continue
        if column.role == "ifrs":
            sink.gaap[len(sink.rows)] = gaap_basis(row, column, sink.columns, made.scale)
        sink.rows.append(made)
    sink.index += 1


def _row(
    label: str,
    section: str,
    cell: CellValue,
    column: Column,
    table: RawTable,
    setting: Setting,
    sink: _Sink,
) -> StatementRow | str:
    """The row for one cell, or why it cannot be read."""
    assert setting.what is not None
    if cell.kind is CellKind.DAMAGED or cell.value is None:
        return f"damaged cell {cell.raw!r}"
    if column.end is None:
        return "period not readable from the header"
    unit = _unit(label, section, cell, setting)
    # "(Hong Kong cents)": hundredths of the label's currency, printed on the row or on the
    # heading above its sub-rows ("Earnings per share (HK cents)" over "- Basic")
    cents = cents_of(label) or (cents_of(section) if unit == "per_share" else None)
    currency = ""
    if unit in ("money", "per_share"):
        stated = [cell.currency, cents or "", *currencies_in(column.header), setting.currency]
        currency = next((c for c in stated if c), "")
        if not currency:
            return "currency not stated in the header or title"
    scale = -2 if unit == "per_share" and cents is not None else _scale(unit, setting)
    if scale is None:
        return "no scale statement (in thousands) for the table"
    return StatementRow(
        statement=setting.what,
        table_title=setting.title,
        row_label=label,
        row_index=sink.index,
        section=section,
        period_start=column.start,
        period_end=column.end,
        currency=currency,
        value=cell.value * Decimal(10) ** scale,
        scale=scale,
        decimals=cell.frac_digits - scale,
        provenance=Provenance(sink.document, table.locator, label, column.header, cell.raw),
        basis=Basis.IFRS if setting.what is StatementKind.IFRS_RECONCILIATION else Basis.US_GAAP,
    )


def _unit(label: str, section: str, cell: CellValue, setting: Setting) -> str:
    """ "count" (shares), "ratio" (percent, per share) or "money" for a row."""
    if cell.percent:
        return "percent"
    if _SHARES.search(label) or (_SHARES.search(section) and not _PER_SHARE.search(label)):
        return "count"  # "Weighted average ADS used in calculating net income per ADS"
    if _PER_SHARE.search(f"{section} {label}") or cents_of(f"{section} {label}") is not None:
        return "per_share"
    if cell.frac_digits and setting.scale and except_per_share(setting.scale_text):
        # a figure printed to the cent in a table of thousands that exempts per-share data
        # is one, whatever the heading above it says (a narrow label column cut "Net income
        # per" / "ordinary share" / ... into lines no heading reader joins)
        return "per_share"
    return "money"


def _scale(unit: str, setting: Setting) -> int | None:
    if unit in ("percent", "per_share"):
        return 0
    if unit == "count" and except_shares(setting.scale_text):
        return 0
    return setting.scale
