"""Build the HKEx side: stock list, title-search rows and the announcement PDFs.

NEWS_IDs, file links of the non-results rows and the stockIds are synthetic but realistic.
The reference rows have no category-code fields, so each row carries extra ``T1_CODE`` and
``T2_CODE`` keys (the t1code/t2code the row would be found under); real rows lack them.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass
from pathlib import Path

from fixturegen import hkex_docs, synthetic
from fixturegen.edgar_meta import dump_json
from fixturegen.hkex_pdf import simple_pdf

STOCK_CODE = "03660"
STOCK_ID = 1000158063
STOCK_NAME = "QIFU TECH-S"

ACTIVE_STOCKS = [
    {"c": "00001", "i": 1, "n": "CKH HOLDINGS"},
    {"c": "00005", "i": 3, "n": "HSBC HOLDINGS"},
    {"c": "00328", "i": 1000000328, "n": "ALCO HOLDINGS"},
    {"c": "00700", "i": 7609, "n": "TENCENT"},
    # the issuer of the real documents in tests/fixtures/real (its issuers.toml), so that
    # `filings issuers add EBH --hkex 1856 --source replay` answers; its stock id is not
    # recorded from HKEx (nothing of 01856 is served by the archive's title search)
    {"c": "01856", "i": 1000001856, "n": "ERNEST BOREL"},
    {"c": "03660", "i": STOCK_ID, "n": STOCK_NAME},
    {"c": "03690", "i": 1000051237, "n": "MEITUAN-W"},
    {"c": "09988", "i": 1000124863, "n": "BABA-W"},
]


@dataclass(frozen=True)
class Announcement:
    """One title-search row and the PDF behind it."""

    news_id: str
    title: str
    long_text: str
    date_time: str  # dd/MM/yyyy HH:mm, Hong Kong time
    file_link: str
    t1: str
    t2: str
    form: str  # manifest label


RESULTS_TITLE = (
    "ANNOUNCEMENT OF THE FOURTH QUARTER AND FULL YEAR 2024 FINANCIAL RESULTS AND "
    "SEMI-ANNUAL DIVIDEND"
)
ANNOUNCEMENTS: tuple[Announcement, ...] = (  # newest first, as sortDir=0 returns them
    Announcement(
        "11480512",
        RESULTS_TITLE,
        "Announcements and Notices - [Final Results]",
        "17/03/2025 05:58",
        "/listedco/listconews/sehk/2025/0317/2025031700512.pdf",
        "10000",
        "13300",
        "results",
    ),
    Announcement(
        "11480513",
        RESULTS_TITLE,
        "Announcements and Notices - [Final Results]",
        "17/03/2025 05:58",
        "/listedco/listconews/sehk/2025/0317/2025031700513_c.pdf",
        "10000",
        "13300",
        "results_zh",
    ),
    Announcement(
        "11452087",
        "Monthly Return of Equity Issuer on Movements in Securities for "
        "the month ended 28 February 2025",
        "Monthly Returns",
        "04/03/2025 17:02",
        "/listedco/listconews/sehk/2025/0304/2025030401187.pdf",
        "51500",
        "51510",
        "monthly_return",
    ),
    Announcement(
        "11448390",
        "DATE OF BOARD MEETING",
        "(Headlines Revised) Announcements and Notices - [Date of Board Meeting]",
        "03/03/2025 19:12",
        "/listedco/listconews/sehk/2025/0303/2025030301422.pdf",
        "10000",
        "13100",
        "headlines_revised",
    ),
    Announcement(
        "11255790",
        "OVERSEAS REGULATORY ANNOUNCEMENT - REPORT OF FOREIGN PRIVATE "
        "ISSUER (FORM 6-K) &amp; MONTHLY RETURN",
        "Announcements and Notices - [Overseas Regulatory Announcement - Other]",
        "03/09/2024 19:04",
        "/listedco/listconews/sehk/2024/0903/2024090301203.pdf",
        "10000",
        "19870",
        "overseas_regulatory",
    ),
    Announcement(
        "11126844",
        "Dividend or Distribution (Announcement Form) - Cash Dividend "
        "Announcement for Equity Issuer",
        "Announcements and Notices - [Dividend or Distribution (Announcement Form)]",
        "13/03/2024 05:52",
        "/listedco/listconews/sehk/2024/0313/2024031300844.pdf",
        "10000",
        "13251",
        "dividend_form",
    ),
)


def _pdfs() -> dict[str, bytes]:
    results = hkex_docs.results_pdf()
    return {
        "11480512": results,
        "11480513": results,  # the Chinese edition: same content is enough for the replay
        "11452087": simple_pdf(synthetic.HK_MONTHLY_RETURN, "Monthly Return"),
        "11448390": simple_pdf(synthetic.HK_HEADLINES_REVISED, "Date of Board Meeting"),
        "11255790": simple_pdf(synthetic.HK_OVERSEAS_REGULATORY, "Overseas Regulatory"),
        "11126844": hkex_docs.dividend_pdf(),
    }


def row(a: Announcement, size: int) -> dict[str, str]:
    """A decoded title-search row, with the real fields and their HTML quirks."""
    return {
        "NEWS_ID": a.news_id,
        "TITLE": a.title,
        "SHORT_TEXT": a.long_text + "<br/>",
        "LONG_TEXT": a.long_text,
        "STOCK_CODE": STOCK_CODE,
        "STOCK_NAME": STOCK_NAME,
        "DATE_TIME": a.date_time,
        "FILE_TYPE": "PDF",
        "FILE_INFO": f"{math.ceil(size / 1024)}KB",
        "FILE_LINK": a.file_link,
        "DOD_WEB_PATH": "",
        "TOTAL_COUNT": str(len(ANNOUNCEMENTS)),
        "T1_CODE": a.t1,
        "T2_CODE": a.t2,
    }


def build(root: Path) -> list[dict[str, object]]:
    """Write the archive's hkex/... under ``root``; return manifest entries."""
    base = root / "hkex"
    _write(base / "activestock_sehk_e.json", dump_json(ACTIVE_STOCKS))
    pdfs = _pdfs()
    rows = [row(a, len(pdfs[a.news_id])) for a in ANNOUNCEMENTS]
    _write(base / STOCK_CODE / "titlesearch_rows.json", dump_json(rows))
    entries: list[dict[str, object]] = []
    for a in ANNOUNCEMENTS:
        path = base / STOCK_CODE / f"{a.news_id}.pdf"
        _write(path, pdfs[a.news_id])
        day, month, rest = a.date_time.split("/")
        entries.append(
            {
                "source": "hkex",
                "id": a.news_id,
                "form": a.t2,
                "kind": a.form,
                "date": f"{rest[:4]}-{month}-{day}",
                "file_link": a.file_link,
                "files": [
                    {
                        "name": Path(a.file_link).name,
                        "path": path.relative_to(root).as_posix(),
                        "sha256": hashlib.sha256(pdfs[a.news_id]).hexdigest(),
                        "size": len(pdfs[a.news_id]),
                    }
                ],
            }
        )
    return entries


def _write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
