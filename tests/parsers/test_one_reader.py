"""One reading of every statement: facts are a mapping over the statement rows.

The rows (``asreported``) are the only reading of a statement table; an issuer's catalog is an
overlay of labels on the shared mapping over those rows
(``tasks/parsers/statements/metric_mapping.py``),
never a second reader of the tables.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path

import pytest

from domain.enums import Basis, Origin
from domain.metrics import OPENING_BALANCES
from domain.provenance import Provenance
from domain.records import Extraction, StoredFile
from domain.rowrecords import StatementKind, StatementRow
from tasks.extract import extract_document, load_catalog
from tasks.parsers.statements.asreported import RowsRead
from tasks.parsers.statements.metric_mapping import issuer_facts
from tasks.sources.replay import default_archive_root
from tests.parsers.conftest import (
    Q2_2024_HTML,
    Q2_2024_IFRS_HTML,
    Q2_2024_TEXT,
    Q4_2023_HTML,
    Q4_2023_TEXT,
    Q4_2024_PDF,
    Q4_2024_TEXT,
)

BUCKLE = next((default_archive_root() / "sec" / "0000885245").glob("*/*8kexhibit.htm"))
Q4 = (date(2023, 10, 1), date(2023, 12, 31))
_READ: dict[tuple[Path, str], Extraction] = {}


def _read(path: Path, ticker: str = "QFIN") -> Extraction:
    if (path, ticker) not in _READ:
        stored = StoredFile(path.name, "", "", path.stat().st_size, "EX-99")
        _READ[path, ticker] = extract_document(path.name, [(stored, path.read_bytes())], ticker)
    return _READ[path, ticker]


@pytest.mark.parametrize(
    "path",
    [
        Q4_2023_TEXT,
        Q4_2023_HTML,
        Q2_2024_TEXT,
        Q2_2024_HTML,
        Q2_2024_IFRS_HTML,
        Q4_2024_TEXT,
        Q4_2024_PDF,
        BUCKLE,
    ],  # fmt: skip
    ids=lambda p: p.name,
)
def test_every_table_fact_is_a_statement_row(path: Path) -> None:
    """A table fact is read from a statement row's cell: same file, table, period end (an
    opening balance: the day before the row's period starts), basis and printed figure (no
    fact from a reading the rows do not share)."""
    got = _read(path, "BKE" if path == BUCKLE else "QFIN")
    cells = {(r.provenance.locator, r.provenance.raw_text, r.period_end, r.basis) for r in got.rows}
    opening = {
        (r.provenance.locator, r.provenance.raw_text, r.period_start - timedelta(days=1), r.basis)
        for r in got.rows
        if r.period_start is not None
    }
    table = [f for f in got.facts if f.origin == Origin.TABLE]
    assert table and got.rows
    strays = [
        f.key
        for f in table
        if (f.provenance.locator, f.provenance.raw_text, f.period_end, f.basis)
        not in (opening if f.metric in OPENING_BALANCES else cells)
    ]
    assert strays == []


def _row(label: str, value: str, index: int, section: str = "") -> StatementRow:
    return StatementRow(
        statement=StatementKind.INCOME_STATEMENT,
        table_title="Unaudited Condensed Consolidated Statements of Operations",
        row_label=label,
        row_index=index,
        section=section,
        period_start=Q4[0],
        period_end=Q4[1],
        currency="CNY",
        value=Decimal(value.replace(",", "")) * 1000,
        scale=3,
        decimals=-3,
        provenance=Provenance("ex99.htm", "table 3", label, "Q4 2023 RMB", value),
    )


# "Other services fees" twice: the row of a value above it says which one each is
REVENUE = (
    _row("Credit driven services", "2,630,621", 0),
    _row("Financing income", "1,234", 1),
    _row("Other services fees", "69,835", 2),
    _row("Platform services", "1,700,000", 3),
    _row("Other services fees", "103,769", 4),
)


def test_the_overlay_tells_two_rows_of_one_label_apart_by_their_section() -> None:
    mapped = issuer_facts(RowsRead(REVENUE, ()), load_catalog("QFIN"), "ex99.htm")
    got = {f.metric: f.value for f in mapped.facts}
    assert got["other_services_fees_credit_driven"] == Decimal("69835000")
    assert got["other_services_fees_platform"] == Decimal("103769000")
    assert mapped.unmapped == ()


def test_a_label_wrapped_into_a_heading_is_joined_when_only_the_whole_is_known() -> None:
    wrapped = replace(
        _row(
            "Technology, Inc diluted",
            "6.95",
            0,
            "Non-GAAP net income per ADS attributable to ordinary shareholders of Qifu",
        ),  # fmt: skip
        statement=StatementKind.NON_GAAP_RECONCILIATION,
        table_title="Unaudited Reconciliations of GAAP and Non-GAAP Results",
        value=Decimal("6.95"),
        scale=0,
        decimals=2,
    )
    mapped = issuer_facts(RowsRead((wrapped,), ()), load_catalog("QFIN"), "ex99.htm")
    assert [(f.metric, f.value, f.unit) for f in mapped.facts] == [
        ("non_gaap_eps_diluted_per_ads", Decimal("6.95"), "CNY/ADS")
    ]


def _ifrs(label: str, value: str) -> StatementRow:
    return replace(
        _row(label, value, 0),
        statement=StatementKind.IFRS_RECONCILIATION,
        table_title="Six months ended June 30, 2024",
        basis=Basis.IFRS,
    )


def test_an_ifrs_figure_whose_row_does_not_add_up_is_no_fact() -> None:
    rows = (_ifrs("Total net revenue", "8,313,246"), _ifrs("Net income", "2,000,000"))
    read = RowsRead(rows, (), {0: Decimal("8313246000"), 1: None})
    mapped = issuer_facts(read, load_catalog("QFIN"), "ex99-2.htm")
    assert [f.metric for f in mapped.facts] == ["total_net_revenue"]
    assert [u.reason for u in mapped.unmapped] == [
        "IFRS row does not add up net_income [Q4 2023 RMB]"
    ]


def test_an_untitled_ifrs_page_reads_its_own_scale() -> None:
    # the Q2 2024 seed's IFRS balance sheet at December 31, 2023 goes on in a table with no
    # title above it and "(In thousands of Renminbi" in its heads: read, not refused
    got = _read(Q2_2024_TEXT)
    rows = {
        r.row_label: r.value
        for r in got.rows
        if r.provenance.locator == "table 11" and r.period_end == date(2023, 12, 31)
    }
    assert rows["TOTAL EQUITY"] == Decimal("23300454000")
    # its line above, an OCR misreading ending "OF THE", is no part of the total's label
    assert rows["TOTAL QIFU TECHNOLOGY INC. EQUITY"] == Decimal("23228080000")
    assert not [r for r in got.refused if r.locator == "table 11"]


def test_a_row_the_shared_labels_map_is_not_listed_unmapped() -> None:
    got = _read(BUCKLE, "BKE")
    assert any(f.metric == "total_assets" for f in got.facts)
    labels = {u.row_label for u in got.unmapped if u.reason == "no metric for this label"}
    assert "Total assets" not in labels
    assert "Accounts payable" in labels  # no metric maps it
