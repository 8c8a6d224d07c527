"""QFIN's EDGAR listing: the filings, the submissions JSON and the -index.htm pages.

Accession numbers, film numbers and acceptance times are synthetic but realistic; the results
6-Ks carry the seeds' dates. acceptanceDateTime ends in "Z" but is US-Eastern wall-clock time,
as SEC sends it.
"""

from __future__ import annotations

import html
import json
from dataclasses import dataclass

CIK = "1741530"
CIK10 = CIK.zfill(10)
NAME = "Qifu Technology, Inc."
FILE_NO = "001-38752"


@dataclass(frozen=True)
class FilingFile:
    """One document of a filing: file name, EDGAR Type column, description."""

    name: str
    doc_type: str
    description: str


@dataclass(frozen=True)
class Filing:
    """One row of ``filings.recent``; ``files`` only for filings whose documents we serve."""

    accession: str
    form: str
    filing_date: str
    report_date: str
    accepted: str
    film: str
    primary: str
    primary_desc: str
    file_number: str = FILE_NO
    act: str = "34"
    xbrl: int = 0
    files: tuple[FilingFile, ...] = ()
    size: int = 0
    items: str = ""  # an 8-K's items ("2.02,9.01")

    @property
    def folder(self) -> str:
        """Archives folder name: the accession without dashes."""
        return self.accession.replace("-", "")


def _six_k(
    acc: str,
    day: str,
    report: str,
    accepted: str,
    film: str,
    stem: str,
    exhibits: tuple[FilingFile, ...],
) -> Filing:
    cover = FilingFile(f"{stem}_6k.htm", "6-K", "6-K")
    return Filing(
        acc, "6-K", day, report, accepted, film, cover.name, "6-K", files=(cover, *exhibits)
    )


# Newest first, as SEC lists them.
FILINGS: tuple[Filing, ...] = (
    _six_k(
        "0001104659-24-095871",
        "2024-09-03",
        "2024-09-30",
        "2024-09-03T06:31:22.000Z",
        "241257340",
        "tm2423310d1",
        (FilingFile("tm2423310d1_ex99-1.htm", "EX-99.1", "EXHIBIT 99.1"),),
    ),
    _six_k(
        "0001104659-24-088431",
        "2024-08-13",
        "2024-08-31",
        "2024-08-13T06:08:52.000Z",
        "241202911",
        "tm2421456d1",
        (
            FilingFile("tm2421456d1_ex99-1.htm", "EX-99.1", "EXHIBIT 99.1"),
            FilingFile("tm2421456d1_ex99-2.htm", "EX-99.2", "EXHIBIT 99.2"),
        ),
    ),
    # Exhibit named without "ex99": clients must go by the Type column.
    _six_k(
        "0001104659-24-075320",
        "2024-06-28",
        "2024-06-30",
        "2024-06-28T06:15:40.000Z",
        "241083562",
        "tm2418031d1",
        (FilingFile("tm2418031d1_pollresults.htm", "EX-99.1", "POLL RESULTS OF AGM"),),
    ),
    Filing(
        "0001104659-24-051122",
        "20-F",
        "2024-04-25",
        "2023-12-31",
        "2024-04-25T16:32:05.000Z",
        "24874551",
        "qfin-20231231x20f.htm",
        "20-F",
        xbrl=1,
        size=14_733_902,
    ),
    _six_k(
        "0001104659-24-032436",
        "2024-03-12",
        "2024-03-31",
        "2024-03-12T06:05:11.000Z",
        "24740123",
        "tm248123d1",
        (FilingFile("tm248123d1_ex99-1.htm", "EX-99.1", "EXHIBIT 99.1"),),
    ),
    Filing(
        "0001193125-24-036512",
        "SC 13G/A",
        "2024-02-14",
        "",
        "2024-02-14T16:05:33.000Z",
        "24638117",
        "d771234dsc13ga.htm",
        "SC 13G/A",
        file_number="005-90725",
        act="",
        size=11_204,
    ),
)


RECENT_KEYS = (
    "accessionNumber", "filingDate", "reportDate", "acceptanceDateTime", "act", "form",
    "fileNumber", "filmNumber", "items", "core_type", "size", "isXBRL", "isInlineXBRL",
    "primaryDocument", "primaryDocDescription",
)  # fmt: skip
ADDRESS = {
    "street1": "7/F LUJIAZUI FINANCE PLAZA", "street2": "NO. 1217 DONGFANG ROAD",
    "city": "SHANGHAI", "stateOrCountry": "F4", "zipCode": "200122",
    "stateOrCountryDescription": "China", "isForeignLocation": 1, "foreignStateTerritory": None,
    "country": "China", "countryCode": "F4",
}  # fmt: skip
COMPANY = {
    "cik": CIK, "entityType": "operating", "sic": "7389",
    "sicDescription": "Services-Business Services, NEC",
    "ownerOrg": "08 Industrial Applications and Services",
    "insiderTransactionForOwnerExists": 0, "insiderTransactionForIssuerExists": 0,
    "name": NAME, "tickers": ["QFIN"], "exchanges": ["Nasdaq"], "ein": "000000000",
    "lei": None, "description": "", "website": "", "investorWebsite": "",
    "category": "Large accelerated filer", "fiscalYearEnd": "1231",
    "stateOfIncorporation": "E9", "stateOfIncorporationDescription": "Cayman Islands",
    "addresses": {"mailing": ADDRESS, "business": ADDRESS},
    "phone": "86 21 5835 7668", "flags": "",
    "formerNames": [
        {"name": "360 DigiTech, Inc.", "from": "2020-12-15T00:00:00.000Z",
         "to": "2023-02-24T00:00:00.000Z"},
        {"name": "360 Finance, Inc.", "from": "2018-11-13T00:00:00.000Z",
         "to": "2020-12-14T00:00:00.000Z"},
    ],
}  # fmt: skip


def submissions(
    sizes: dict[str, int],
    company: dict[str, object] | None = None,
    filings: tuple[Filing, ...] = FILINGS,
) -> dict[str, object]:
    """The data.sec.gov submissions body (QFIN's unless ``company`` and ``filings`` say
    otherwise); ``sizes`` maps accession to its submission size."""
    recent: dict[str, list[object]] = {k: [] for k in RECENT_KEYS}
    for f in filings:
        values = (f.accession, f.filing_date, f.report_date, f.accepted, f.act, f.form,
                  f.file_number, f.film, f.items, f.form, sizes.get(f.accession, f.size),
                  f.xbrl, f.xbrl, f.primary, f.primary_desc)  # fmt: skip
        for key, value in zip(recent, values, strict=True):
            recent[key].append(value)
    return {**(company or COMPANY), "filings": {"recent": recent, "files": []}}


def dump_json(data: object) -> bytes:
    """Deterministic JSON bytes."""
    return (json.dumps(data, sort_keys=True, indent=1, ensure_ascii=False) + "\n").encode()


def _doc_row(seq: int, filing: Filing, f: FilingFile, size: int, cik: str = CIK) -> str:
    even = ' class="evenRow"' if seq % 2 == 0 else ""
    href = f"/Archives/edgar/data/{cik}/{filing.folder}/{f.name}"
    return (
        f"         <tr{even}>\n"
        f'            <td scope="row">{seq}</td>\n'
        f'            <td scope="row">{html.escape(f.description)}</td>\n'
        f'            <td scope="row"><a href="{href}">{f.name}</a></td>\n'
        f'            <td scope="row">{f.doc_type}</td>\n'
        f'            <td scope="row">{size}</td>\n'
        "         </tr>\n"
    )
