"""Whose document is it: real documents of other issuers, each refused when ingested as another
issuer (one line, before anything is stored) or when nothing can be read from it."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from domain.errors import RefusedFileError
from domain.records import Issuer, StoredFile
from tasks.config.issuers import DEFAULT_ISSUERS
from tasks.extract import (
    extract_document,
    extract_file,
    inspect_local_file,
    require_content,
)
from tasks.parsers.prose.identity import names_issuer

REFERENCE = Path(__file__).resolve().parents[1] / "fixtures" / "reference"
BUCKLE = REFERENCE / "sec" / "sec_8k_ex99-1_buckle_earnings_release.htm"
ALCO_WARNING = REFERENCE / "hkex" / "hkex_00328_2025-06-27_profit_warning_zh.pdf"
QFIN_COVER = next(
    (Path(__file__).resolve().parents[2] / "tasks" / "sources" / "replay_archive" / "sec").glob(
        "0001741530/0001104659-24-032436/*6k.htm"
    )
)
# Configured as `filings issuers add` writes them: ticker and CIK, or ticker and stock code.
BKE = Issuer("BKE", "BUCKLE INC", "0000885245", "")
ALCO = Issuer("ALCO", "ALCO HOLDINGS", "", "00328")
CONFIGURED = (*DEFAULT_ISSUERS, BKE, ALCO)


def _stored(path: Path) -> StoredFile:
    return StoredFile(path.name, f"https://www.sec.gov/{path.name}", "0" * 64, 1, "EX-99.1")


class TestBuckleEarningsRelease:
    """EDGAR EX-99.1 of The Buckle, Inc. (NYSE: BKE), November 22, 2024."""

    def test_it_is_buckles_dated_by_its_letterhead(self) -> None:
        # "For Immediate Release : November 22, 2024" sits in the letterhead table
        checked = inspect_local_file(BUCKLE, CONFIGURED, None, None)
        assert (checked.issuer, checked.published) == (BKE, date(2024, 11, 22))

    def test_filed_as_an_exhibit_of_qfins_6k_it_is_refused(self) -> None:
        # QFIN's real-shaped 6-K cover page names Qifu; the exhibit is Buckle's
        files = [
            (_stored(QFIN_COVER), QFIN_COVER.read_bytes()),
            (_stored(BUCKLE), BUCKLE.read_bytes()),
        ]
        with pytest.raises(RefusedFileError) as refused:
            extract_document("sec:mixed", files, "QFIN", CONFIGURED)
        assert str(refused.value) == (
            f"sec:mixed refused, nothing stored: its file {BUCKLE.name} names BKE, not QFIN"
        )
        # with Buckle not configured, its own "(NYSE: BKE)" still tells it is not QFIN's
        with pytest.raises(RefusedFileError) as refused:
            extract_document("sec:mixed", files, "QFIN", DEFAULT_ISSUERS)
        assert str(refused.value).endswith(f"its file {BUCKLE.name} names NYSE: BKE, not QFIN")
        # and the cover page alone, listed under Buckle's CIK, does not name Buckle
        with pytest.raises(
            RefusedFileError, match=r"it does not name BKE \(BUCKLE\) \(it names QFIN\)"
        ):
            extract_document("sec:cover", files[:1], "BKE", CONFIGURED)
        assert extract_document("sec:cover", files[:1], "QFIN", CONFIGURED).document == "sec:cover"

    def test_ingested_as_qfin_it_is_refused_naming_whose_it_is(self) -> None:
        with pytest.raises(RefusedFileError) as refused:
            inspect_local_file(BUCKLE, CONFIGURED, "QFIN", None)
        assert str(refused.value) == (
            f"{BUCKLE.name} refused, nothing stored: it does not name QFIN "
            "(Qifu Technology, HKEx 3660) (it names BKE)"
        )


class TestAlcoProfitWarning:
    """HKEx announcement of Alco Holdings Limited (stock code 328), Chinese edition."""

    def test_it_is_alcos_by_its_stock_code_and_dated_by_its_chinese_dateline(self) -> None:
        checked = inspect_local_file(ALCO_WARNING, CONFIGURED, "ALCO", None)
        assert (checked.issuer, checked.published) == (
            ALCO,
            date(2025, 6, 27),
        )  # 二零二五年六月二十七日

    def test_ingested_as_qfin_it_is_refused(self) -> None:
        with pytest.raises(RefusedFileError, match="does not name QFIN .*it names ALCO"):
            inspect_local_file(ALCO_WARNING, CONFIGURED, "QFIN", None)

    def test_a_profit_warning_has_no_statement_and_is_refused_never_loaded_empty(self) -> None:
        extraction = extract_file(ALCO_WARNING.name, ALCO_WARNING.read_bytes(), "ALCO")
        with pytest.raises(RefusedFileError) as refused:
            require_content(ALCO_WARNING.name, extraction)
        assert str(refused.value) == (
            f"{ALCO_WARNING.name} refused: nothing read from it (no statement table, figure, "
            "outlook or dividend found; a other document)"
        )


class TestAliases:
    """An issuer named in its documents by another name than SEC's: its Chinese name."""

    def test_a_chinese_alias_names_it_inside_a_longer_name(self) -> None:
        alco = Issuer("ALCO", "ALCO HOLDINGS", "", "", ("愛高集團",))
        assert names_issuer("愛高集團有限公司（於百慕達註冊成立之有限公司）", alco)
        assert not names_issuer("奇富科技股份有限公司", alco)
