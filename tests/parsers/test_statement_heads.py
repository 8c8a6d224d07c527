"""What a statement's title and column heads say, as Hong Kong and US issuers print them:
its kind (the Chinese 綜合收益表; a single statement of comprehensive income that opens with
revenue is the income statement) and its scale (RMB million, HK$m, RMB'Million)."""

from __future__ import annotations

import collections
from pathlib import Path

import pytest

from domain.rowrecords import StatementKind
from tasks.extract import parse_document
from tasks.parsers.statements.asreported import read_rows
from tasks.parsers.tables.statement_titles import scale_of, statement_kind

REAL = Path(__file__).resolve().parent.parent / "fixtures" / "real"


class TestScaleHeads:
    @pytest.mark.parametrize(
        ("head", "power"),
        [
            ("RMB'000", 3),
            ("HK$’000", 3),
            ("RMB million", 6),
            ("RMB'Million", 6),
            ("HK$m", 6),
            ("US$ million", 6),
            ("RMB thousands", 3),
            ("(in RMB millions, except per share data)", 6),
            ("(Amounts in thousands of Renminbi)", 3),
            ("人民幣百萬元", 6),
        ],
    )
    def test_a_column_head_states_its_scale(self, head: str, power: int) -> None:
        assert scale_of(head) == power

    @pytest.mark.parametrize(
        "sentence", ["Total net revenue was RMB4,482.3 million", "RMB4.5m", "RMB most"]
    )
    def test_a_figure_in_a_sentence_is_no_scale_line(self, sentence: str) -> None:
        assert scale_of(sentence) is None


class TestStatementTitles:
    @pytest.mark.parametrize("title", ["綜合收益表", "簡明綜合收益表", "综合收益表"])
    def test_the_chinese_consolidated_income_statement(self, title: str) -> None:
        assert statement_kind(title) is StatementKind.INCOME_STATEMENT

    def test_the_statement_of_comprehensive_income_alone_is_other(self) -> None:
        assert statement_kind("綜合全面收益表") is StatementKind.OTHER
        assert statement_kind("CONSOLIDATED STATEMENT OF COMPREHENSIVE INCOME") is (
            StatementKind.OTHER
        )


class TestErnestBorelAnnualResultsTitledComprehensiveIncome:
    """The real 2014 annual results with the income statement's title shortened to the
    single-statement form IFRS also allows: it opens with Revenue, so it is still read as the
    income statement, all 36 cells of it."""

    def test_a_single_statement_of_comprehensive_income_is_the_income_statement(self) -> None:
        from tests.parsers.test_text_renderings import laid_out

        text = laid_out((REAL / "HK01856_2014FY_annual-results_en.pdf").read_bytes(), 6.0)
        lines = text.split("\n")
        at = next(i for i, line in enumerate(lines) if "PROFIT" in line and "OTHER" in line)
        indent = lines[at][: len(lines[at]) - len(lines[at].lstrip())]
        lines[at : at + 2] = [f"{indent}CONSOLIDATED STATEMENT OF COMPREHENSIVE INCOME", ""]
        read = read_rows(parse_document("x.txt", "\n".join(lines).encode()), "x.txt")
        kinds = collections.Counter(r.statement for r in read.rows)
        assert kinds == {StatementKind.INCOME_STATEMENT: 36, StatementKind.BALANCE_SHEET: 54}
        assert read.refused == ()
