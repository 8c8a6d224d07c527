"""Small replay archives written into a test's tmp folder (the layout of the bundled one)."""

from __future__ import annotations

import json
from datetime import date, datetime, timedelta
from pathlib import Path

CIK = "0001741530"
STOCK_ID = 1000158063


def _index_page(cik: str, acc: str, files: list[tuple[str, str]]) -> str:
    folder = f"/Archives/edgar/data/{int(cik)}/{acc.replace('-', '')}"
    rows = "".join(
        f'<tr><td>{n}</td><td>{kind}</td><td><a href="{folder}/{name}">{name}</a></td>'
        f"<td>{kind}</td><td>100</td></tr>"
        for n, (name, kind) in enumerate(files, 1)
    )
    return (
        '<html><body><table summary="Document Format Files">'
        "<tr><th>Seq</th><th>Description</th><th>Document</th><th>Type</th><th>Size</th></tr>"
        f"{rows}</table></body></html>"
    )


def _columns(filings: list[tuple[str, date, str]]) -> dict[str, list[str]]:
    return {
        "accessionNumber": [a for a, _, _ in filings],
        "filingDate": [d.isoformat() for _, d, _ in filings],
        "reportDate": ["" for _ in filings],
        "acceptanceDateTime": [f"{d.isoformat()}T06:00:00.000Z" for _, d, _ in filings],
        "form": [f for _, _, f in filings],
        "primaryDocument": [f"doc{a[-6:]}.htm" for a, _, _ in filings],
        "primaryDocDescription": [f for _, _, f in filings],
    }


def sec_filings(count: int, start: date = date(2024, 1, 2)) -> list[tuple[str, date, str]]:
    """``count`` 6-K filings, one a day, newest first (as the submissions JSON lists them)."""
    made = [(f"0001104659-24-{n:06d}", start + timedelta(days=n), "6-K") for n in range(count)]
    return sorted(made, key=lambda f: f[1], reverse=True)


def write_sec(
    root: Path, filings: list[tuple[str, date, str]], recent: int | None = None, exhibits: int = 0
) -> None:
    """Submissions JSON (``recent`` newest rows, the rest on one ``files[]`` page), index pages
    and documents: the primary 6-K plus ``exhibits`` EX-99.x files per filing."""
    base = root / "sec" / CIK
    (base / "submissions").mkdir(parents=True, exist_ok=True)
    head, tail = filings[:recent], filings[recent:] if recent is not None else []
    files = []
    if tail:
        name = f"CIK{CIK}-submissions-001.json"
        (base / "submissions" / name).write_text(json.dumps(_columns(tail)))
        dates = [d for _, d, _ in tail]
        files = [
            {
                "name": name,
                "filingCount": len(tail),
                "filingFrom": min(dates).isoformat(),
                "filingTo": max(dates).isoformat(),
            }
        ]
    body = {"cik": str(int(CIK)), "filings": {"recent": _columns(head), "files": files}}
    (base / "submissions" / f"CIK{CIK}.json").write_text(json.dumps(body))
    for acc, _, form in filings:
        folder = base / acc
        folder.mkdir(exist_ok=True)
        docs = [(f"doc{acc[-6:]}.htm", form)]
        docs += [(f"x{acc[-6:]}_{n}.htm", f"EX-99.{n}") for n in range(1, exhibits + 1)]
        docs.append((f"g{acc[-6:]}.jpg", "GRAPHIC"))
        for name, kind in docs:
            (folder / name).write_text(f"<html><body>{acc} {kind}</body></html>")
        (folder / f"{acc}-index.htm").write_text(_index_page(CIK, acc, docs))


def hkex_row(news_id: int, when: datetime, title: str = "NOTICE", t2: str = "13300") -> dict:
    """One title-search row as HKEXnews sends it."""
    link = (
        f"/listedco/listconews/sehk/{when:%Y}/{when:%m%d}/{when:%Y%m%d}{news_id % 100000:05d}.pdf"
    )
    return {
        "NEWS_ID": str(news_id),
        "TITLE": title,
        "SHORT_TEXT": "Announcements and Notices<br/>",
        "LONG_TEXT": "Announcements and Notices - [Final Results]",
        "STOCK_CODE": "03660",
        "STOCK_NAME": "QIFU TECH-S",
        "DATE_TIME": when.strftime("%d/%m/%Y %H:%M"),
        "FILE_TYPE": "PDF",
        "FILE_INFO": "1KB",
        "FILE_LINK": link,
        "DOD_WEB_PATH": "",
        "TOTAL_COUNT": "1",
        "T1_CODE": "10000",
        "T2_CODE": t2,
    }


def write_hkex(root: Path, rows: list[dict]) -> None:
    """Stock list and title-search rows with their PDFs."""
    folder = root / "hkex" / "03660"
    folder.mkdir(parents=True, exist_ok=True)
    stocks = [{"c": "00700", "i": 7609, "n": "TENCENT"}, {"c": "03660", "i": STOCK_ID, "n": "Q"}]
    (root / "hkex" / "activestock_sehk_e.json").write_text(json.dumps(stocks))
    (folder / "titlesearch_rows.json").write_text(json.dumps(rows))
    for row in rows:
        pdf = b"%PDF-1.4 " + row["NEWS_ID"].encode() + b"\n%%EOF\n"  # whole: it has a trailer
        (folder / f"{row['NEWS_ID']}.pdf").write_bytes(pdf)
