"""The generated replay archive (package data: tasks/sources/replay_archive) is well formed."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import datetime
from decimal import Decimal
from pathlib import Path

import pdfplumber
import pytest
from lxml import html

from tasks.sources.replay import default_archive_root

ROOT = Path(__file__).resolve().parents[1]
FIX = default_archive_root()
SEC = FIX / "sec" / "0001741530"
HKEX = FIX / "hkex"
Q4_2023 = SEC / "0001104659-24-032436"
Q2_2024 = SEC / "0001104659-24-088431"
ROW_FIELDS = {
    "NEWS_ID",
    "TITLE",
    "SHORT_TEXT",
    "LONG_TEXT",
    "STOCK_CODE",
    "STOCK_NAME",
    "DATE_TIME",
    "FILE_TYPE",
    "FILE_INFO",
    "FILE_LINK",
    "DOD_WEB_PATH",
    "TOTAL_COUNT",
}


@pytest.fixture(scope="module")
def rebuilt(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("fixtures")
    subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "build_fixtures.py"), "--out", str(out)],
        check=True,
        capture_output=True,
    )
    return out


def _archive_files(root: Path) -> list[Path]:
    files = [p for sub in ("sec", "hkex") for p in (root / sub).rglob("*") if p.is_file()]
    return sorted(p.relative_to(root) for p in files) + [Path("manifest.json")]


def test_regeneration_is_byte_identical(rebuilt: Path) -> None:
    committed = _archive_files(FIX)
    assert committed == _archive_files(rebuilt)
    differing = [str(p) for p in committed if (FIX / p).read_bytes() != (rebuilt / p).read_bytes()]
    assert differing == []


def test_manifest_hashes_match_files() -> None:
    import hashlib

    manifest = json.loads((FIX / "manifest.json").read_text())
    assert {d["source"] for d in manifest["documents"]} == {"sec", "hkex"}
    for doc in manifest["documents"]:
        for f in doc["files"]:
            data = (FIX / f["path"]).read_bytes()
            assert hashlib.sha256(data).hexdigest() == f["sha256"]
            assert len(data) == f["size"]


def _submissions() -> dict:
    return json.loads((SEC / "submissions" / "CIK0001741530.json").read_text())


def test_submissions_arrays_are_parallel() -> None:
    sub = _submissions()
    assert (sub["cik"], sub["name"], sub["tickers"]) == (
        "1741530",
        "Qifu Technology, Inc.",
        ["QFIN"],
    )
    recent = sub["filings"]["recent"]
    assert sub["filings"]["files"] == []
    required = {
        "accessionNumber",
        "filingDate",
        "reportDate",
        "acceptanceDateTime",
        "act",
        "form",
        "fileNumber",
        "filmNumber",
        "items",
        "size",
        "isXBRL",
        "isInlineXBRL",
        "primaryDocument",
        "primaryDocDescription",
    }
    assert required <= set(recent)
    assert len({len(v) for v in recent.values()}) == 1
    accepted = recent["acceptanceDateTime"]
    assert accepted == sorted(accepted, reverse=True)
    assert {"20-F", "SC 13G/A"} <= set(recent["form"])
    i = recent["accessionNumber"].index("0001104659-24-032436")
    assert (recent["filingDate"][i], accepted[i]) == ("2024-03-12", "2024-03-12T06:05:11.000Z")
    assert recent["primaryDocument"][i] == "tm248123d1_6k.htm"


def _index_rows(acc: str) -> list[dict[str, str]]:
    doc = html.parse(str(SEC / acc / f"{acc}-index.htm")).getroot()
    table = doc.xpath('//table[@summary="Document Format Files"]')[0]
    rows = []
    for tr in table.xpath(".//tr")[1:]:
        cells = [td.text_content().strip() for td in tr.xpath("./td")]
        href = tr.xpath(".//a/@href")
        rows.append(
            {
                "seq": cells[0],
                "document": cells[2],
                "type": cells[3],
                "href": href[0] if href else "",
            }
        )
    return rows


def test_every_6k_has_an_index_with_exhibit_types() -> None:
    recent = _submissions()["filings"]["recent"]
    six_ks = [
        (a, p)
        for a, f, p in zip(
            recent["accessionNumber"], recent["form"], recent["primaryDocument"], strict=True
        )
        if f == "6-K"
    ]
    assert len(six_ks) == 4
    for acc, primary in six_ks:
        rows = [r for r in _index_rows(acc) if r["type"]]
        assert rows[0]["type"] == "6-K" and rows[0]["document"] == primary
        exhibits = [r for r in rows if r["type"].startswith("EX-99")]
        assert exhibits
        for r in rows:
            folder = acc.replace("-", "")
            assert r["href"] == f"/Archives/edgar/data/1741530/{folder}/{r['document']}"
            assert (SEC / acc / r["document"]).is_file()
    types = {r["document"]: r["type"] for r in _index_rows("0001104659-24-088431")}
    assert types["tm2421456d1_ex99-2.htm"] == "EX-99.2"
    assert "EX-99.1" in {
        r["type"] for r in _index_rows("0001104659-24-075320") if "ex99" not in r["document"]
    }


def _html_tables(path: Path) -> list[tuple[str, list[list[str]]]]:
    """(title, rows) per table; a value's '(' / number / ')' cells are joined back."""
    doc = html.parse(str(path)).getroot()
    out = []
    for table in doc.iter("table"):
        prev = table.getprevious()
        while (
            prev is not None
            and prev.tag == "p"
            and prev.getprevious() is not None
            and prev.getprevious().tag == "p"
            and "(Amounts" in prev.text_content()
        ):
            prev = prev.getprevious()
        title = prev.text_content().strip() if prev is not None else ""
        rows = []
        for tr in table.iter("tr"):
            cells = [td.text_content().replace("\xa0", " ").strip() for td in tr.iter("td")]
            joined: list[str] = []
            for c in [c for c in cells if c]:
                if joined and (joined[-1].endswith("(") or c == ")") and joined[-1] != cells[0]:
                    joined[-1] += c
                else:
                    joined.append(c)
            rows.append([c for c in joined if c not in ("RMB", "US$")])
        out.append((title, rows))
    return out


def _row(tables: list[tuple[str, list[list[str]]]], title: str, label: str) -> list[str]:
    for t, rows in tables:
        if t.startswith(title):
            for r in rows:
                if r and r[0] == label:
                    return r[1:]
    raise AssertionError(f"{label!r} not in {title!r}")


def test_html_statement_figures() -> None:
    q4 = _html_tables(Q4_2023 / "tm248123d1_ex99-1.htm")
    bs, ops = (
        "Unaudited Condensed Consolidated Balance Sheets",
        "Unaudited Condensed Consolidated Statements of Operations",
    )
    assert _row(q4, bs, "TOTAL ASSETS") == ["40,343,170", "45,818,572", "6,453,411"]
    assert _row(q4, bs, "Goodwill") == ["\u2014", "41,210", "5,804"]
    assert _row(q4, ops, "Total net revenue")[1] == "4,495,503"
    assert _row(q4, ops, "of the Company") == [
        "872,001",
        "1,111,740",
        "156,586",
        "4,024,173",
        "4,285,336",
        "603,578",
    ]
    q2 = _html_tables(Q2_2024 / "tm2421456d1_ex99-1.htm")
    assert _row(q2, bs, "TOTAL EQUITY") == ["22,009,857", "22,632,979", "3,114,400"]
    assert _row(q2, bs, "TOTAL LIABILITIES AND EQUITY") == ["45,818,572", "46,983,049", "6,465,081"]
    assert _row(q2, ops, "Provision for contingent liabilities")[1:3] == ["(213,267)", "(29,347)"]
    cash = "Unaudited Condensed Consolidated Statements of Cash Flows"
    assert _row(q2, cash, "Net cash used in investing activities")[0] == "(3,436,966)"


def test_html_narrative_keeps_the_seed_errors() -> None:
    text = html.parse(str(Q2_2024 / "tm2421456d1_ex99-1.htm")).getroot().text_content()
    for damaged in ("RMB71.860 million", "RMB23.464 million", "second guarter"):
        assert damaged in text


def _num(cell: str) -> Decimal:
    if cell == "\u2014":
        return Decimal(0)
    neg = cell.startswith("(")
    value = Decimal(cell.strip("()").replace(",", ""))
    return -value if neg else value


def test_ex99_2_rows_reconcile() -> None:
    tables = _html_tables(Q2_2024 / "tm2421456d1_ex99-2.htm")
    assert len(tables) == 4
    checked = 0
    for _, rows in tables:
        for r in rows:
            if len(r) == 7 and all(c == "\u2014" or c.strip("()")[:1].isdigit() for c in r[1:]):
                values = [_num(c) for c in r[1:]]
                assert sum(values[:5]) == values[5], r
                checked += 1
    assert checked == 76  # every value row of the four tables
    assert _row(tables, "As of December 31, 2023", "Deferred tax assets") == [
        "1,067,738",
        "69,350",
        "\u2014",
        "\u2014",
        "(135,172)",
        "1,001,916",
    ]


def test_balance_sheets_foot() -> None:
    for path in (Q4_2023 / "tm248123d1_ex99-1.htm", Q2_2024 / "tm2421456d1_ex99-1.htm"):
        tables = _html_tables(path)
        bs = "Unaudited Condensed Consolidated Balance Sheets"
        value = {
            label: [_num(c) for c in _row(tables, bs, label)]
            for label in (
                "Total current assets",
                "Total non-current assets",
                "TOTAL ASSETS",
                "TOTAL LIABILITIES",
                "TOTAL EQUITY",
                "TOTAL LIABILITIES AND EQUITY",
            )
        }
        for c in range(3):
            v = {label: cells[c] for label, cells in value.items()}
            assert v["Total current assets"] + v["Total non-current assets"] == v["TOTAL ASSETS"]
            assert v["TOTAL LIABILITIES"] + v["TOTAL EQUITY"] == v["TOTAL LIABILITIES AND EQUITY"]


def test_titlesearch_rows() -> None:
    rows = json.loads((HKEX / "03660" / "titlesearch_rows.json").read_text())
    for r in rows:
        assert set(r) >= ROW_FIELDS
        datetime.strptime(r["DATE_TIME"], "%d/%m/%Y %H:%M")
        assert r["SHORT_TEXT"].endswith("<br/>") and r["FILE_LINK"].endswith(".pdf")
        size = (HKEX / "03660" / f"{r['NEWS_ID']}.pdf").stat().st_size
        assert r["FILE_INFO"] == f"{-(-size // 1024)}KB"
    by_id = {r["NEWS_ID"]: r for r in rows}
    res = by_id["11480512"]
    assert (res["DATE_TIME"], res["T1_CODE"], res["T2_CODE"]) == (
        "17/03/2025 05:58",
        "10000",
        "13300",
    )
    assert res["FILE_LINK"] == "/listedco/listconews/sehk/2025/0317/2025031700512.pdf"
    assert by_id["11126844"]["T2_CODE"] == "13251"
    assert any(r["FILE_LINK"].endswith("_c.pdf") for r in rows)
    assert any(r["LONG_TEXT"].startswith("(Headlines Revised)") for r in rows)
    assert any(19810 <= int(r["T2_CODE"]) <= 19870 for r in rows)
    assert any("&amp;" in r["TITLE"] for r in rows)
    stocks = json.loads((HKEX / "activestock_sehk_e.json").read_text())
    assert {"c": "03660", "i": 1000158063, "n": "QIFU TECH-S"} in stocks


def _pdf_rows(path: Path) -> tuple[list[list[str | None]], str]:
    with pdfplumber.open(path) as pdf:
        rows = [r for p in pdf.pages for t in p.extract_tables() for r in t]
        text = "\n".join(p.extract_text() or "" for p in pdf.pages)
    return rows, text


def test_results_pdf_tables() -> None:
    rows, text = _pdf_rows(HKEX / "03660" / "11480512.pdf")
    by_label = {r[0]: r[1:] for r in rows if r[0]}
    assert by_label["TOTAL ASSETS"] == ["45,818,572", "48,132,618", "6,594,142"]
    assert by_label["Total net revenue"][1] == "4,482,252"
    assert by_label["Investment loss"][:2] == ["\u2014", "\u2014"]
    assert "ANNOUNCEMENT OF" in text and "Hong Kong Exchanges and Clearing Limited" in text
    # the cash-flow statement is borderless: its figures are in the text, not in ruled tables
    assert "9,343,311" in text and "Net cash provided by operating activities" not in by_label


def test_dividend_form_pdf() -> None:
    rows, _ = _pdf_rows(HKEX / "03660" / "11126844.pdf")
    form = {r[0]: r[1] for r in rows if r[0]}
    assert form["Dividend declared"] == "USD 0.29 per share"
    assert form["Ex-dividend date"] == "12 April 2024"
    assert form["Record date"] == "15 April 2024"
    assert form["Payment date"] == "21 May 2024"
