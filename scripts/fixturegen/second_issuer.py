"""The replay archive's second issuer: The Buckle, Inc. (NYSE: BKE, SEC CIK 885245).

What is real: its earnings release, the EX-99.1 of its 8-K of November 22, 2024, byte for byte
(tests/fixtures/reference/sec/sec_8k_ex99-1_buckle_earnings_release.htm, from edgartools'
fixtures), with the exhibit's real file name; its CIK, registrant name, ticker, exchange and
SEC file number. What is assembled: the accession and film numbers and acceptance time
(synthetic but realistic, like QFIN's), the 8-K's short cover document, the filing index
page and the submissions JSON (in the shapes of the real ones in the reference folder).
Buckle is not dual-listed: it stands for the issuers that file results on 8-K as U.S.
domestic registrants, configured by ticker and CIK only, with no catalog.
"""

from __future__ import annotations

import html
from pathlib import Path

from fixturegen.edgar_index import index_page, submission_size
from fixturegen.edgar_meta import Filing, FilingFile, dump_json, submissions
from fixturegen.sec_build import file_entries, write

REFERENCE = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "reference" / "sec"
RELEASE = REFERENCE / "sec_8k_ex99-1_buckle_earnings_release.htm"
CIK = "885245"
CIK10 = CIK.zfill(10)
NAME = "BUCKLE INC"
FILE_NO = "001-12951"
ADDRESS = {
    "street1": "2407 W 24TH ST", "street2": None, "city": "KEARNEY", "stateOrCountry": "NE",
    "zipCode": "68845", "stateOrCountryDescription": "NE", "isForeignLocation": 0,
    "foreignStateTerritory": None, "country": None, "countryCode": None,
}  # fmt: skip
COMPANY = {
    "cik": CIK, "entityType": "operating", "sic": "5651",
    "sicDescription": "Family Clothing Stores",
    "ownerOrg": "07 Trade & Services", "insiderTransactionForOwnerExists": 0,
    "insiderTransactionForIssuerExists": 1, "name": NAME, "tickers": ["BKE"],
    "exchanges": ["NYSE"], "ein": "000000000", "lei": None, "description": "", "website": "",
    "investorWebsite": "", "category": "Large accelerated filer", "fiscalYearEnd": "0201",
    "stateOfIncorporation": "NE", "stateOfIncorporationDescription": "NE",
    "addresses": {"mailing": ADDRESS, "business": ADDRESS}, "phone": "3082368491",
    "flags": "", "formerNames": [],
}  # fmt: skip
FILING = Filing(
    "0000885245-24-000052",
    "8-K",
    "2024-11-22",
    "2024-11-22",
    "2024-11-22T07:02:14.000Z",
    "241485103",
    "bke20241122-8k.htm",
    "8-K",
    file_number=FILE_NO,
    items="2.02,9.01",
    files=(
        FilingFile("bke20241122-8k.htm", "8-K", "8-K"),
        FilingFile("bke20241122-8kexhibit.htm", "EX-99.1", "EX-99.1"),  # its real name
    ),
)  # fmt: skip
COVER = """<html><head><title>bke-20241122</title></head><body>
<div style="text-align:center"><p>UNITED STATES<br/>SECURITIES AND EXCHANGE COMMISSION<br/>
Washington, D.C. 20549</p><p><b>FORM 8-K</b></p><p>CURRENT REPORT<br/>Pursuant to Section 13 or
15(d) of the Securities Exchange Act of 1934</p>
<p>Date of Report (Date of earliest event reported): November 22, 2024</p>
<p><b>THE BUCKLE, INC.</b><br/>(Exact name of registrant as specified in its charter)</p>
<p>Nebraska &#160; &#160; {file_no} (Commission File Number)</p>
<p>2407 West 24th Street, Kearney, Nebraska 68845-4915</p></div>
<p><b>Item 2.02 Results of Operations and Financial Condition.</b></p>
<p>On November 22, 2024, The Buckle, Inc. issued a press release announcing its results for the
quarter ended November 2, 2024. The press release is furnished as Exhibit 99.1.</p>
<p><b>Item 9.01 Financial Statements and Exhibits.</b></p>
<table><tr><td>Exhibit No.</td><td>Description</td></tr>
<tr><td>99.1</td><td><a href="{exhibit}">Press Release dated November 22, 2024</a></td></tr>
</table></body></html>
"""


def build(root: Path) -> list[dict[str, object]]:
    """Write sec/0000885245/... under ``root``; return its manifest entry."""
    cover, exhibit = FILING.files
    files = {
        cover.name: COVER.format(file_no=FILE_NO, exhibit=html.escape(exhibit.name)).encode(),
        exhibit.name: RELEASE.read_bytes(),
    }
    sizes = {name: len(data) for name, data in files.items()}
    written = {f"{FILING.accession}-index.htm": index_page(FILING, sizes, CIK, NAME), **files}
    folder = root / "sec" / CIK10 / FILING.accession
    for name, data in written.items():
        write(folder / name, data)
    body = submissions({FILING.accession: submission_size(FILING, sizes)}, COMPANY, (FILING,))
    write(root / "sec" / CIK10 / "submissions" / f"CIK{CIK10}.json", dump_json(body))
    return [
        {
            "source": "sec",
            "id": FILING.accession,
            "form": FILING.form,
            "date": FILING.filing_date,
            "files": file_entries(root, folder, written),
        }
    ]
