"""The EPS note read (tasks/parsers/statements/eps_note) on the real HKEx documents, its figures
written by hand from each document's note, and the EPS it proves (domain/pershare): published
with the per-share identity, held when the note's shares are altered. One class per document."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from typing import ClassVar

import pytest

from domain.pershare import Dilution
from domain.records import Extraction, StoredFile
from tasks.extract import extract_document, parse_document
from tasks.parsers.statements.eps_note import bases_for, read_eps_note
from tasks.parsers.statements.proving import prove_document

REAL = Path(__file__).resolve().parent.parent / "fixtures" / "real"
B, D = Dilution.BASIC, Dilution.DILUTED
K = Decimal(1000)
Figure = tuple[int | None, Dilution, str, Decimal]


class EpsNote:
    name: ClassVar[str]
    ticker: ClassVar[str]
    figures: ClassVar[set[Figure]]  # (year, dilution, shares/earnings, whole units)
    shares_printed: ClassVar[tuple[str, str]]  # a printed share count and an altered one

    @pytest.fixture(scope="class")
    def text(self) -> str:
        path = REAL / self.name
        return parse_document(path.name, path.read_bytes()).text

    @pytest.fixture(scope="class")
    def extraction(self) -> Extraction:
        path = REAL / self.name
        content = path.read_bytes()
        stored = StoredFile(path.name, "", "", len(content), "pdf")
        return extract_document(path.name, [(stored, content)], self.ticker)

    def test_the_note_reads_as_printed(self, text: str) -> None:
        read = {(f.year, f.dilution, f.what, f.value) for f in read_eps_note(text)}
        assert read == self.figures

    def test_every_eps_is_published_proved_by_its_shares(self, extraction: Extraction) -> None:
        eps = [f for f in extraction.facts if f.metric.startswith("eps_")]
        assert eps and not [f for f in extraction.unproven if f.metric.startswith("eps_")]
        for fact in eps:
            assert fact.proved_by == f"identity: {fact.metric}_times_shares_is_profit"

    def test_altered_shares_hold_the_eps(self, text: str, extraction: Extraction) -> None:
        printed, altered = self.shares_printed
        assert printed in text
        notes = read_eps_note(text.replace(printed, altered))
        facts = [*extraction.facts, *extraction.unproven]
        proven, _ = prove_document(facts, extraction.rows, (), bases_for(notes, facts))
        assert [f for f in proven.unproven if f.metric.startswith("eps_")]
        failed = [v for v in proven.verdicts if v.evaluated and not v.held]
        assert any(v.identity.endswith("_times_shares_is_profit") for v in failed)


def _both(year: int, what: str, value: Decimal) -> set[Figure]:
    return {(year, B, what, value), (year, D, what, value)}


class TestErnestBorelAnnualResults2014English(EpsNote):
    name, ticker = "HK01856_2014FY_annual-results_en.pdf", "EBORL"
    figures = (
        _both(2014, "earnings", 58_811 * K) | _both(2013, "earnings", 93_021 * K)
        | {(2014, B, "shares", 312_554 * K), (2013, B, "shares", 281_000 * K)}
        | {(2014, D, "shares", 313_441 * K), (2013, D, "shares", 281_000 * K)}
    )  # fmt: skip
    shares_printed = ("313,441", "323,441")


class TestErnestBorelAnnualResults2014Chinese(TestErnestBorelAnnualResults2014English):
    name = "HK01856_2014FY_annual-results_zh.pdf"
    shares_printed = ("312,554", "412,554")


class TestErnestBorelInterimResults2014English(EpsNote):
    """The note is a sentence: "on 281,000,000 shares in issue during both periods"."""

    name, ticker = "HK01856_2014H1_interim-results_en.pdf", "EBORL"
    figures: ClassVar[set[Figure]] = {(None, B, "shares", Decimal(281_000_000))}
    shares_printed = ("281,000,000 shares in issue", "381,000,000 shares in issue")

    def test_the_sentence_is_every_period_s(self, text: str, extraction: Extraction) -> None:
        facts = [*extraction.facts, *extraction.unproven]
        bases = bases_for(read_eps_note(text), facts)
        assert {b.period_end.year for b in bases} == {2014, 2013}


class TestAnxinChinaInterimResults2013English(EpsNote):
    """Diluted EPS is of the diluted earnings (412,551), not of the attributable profit."""

    name, ticker = "HK01149_2013H1_interim-results_en.pdf", "AXC"
    figures = (
        {(2013, B, "earnings", 421_996 * K), (2012, B, "earnings", 297_573 * K)}
        | {(2013, D, "earnings", 412_551 * K), (2012, D, "earnings", 297_573 * K)}
        | {(2013, B, "shares", 2_863_838 * K), (2012, B, "shares", 2_692_541 * K)}
        | {(2013, D, "shares", 2_934_368 * K), (2012, D, "shares", 2_695_907 * K)}
    )  # fmt: skip
    shares_printed = ("2,863,838", "2,963,838")


class TestAnxinChinaInterimResults2013Chinese(TestAnxinChinaInterimResults2013English):
    name = "HK01149_2013H1_interim-results_zh.pdf"


class TestFullshareInterimReport2022English(EpsNote):
    """One weighted average for basic and diluted, as whole shares under an RMB'000 header."""

    name, ticker = "HK00607_2022H1_interim-report_en.pdf", "FSH"
    figures = _both(2022, "shares", Decimal(20_047_139_447)) | _both(
        2021, "shares", Decimal(19_687_870_331)
    )
    # RMB0.002 to the nearest RMB0.001 allows 20 to 31 billion shares for 2022's RMB46.7m:
    # 2021's RMB(0.030) on RMB(581.2)m is narrower
    shares_printed = ("19,687,870,331", "29,687,870,331")


class TestFullshareInterimReport2022Chinese(TestFullshareInterimReport2022English):
    """The note's rows print each label against its first figure (…加權平均數20,047,139,447)."""

    name = "HK00607_2022H1_interim-report_zh.pdf"
