"""Whose document is it: real documents of other issuers, each refused when ingested as another
issuer (one line, before anything is stored) or when nothing can be read from it."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from tasks.config.issuers import DEFAULT_ISSUERS
from tasks.core.errors import RefusedFileError
from tasks.core.records import Issuer
from tasks.extract import extract_file, inspect_local_file, load_catalog, require_content

REFERENCE = Path(__file__).resolve().parents[1] / "fixtures" / "reference"
BUCKLE = REFERENCE / "sec" / "sec_8k_ex99-1_buckle_earnings_release.htm"
ALCO_WARNING = REFERENCE / "hkex" / "hkex_00328_2025-06-27_profit_warning_zh.pdf"
# Configured as `filings issuers add` writes them: ticker and CIK, or ticker and stock code.
BKE = Issuer("BKE", "BUCKLE INC", "0000885245", "")
ALCO = Issuer("ALCO", "ALCO HOLDINGS", "", "00328")
CONFIGURED = (*DEFAULT_ISSUERS, BKE, ALCO)


class TestBuckleEarningsRelease:
    """EDGAR EX-99.1 of The Buckle, Inc. (NYSE: BKE), November 22, 2024."""

    def test_it_is_buckles(self) -> None:
        # Its dateline sits in a letterhead table the reader drops: the date is given by hand.
        with pytest.raises(RefusedFileError, match="pass --published YYYY-MM-DD"):
            inspect_local_file(BUCKLE, CONFIGURED, None, None)
        checked = inspect_local_file(BUCKLE, CONFIGURED, None, date(2024, 11, 22))
        assert checked.issuer == BKE

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
        extraction = extract_file(
            ALCO_WARNING.name, ALCO_WARNING.read_bytes(), load_catalog("ALCO")
        )
        with pytest.raises(RefusedFileError) as refused:
            require_content(ALCO_WARNING.name, extraction)
        assert str(refused.value) == (
            f"{ALCO_WARNING.name} refused: nothing read from it (no statement table, figure, "
            "outlook or dividend found; a other document)"
        )
