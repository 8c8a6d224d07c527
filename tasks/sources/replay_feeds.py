"""The cross-issuer listings as the replay server plays them (test infrastructure).

Built from whatever the archive holds at the moment of the request (every submissions JSON,
every title-search rows file), so a document written into the archive is "published": the
next request of EDGAR's latest-filings Atom feed or HKEXnews' latest listing shows it, in the
recorded shapes (``tests/fixtures/reference/sec/sec_getcurrent_atom_page0.xml``).
"""

from __future__ import annotations

import json
from datetime import datetime
from html import escape
from pathlib import Path
from typing import Any

from domain.enums import SourceName
from tasks.sources.edgar import parse_accepted

ATOM_NS = "http://www.w3.org/2005/Atom"
LATEST_ROWS = 100  # entries per answer: the newest first


def _cached(root: Path, pattern: str, build: Any, cache: dict[str, Any]) -> Any:
    files = sorted(root.glob(pattern))
    key = tuple((str(f), f.stat().st_mtime_ns) for f in files)
    if cache.get(pattern, (None,))[0] != key:
        cache[pattern] = (key, build(files))
    return cache[pattern][1]


def _filings(files: list[Path]) -> list[dict[str, str]]:
    rows = []
    for path in files:
        body = json.loads(path.read_text())
        recent = body.get("filings", {}).get("recent", {})
        for i, accession in enumerate(recent.get("accessionNumber", [])):
            if str(recent["form"][i]).startswith("6-K"):
                rows.append(
                    {
                        "cik": str(body.get("cik", path.stem[3:])).zfill(10),
                        "name": str(body.get("name", "")),
                        "accession": accession,
                        "form": recent["form"][i],
                        "filed": recent["filingDate"][i],
                        "accepted": parse_accepted(recent["acceptanceDateTime"][i]).isoformat(),
                    }
                )
    rows.sort(key=lambda r: (r["accepted"], r["accession"]), reverse=True)
    return rows[:LATEST_ROWS]


def _entry(row: dict[str, str]) -> str:
    folder = f"{int(row['cik'])}/{row['accession'].replace('-', '')}"
    summary = escape(f"<b>Filed:</b> {row['filed']} <b>AccNo:</b> {row['accession']}")
    return (
        f"<entry>\n<title>{escape(row['form'])} - {escape(row['name'])} ({row['cik']}) (Filer)"
        f'</title>\n<link rel="alternate" type="text/html" href="https://www.sec.gov/Archives/'
        f'edgar/data/{folder}/{row["accession"]}-index.htm"/>\n<summary type="html">\n '
        f"{summary}\n</summary>\n<updated>{row['accepted']}</updated>\n"
        f'<category scheme="https://www.sec.gov/" label="form type" term="{row["form"]}"/>\n'
        f"<id>urn:tag:sec.gov,2008:accession-number={row['accession']}</id>\n</entry>\n"
    )


def atom_feed(root: Path, cache: dict[str, Any]) -> bytes:
    """EDGAR's getcurrent Atom feed of 6-K filings: the archive's newest, newest first."""
    rows = _cached(root, f"{SourceName.SEC}/*/submissions/CIK*.json", _filings, cache)
    updated = rows[0]["accepted"] if rows else datetime(2000, 1, 1).isoformat()
    head = (
        '<?xml version="1.0" encoding="ISO-8859-1" ?>\n'
        f'<feed xmlns="{ATOM_NS}">\n<title>Latest Filings</title>\n'
        '<link rel="self" href="/cgi-bin/browse-edgar?action=getcurrent"/>\n'
        "<id>https://www.sec.gov/cgi-bin/browse-edgar?action=getcurrent</id>\n"
        f"<updated>{updated}</updated>\n"
    )
    return (head + "".join(_entry(r) for r in rows) + "</feed>\n").encode("latin-1", "replace")


def _news(files: list[Path]) -> list[dict[str, Any]]:
    rows = [row for path in files for row in json.loads(path.read_text())]
    rows.sort(key=_when, reverse=True)
    return [_news_item(row) for row in rows[:LATEST_ROWS]]


def _when(row: dict[str, Any]) -> tuple[datetime, str]:
    return datetime.strptime(row["DATE_TIME"], "%d/%m/%Y %H:%M"), str(row["NEWS_ID"])


def _news_item(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "newsId": int(row["NEWS_ID"]),
        "title": row.get("TITLE", ""),
        "relTime": row["DATE_TIME"],
        "webPath": row["FILE_LINK"],
        "ext": row.get("FILE_TYPE", "PDF"),
        "size": row.get("FILE_INFO", ""),
        "lTxt": row.get("LONG_TEXT", ""),
        "sTxt": row.get("SHORT_TEXT", ""),
        "t1Code": row.get("T1_CODE", ""),
        "t2Code": row.get("T2_CODE", ""),
        "market": "SEHK",
        "stock": [{"sc": row.get("STOCK_CODE", ""), "sn": row.get("STOCK_NAME", "")}],
    }


def latest_listing(root: Path, cache: dict[str, Any]) -> bytes:
    """HKEXnews' latest-announcements listing (one page): the archive's newest rows."""
    items = _cached(root, f"{SourceName.HKEX}/*/titlesearch_rows.json", _news, cache)
    body = {"genDate": "", "maxNumOfFile": 1, "newsInfoLst": items}
    return json.dumps(body).encode()
