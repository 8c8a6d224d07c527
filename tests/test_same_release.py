"""When two documents are one release (domain/releases), on real QFIN documents: the same
release as tab-separated and as laid-out text is one; consecutive releases, which share their
comparative columns, are not. An HKEx announcement's English and Chinese editions (the real
ones of tests/fixtures/real) are two documents whose figures agree, each one the other's
witness. One class per pair of documents."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal
from pathlib import Path

from domain import releases
from domain.records import Fact
from tasks.extract import extract_file

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def _facts(relative: str) -> tuple[Fact, ...]:
    path = FIXTURES / relative
    return extract_file(path.name, path.read_bytes(), "QFIN").facts


Q4_2023 = "seeds/sec_0001741530_2024-03-12_6k_q4-2023.txt"
Q4_2023_LAID_OUT = "laid_out/sec_0001741530_2024-03-12_6k_q4-2023.layout.txt"
Q2_2024 = "seeds/sec_0001741530_2024-08-13_6k_q2-2024.txt"
Q2_2024_LAID_OUT = "laid_out/sec_0001741530_2024-08-13_6k_q2-2024.layout.txt"
REPLAY = Path(__file__).resolve().parents[1] / "tasks" / "sources" / "replay_archive"
Q2_2024_6K = REPLAY / "sec/0001741530/0001104659-24-088431"
HK_FY2024 = "seeds/hkex_03660_2025-03-17_q4-2024-results.txt"
HK_FY2024_LAID_OUT = "laid_out/hkex_03660_2025-03-17_q4-2024-results.layout.txt"


class TestQ4_2023ReleaseAsLaidOutText:
    def test_is_the_same_release_both_ways(self) -> None:
        ours, theirs = _facts(Q4_2023_LAID_OUT), _facts(Q4_2023)
        # (with its opening cash balances and comprehensive income statement: 20 figures)
        assert releases.shared(ours, theirs) == (288, 288)
        assert releases.is_same_release(ours, theirs)
        assert releases.is_same_release(theirs, ours)


class TestHkexFY2024ResultsAsLaidOutText:
    def test_is_the_same_release(self) -> None:
        ours, theirs = _facts(HK_FY2024_LAID_OUT), _facts(HK_FY2024)
        assert len(theirs) > 200  # two readings compared: neither empty
        assert releases.is_same_release(ours, theirs)


class TestQ2_2024ReleaseInThreeFormats:
    # Found by an outside probe: this 6-K prints its US GAAP statements and their IFRS
    # reconciliation (one metric and period, two bases, two values); figures were compared
    # without their basis, so the reconciliation's values read as 45 contradictions and the
    # exhibit's text was loaded again (255 facts_history rows, 3 alerts).
    def test_its_text_and_laid_out_text_are_its_6k(self) -> None:
        exhibits = [  # the 6-K as the warehouse holds it: its two exhibits' facts
            fact
            for path in sorted(Q2_2024_6K.glob("*_ex99-*.htm"))
            for fact in extract_file(path.name, path.read_bytes(), "QFIN").facts
        ]
        # the text of both exhibits (274 figures, US GAAP and the IFRS reconciliation, the
        # cash flow's change in cash, exchange effect and opening balances among them), the
        # laid-out text of the first (239)
        assert {f.basis for f in exhibits} == {"us_gaap", "ifrs"}
        for copy, printed in ((Q2_2024, 274), (Q2_2024_LAID_OUT, 239)):
            ours = _facts(copy)
            assert releases.shared(ours, exhibits) == (printed, printed)
            assert releases.contradicted(ours, exhibits) == 0
            assert releases.is_same_release(ours, exhibits)

    def test_one_basis_changed_is_a_contradiction(self) -> None:
        theirs = _facts(Q2_2024)
        ifrs = next(f for f in theirs if f.basis == "ifrs")
        ours = [replace(f, value=f.value + 1) if f is ifrs else f for f in theirs]
        assert releases.contradicted(ours, theirs) == 1
        assert not releases.is_same_release(ours, theirs)


class TestQ2_2024ReleaseBesideQ4_2023:
    def test_consecutive_releases_are_not_one(self) -> None:
        ours, theirs = _facts(Q2_2024), _facts(Q4_2023)
        same, total = releases.shared(ours, theirs)
        assert 0 < same < total // 2  # comparatives in common, not the release
        assert not releases.is_same_release(ours, theirs)


class TestFY2024ResultsBesideFY2023:
    def test_a_year_later_is_another_release(self) -> None:
        ours, theirs = _facts(HK_FY2024), _facts(Q4_2023)
        assert releases.shared(ours, theirs)[0] > 0  # FY2023 comparatives printed again
        assert not releases.is_same_release(ours, theirs)


class TestQ4_2023ReleaseWithOneFigureChanged:
    def test_a_corrected_version_is_not_a_copy(self) -> None:
        theirs = _facts(Q4_2023)
        first = theirs[0]
        ours = (replace(first, value=first.value + 1), *theirs[1:])
        assert releases.shared(ours, theirs) == (287, 288)
        assert releases.contradicted(ours, theirs) == 1
        assert not releases.is_same_release(ours, theirs)


class TestFewFigures:
    def test_a_handful_of_equal_figures_says_nothing(self) -> None:
        few = _facts(Q4_2023)[: releases.MIN_FIGURES - 1]
        assert releases.shared(few, few) == (len(few), len(few))
        assert not releases.is_same_release(few, few)


REAL = FIXTURES / "real"


class TestErnestBorelFY2014ResultsInEnglishAndChinese:
    # Found by CI: once the Chinese edition's figures were all proved, its 30 read as the
    # English edition's 30 and the edition was dropped as a copy, its Chinese line items lost.
    def _edition(self, name: str) -> tuple[Fact, ...]:
        path = REAL / name
        return extract_file(path.name, path.read_bytes(), "EBORL").facts

    def test_the_other_language_edition_is_not_a_copy(self) -> None:
        en = self._edition("HK01856_2014FY_annual-results_en.pdf")
        zh = self._edition("HK01856_2014FY_annual-results_zh.pdf")
        assert (releases.edition(en), releases.edition(zh)) == ("en", "zh")
        same, total = releases.shared(zh, en)
        assert total >= releases.MIN_FIGURES and same == total  # the figures are one release's
        assert not releases.is_same_release(zh, en)
        assert not releases.is_same_release(en, zh)
        assert releases.is_same_release(zh, zh)

    def test_every_figure_both_editions_print_agrees(self) -> None:
        en = self._edition("HK01856_2014FY_annual-results_en.pdf")
        zh = self._edition("HK01856_2014FY_annual-results_zh.pdf")
        assert len(releases.printed_by_both(zh, en)) == len(zh) == len(en)
        assert releases.disagreements(zh, en) == releases.disagreements(en, zh) == []

    def test_a_digit_changed_is_one_disagreement_and_rounding_none(self) -> None:
        en = self._edition("HK01856_2014FY_annual-results_en.pdf")
        zh = self._edition("HK01856_2014FY_annual-results_zh.pdf")
        first = zh[0]  # printed in thousands: 500 either way is the rounding of each
        for change, found in ((Decimal(1000), 0), (Decimal(1001), 1), (Decimal(100_000), 1)):
            ours = (replace(first, value=first.value + change), *zh[1:])
            assert len(releases.disagreements(ours, en)) == found
            assert len(releases.disagreements(en, ours)) == found


def _editions(name: str, ticker: str) -> tuple[tuple[Fact, ...], tuple[Fact, ...]]:
    found = []
    for language in ("en", "zh"):
        path = REAL / f"{name}_{language}.pdf"
        found.append(extract_file(path.name, path.read_bytes(), ticker).facts)
    return found[0], found[1]


class TestAnxinH1_2013InterimResultsInEnglishAndChinese:
    def test_every_figure_both_editions_print_agrees(self) -> None:
        en, zh = _editions("HK01149_2013H1_interim-results", "AXC")
        assert (releases.edition(en), releases.edition(zh)) == ("en", "zh")
        assert len(releases.printed_by_both(zh, en)) == len(zh) == len(en) > 0
        assert releases.disagreements(zh, en) == []


class TestFullshareH1_2022InterimReportInEnglishAndChinese:
    def test_every_figure_both_editions_print_agrees(self) -> None:
        en, zh = _editions("HK00607_2022H1_interim-report", "FSH")
        assert (releases.edition(en), releases.edition(zh)) == ("en", "zh")
        assert len(releases.printed_by_both(zh, en)) == len(zh) == len(en) > 0
        assert releases.disagreements(zh, en) == []
