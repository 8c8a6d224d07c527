"""Every format built from a seed against the seed's hand-written golden file.

One class per document; each test runs for every rendering of it (text seed, EDGAR HTML
exhibits, HKEx PDF). 0 wrong values everywhere; all values where the rendering is clean. The
Q2 2024 seed text is itself damaged (merged rows, lost labels): there, a missing statement fact
is allowed (it is listed as unmapped), a wrong one never.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any, ClassVar

import pytest

from domain.precision import rounded
from domain.records import Dividend, Extraction, Guidance, StoredFile
from tasks.extract import extract_document, extract_file
from tasks.sources.replay import default_archive_root
from tests.golden.golden import Golden, load, period

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
SEEDS = FIXTURES / "seeds"
ARCHIVE = default_archive_root()
SEC = ARCHIVE / "sec" / "0001741530"
HKEX = ARCHIVE / "hkex" / "03660"
_CACHE: dict[tuple[Path, ...], Extraction] = {}


def extraction(paths: tuple[Path, ...]) -> Extraction:
    """A file, or a filing's exhibits together, read as production reads a document."""
    if paths not in _CACHE:
        if len(paths) == 1:
            content = paths[0].read_bytes()
            _CACHE[paths] = extract_file(paths[0].name, content, "QFIN")
        else:
            files = [
                (StoredFile(p.name, "", "", p.stat().st_size, "EX-99"), p.read_bytes())
                for p in paths
            ]
            _CACHE[paths] = extract_document("golden", files, "QFIN")
    return _CACHE[paths]


class GoldenDocument:
    """The checks shared by every document; subclasses name the seed and its renderings."""

    seed: ClassVar[str]
    formats: ClassVar[dict[str, tuple[Path, ...]]]
    damaged: ClassVar[frozenset[str]] = frozenset()

    @pytest.fixture(params=[], scope="class")
    def rendering(self, request: pytest.FixtureRequest) -> str:
        return str(request.param)

    @property
    def golden(self) -> Golden:
        return load(self.seed)

    def test_kind(self, rendering: str) -> None:
        assert extraction(self.formats[rendering]).kind == self.golden.kind

    def test_usd_rate(self, rendering: str) -> None:
        assert extraction(self.formats[rendering]).usd_rate == self.golden.usd_rate

    def test_statement_facts(self, rendering: str) -> None:
        # what is read, published or held back unproved (tests/validate/test_proofs.py)
        read = extraction(self.formats[rendering])
        got = {f.key: f.value for f in (*read.facts, *read.unproven) if f.origin == "table"}
        wrong = {
            k: (v, self.golden.tables.get(k))
            for k, v in got.items()
            if self.golden.tables.get(k) != v
        }
        assert wrong == {}
        missing = set(self.golden.tables) - set(got)
        if rendering in self.damaged:
            assert len(missing) <= 0.25 * len(self.golden.tables)
        else:
            assert missing == set()

    def test_narrative_facts_are_right(self, rendering: str) -> None:
        facts = [f for f in extraction(self.formats[rendering]).facts if f.origin == "narrative"]
        wrong = {
            f.key: (f.value, f.decimals)
            for f in facts
            if self.golden.narrative.get(f.key) != (f.value, f.decimals)
        }
        assert wrong == {}

    def test_narrative_facts_are_complete(self, rendering: str) -> None:
        keys = {f.key for f in extraction(self.formats[rendering]).facts}
        only_narrative = set(self.golden.narrative) - set(self.golden.tables)
        assert only_narrative - keys == set()

    def test_narrative_never_displaces_a_table_figure(self, rendering: str) -> None:
        facts = extraction(self.formats[rendering]).facts
        doubled = [f.key for f in facts if f.origin == "narrative" and f.key in self.golden.tables]
        assert rendering in self.damaged or doubled == []

    def test_refused_figures_reported_not_stored(self, rendering: str) -> None:
        # the refused figures are the golden's, none when it has none
        result = extraction(self.formats[rendering])
        reasons = [u.reason for u in result.unmapped if u.table_title == "narrative"]
        reported = {
            raw
            for raw in self.golden.refused
            if any(raw in r for r in reasons) and any(raw in w for w in result.warnings)
        }
        assert reported == set(self.golden.refused)
        assert len(reasons) == len(self.golden.refused), reasons
        stored = {f.provenance.raw_text for f in result.facts}
        assert stored.isdisjoint(self.golden.refused)

    def test_unmapped_only_the_refused_or_damage(self, rendering: str) -> None:
        result = extraction(self.formats[rendering])
        refused = [u for u in result.unmapped if u.table_title == "narrative"]
        assert len(refused) == len(self.golden.refused)
        rows = [u for u in result.unmapped if u.table_title != "narrative"]
        # a clean rendering maps every row; the damaged one lists what it could not read
        assert bool(rows) == (rendering in self.damaged)

    def test_guidance(self, rendering: str) -> None:
        got = sorted(_guidance(g) for g in extraction(self.formats[rendering]).guidance)
        assert got == sorted(_golden_guidance(g) for g in self.golden.guidance)

    def test_dividends(self, rendering: str) -> None:
        got = [_dividend(d) for d in extraction(self.formats[rendering]).dividends]
        assert got == [_golden_dividend(d) for d in self.golden.dividends]

    def test_golden_narrative_agrees_with_golden_tables(self) -> None:
        # a check of the hand transcription itself: rounded table figure == narrative figure
        clashes = {
            key: (value, self.golden.tables[key])
            for key, (value, decimals) in self.golden.narrative.items()
            if key in self.golden.tables and rounded(self.golden.tables[key], decimals) != value
        }
        assert clashes == {}


def _amount(text: str | None) -> Decimal | None:
    return None if text is None else Decimal(text)


def _day(text: str | None) -> date | None:
    return None if text is None else date.fromisoformat(text)


def _guidance(g: Guidance) -> tuple[Any, ...]:
    return (g.metric, g.period_start, g.period_end, g.low, g.high, g.unit, g.issued_on,
            g.growth_low_pct, g.growth_high_pct, g.numeric)  # fmt: skip


def _golden_guidance(g: dict[str, Any]) -> tuple[Any, ...]:
    start, end = period(g["period"])
    return (g["metric"], start, end, _amount(g["low"]), _amount(g["high"]), g["unit"],
            _day(g["issued_on"]), _amount(g["growth_low_pct"]), _amount(g["growth_high_pct"]),
            g["numeric"])  # fmt: skip


def _dividend(d: Dividend) -> tuple[Any, ...]:
    return (d.currency, d.per_share, d.per_ads, d.period_start, d.period_end, d.record_date,
            d.ex_date, d.payment_date, d.ads_payment_date)  # fmt: skip


def _golden_dividend(d: dict[str, Any]) -> tuple[Any, ...]:
    start, end = period(d["period"])
    return (d["currency"], _amount(d["per_share"]), _amount(d["per_ads"]), start, end,
            _day(d["record_date"]), _day(d["ex_date"]), _day(d["payment_date"]),
            _day(d["ads_payment_date"]))  # fmt: skip


def _renderings(cls: type[GoldenDocument]) -> type[GoldenDocument]:
    """Parametrize the class's ``rendering`` fixture over its formats."""

    @pytest.fixture(params=sorted(cls.formats), scope="class")
    def rendering(self: GoldenDocument, request: pytest.FixtureRequest) -> str:
        return str(request.param)

    cls.rendering = rendering  # type: ignore[method-assign,assignment]
    return cls


@_renderings
class TestQ4_2023Release(GoldenDocument):
    seed = "sec_0001741530_2024-03-12_6k_q4-2023.txt"
    formats: ClassVar[dict[str, tuple[Path, ...]]] = {
        "text": (SEEDS / seed,),
        "html": tuple(
            SEC / "0001104659-24-032436" / n for n in ("tm248123d1_6k.htm", "tm248123d1_ex99-1.htm")
        ),
    }


@_renderings
class TestQ2_2024Release(GoldenDocument):
    seed = "sec_0001741530_2024-08-13_6k_q2-2024.txt"
    formats: ClassVar[dict[str, tuple[Path, ...]]] = {
        "text": (SEEDS / seed,),
        "html": tuple(
            SEC / "0001104659-24-088431" / n
            for n in ("tm2421456d1_6k.htm", "tm2421456d1_ex99-1.htm", "tm2421456d1_ex99-2.htm")
        ),
    }
    damaged = frozenset({"text"})


@_renderings
class TestQ4_2024Announcement(GoldenDocument):
    seed = "hkex_03660_2025-03-17_q4-2024-results.txt"
    formats: ClassVar[dict[str, tuple[Path, ...]]] = {
        "text": (SEEDS / seed,),
        "pdf 11480512": (HKEX / "11480512.pdf",),
        "pdf 11480513": (HKEX / "11480513.pdf",),
    }


@_renderings
class TestH2_2023DividendForm(GoldenDocument):
    seed = "hkex_03660_2024-03-13_dividend-form-h2-2023.txt"
    formats: ClassVar[dict[str, tuple[Path, ...]]] = {
        "text": (SEEDS / seed,),
        "pdf": (HKEX / "11126844.pdf",),
    }


def test_some_golden_has_refused_figures() -> None:
    """The refusal check above has something to find in at least one document."""
    documents = [TestQ4_2023Release, TestQ2_2024Release, TestQ4_2024Announcement,
                 TestH2_2023DividendForm]  # fmt: skip
    refusing = [d.seed for d in documents if load(d.seed).refused]
    assert refusing, "no golden lists a refused figure"
    assert len(documents) == len(GoldenDocument.__subclasses__())
