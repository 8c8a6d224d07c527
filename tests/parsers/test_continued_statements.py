"""A statement continued on the next page, with its title marked "(continued)" / "（續）" and its
header printed again, reads as the one statement it is: the real Ernest Borel balance sheet
(tests/fixtures/real) as laid-out text (pdftotext -layout style, pdfplumber's layout mode),
cut into two pages after NET CURRENT ASSETS. One class per document edition."""

from __future__ import annotations

import io
from pathlib import Path
from typing import ClassVar

import pdfplumber
import pytest

from tasks.parsers.documents.plain_text import parse_text
from tasks.parsers.statements.asreported import read_rows

REAL = Path(__file__).resolve().parent.parent / "fixtures" / "real"
Read = set[tuple[str, str, object, object, object]]


def _page_text(stem: str, page: int) -> str:
    with pdfplumber.open(io.BytesIO((REAL / f"{stem}.pdf").read_bytes())) as pdf:
        text = pdf.pages[page - 1].extract_text(layout=True, x_density=4.5)
    return "\n".join(line.rstrip() for line in text.splitlines() if line.strip())


def _rows(text: str) -> Read:
    read = read_rows(parse_text(text), "balance.txt")
    assert read.refused == ()
    return {(r.statement.value, r.row_label, r.section, r.period_end, r.value) for r in read.rows}


class ContinuedBalanceSheet:
    stem: ClassVar[str]
    cut_after: ClassVar[str]  # the label of the last row on the first page
    continued: ClassVar[str]  # the title's "(continued)" mark

    @pytest.fixture(scope="class")
    def whole(self) -> str:
        return _page_text(self.stem, 3)

    def test_two_pages_read_as_one_statement(self, whole: str) -> None:
        lines = whole.splitlines()
        squeezed = ["".join(ln.split()) for ln in lines]
        cut = next(i for i, ln in enumerate(squeezed) if ln.startswith(self.cut_after)) + 1
        header = next(i for i, ln in enumerate(lines) if "000" in ln or "千港元" in ln) + 1
        second = [f"{lines[0]} {self.continued}", *lines[1:header], *lines[cut:]]
        split = "\n".join(lines[:cut]) + "\n- 3 -\n\f" + "\n".join(second)
        once = _rows(whole)
        assert len(once) == 54
        assert _rows(split) == once


class TestEnglishEdition(ContinuedBalanceSheet):
    stem = "HK01856_2014FY_annual-results_en"
    cut_after = "NETCURRENTASSETS"
    continued = "(continued)"


class TestChineseEdition(ContinuedBalanceSheet):
    stem = "HK01856_2014FY_annual-results_zh"
    cut_after = "流動資產淨值"
    continued = "（續）"
