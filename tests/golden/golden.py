"""Reader for the hand-written golden files (tests/golden/*.json).

A golden file lists a document's facts as printed: statement rows under their column periods,
narrative figures as (period, value) pairs, plus guidance and dividends. Periods are written
"2023Q4", "2024H1", "2023FY" or as an instant date "2023-12-31".
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

from domain.rowrecords import StatementRow
from tasks.parsers.documents.running_text import full_year, half, quarter

GOLDEN = Path(__file__).resolve().parent
Key = tuple[str, date | None, date, str]


@dataclass(frozen=True)
class Golden:
    """Everything a golden file says about one document."""

    kind: str
    usd_rate: Decimal | None
    tables: dict[Key, Decimal]
    narrative: dict[Key, tuple[Decimal, int]]  # value and precision (XBRL decimals)
    refused: tuple[str, ...]
    guidance: tuple[dict[str, Any], ...]
    dividends: tuple[dict[str, Any], ...]


def period(text: str) -> tuple[date | None, date]:
    """ "2023Q4" / "2024H1" / "2023FY" / "2023-12-31" -> (start, end); start None for instants."""
    if len(text) == 10:
        return None, date.fromisoformat(text)
    year, part = int(text[:4]), text[4:]
    if part == "FY":
        return full_year(year)
    if part[0] == "H":
        return half(year, int(part[1]))
    return quarter(year, int(part[1]))


def printed(text: str, scale: int) -> tuple[Decimal, int]:
    """A figure as printed ("(1,885,694)", "4,495.5", "-213.3", "–" a nil) -> whole units,
    decimals."""
    if text == "–":
        return Decimal(0), -scale
    negative = text.startswith("(") and text.endswith(")")
    digits = text.strip("()").replace(",", "")
    frac = len(digits.partition(".")[2])
    value = Decimal(digits) * Decimal(10) ** scale
    return (-value if negative else value), frac - scale


def load(seed: str) -> Golden:
    """The golden file of one seed (by the seed's file name)."""
    data = json.loads((GOLDEN / (Path(seed).stem + ".json")).read_text(encoding="utf-8"))
    tables: dict[Key, Decimal] = {}
    for block in data["tables"]:
        periods = [period(p) for p in block["periods"]]
        for metric, *values in block["rows"]:
            for (start, end), text in zip(periods, values, strict=True):
                key = (metric, start, end, block.get("basis", "us_gaap"))
                value = printed(text, block["scale"])[0]
                assert tables.setdefault(key, value) == value, (
                    f"golden disagrees with itself: {key}"
                )
    narrative: dict[Key, tuple[Decimal, int]] = {}
    for block in data["narrative"]:
        for metric, *pairs in block["rows"]:
            for p, text in zip(pairs[::2], pairs[1::2], strict=True):
                start, end = period(p)
                found = printed(text, block["scale"])
                key = (metric, start, end, "us_gaap")
                assert narrative.setdefault(key, found) == found, f"golden disagrees: {key}"
    rate = data["usd_rate"]
    return Golden(
        data["kind"],
        Decimal(rate) if rate else None,
        tables,
        narrative,
        tuple(data["refused"]),
        tuple(data["guidance"]),
        tuple(data["dividends"]),
    )


RowKey = tuple[str, str, date | None, date, str]  # statement, label, start, end, currency
# statement, section, label, start, end, currency
SectionKey = tuple[str, str, str, date | None, date, str]


def load_rows(document: str) -> dict[RowKey, tuple[Decimal, int]]:
    """The hand-written statement rows of one document (tests/golden/rows/<document>.json):
    (statement, label as printed, period, currency) -> (value in whole units, decimals)."""
    rows: dict[RowKey, tuple[Decimal, int]] = {}
    for (statement, _, label, start, end, currency), found in _cells(document):
        key = (statement, label, start, end, currency)
        assert key not in rows, f"golden names a row twice: {key}"
        rows[key] = found
    return rows


def load_section_rows(document: str) -> dict[SectionKey, tuple[Decimal, int]]:
    """As load_rows, keyed with each row's section too (a golden whose blocks name their
    section: unlabelled subtotals are told apart by it)."""
    rows: dict[SectionKey, tuple[Decimal, int]] = {}
    for key, found in _cells(document):
        assert key not in rows, f"golden names a row twice: {key}"
        rows[key] = found
    return rows


def section_cells(rows: Iterable[StatementRow]) -> dict[SectionKey, tuple[Decimal, int]]:
    """Rows read, keyed as load_section_rows keys the golden file's cells."""
    return {
        (r.statement.value, r.section, r.row_label, r.period_start, r.period_end, r.currency): (
            r.value,
            r.decimals,
        )
        for r in rows
    }


def _cells(document: str) -> list[tuple[SectionKey, tuple[Decimal, int]]]:
    path = GOLDEN / "rows" / (Path(document).stem + ".json")
    data = json.loads(path.read_text(encoding="utf-8"))
    cells = []
    for block in data["statements"]:
        periods = [_span(p) for p in block["periods"]]
        for label, *values in block["rows"]:
            for (start, end), text in zip(periods, values, strict=True):
                key = (block["statement"], block.get("section", ""), label, start, end)
                cells.append(((*key, block["currency"]), printed(text, block["scale"])))
    return cells


def _span(text: str) -> tuple[date | None, date]:
    """ "2024-08-04/2024-11-02" (a duration) or "2024-11-02" (an instant)."""
    start, _, end = text.rpartition("/")
    return (date.fromisoformat(start) if start else None), date.fromisoformat(end)
