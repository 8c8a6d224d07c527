"""Build the SEC side of the archive: exhibits, cover pages, index pages, submissions JSON."""

from __future__ import annotations

from pathlib import Path

from fixturegen import edgar_html as eh
from fixturegen import synthetic
from fixturegen.edgar_index import index_page, submission_size
from fixturegen.edgar_meta import CIK10, FILINGS, Filing, dump_json, submissions
from fixturegen.repairs import Q2_2024_FIXES, apply_fixes
from fixturegen.seedparse import parse

SEEDS = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "seeds"
Q4_2023 = "sec_0001741530_2024-03-12_6k_q4-2023.txt"
Q2_2024 = "sec_0001741530_2024-08-13_6k_q2-2024.txt"

OPS_Q4 = "Net income attributable to ordinary shareholders of the Company"
STYLES = {
    "Unaudited Condensed Consolidated Balance Sheets": eh.TableStyle(
        negatives="split2",
        currency_rows=("Cash and cash equivalents", "TOTAL ASSETS", "TOTAL LIABILITIES AND EQUITY"),
    ),
    "Unaudited Condensed Consolidated Statements of Operations": eh.TableStyle(
        negatives="split3",
        currency_rows=("Credit driven services", "Total net revenue"),
        wrap={OPS_Q4: 48},
    ),
    "Unaudited Condensed Consolidated Statements of Cash Flows": eh.TableStyle("split2"),
    "Unaudited Condensed Consolidated Statements of Comprehensive Income": eh.TableStyle("whole"),
    "Unaudited Reconciliations of GAAP and Non-GAAP Results": eh.TableStyle("split2"),
}
EX992_STYLE = eh.TableStyle("split3")
# SEC's files/company_tickers.json as SEC shapes it (index -> cik_str, ticker, title), with the
# registrants' real CIKs and names: `filings issuers add TICKER` resolves from it.
COMPANY_TICKERS = {
    str(i): {"cik_str": cik, "ticker": ticker, "title": title}
    for i, (cik, ticker, title) in enumerate(
        [
            (320193, "AAPL", "Apple Inc."),
            (1577552, "BABA", "Alibaba Group Holding Ltd"),
            (885245, "BKE", "BUCKLE INC"),
            (1741530, "QFIN", "Qifu Technology, Inc."),
        ]
    )
}


def _split(text: str, *markers: str) -> list[str]:
    """Cut the seed at each marker (the marker starts the next part)."""
    parts, rest = [], text
    for marker in markers:
        idx = rest.index(marker)
        parts.append(rest[:idx])
        rest = rest[idx:]
    return [*parts, rest]


def _exhibit(
    text: str, label: str, styles: dict[str, eh.TableStyle], default: eh.TableStyle | None = None
) -> bytes:
    return eh.document(label, label, eh.render_blocks(parse(text), styles, default))


def _cover(cover: str, filing: Filing) -> bytes:
    exhibits = [
        (f.doc_type.removeprefix("EX-"), _exhibit_title(cover, f.doc_type), f.name)
        for f in filing.files[1:]
    ]
    return eh.document("Form 6-K", "", eh.cover_page(cover, exhibits))


def _exhibit_title(cover: str, doc_type: str) -> str:
    """The description the seed's exhibit index gives (e.g. "Press Release")."""
    number = doc_type.removeprefix("EX-")
    for line in cover.splitlines():
        clean = line.strip().lstrip("[")
        if clean.startswith(f"Exhibit {number}"):
            return clean.split("](")[0].split(" — ", 1)[-1].strip()
    return "Press Release"


SYNTHETIC_6KS = (
    ("0001104659-24-095871", "September 2024", "September 3, 2024", synthetic.MONTHLY_RETURN,
     "99.1 \u2014 Monthly Return"),
    ("0001104659-24-075320", "June 2024", "June 28, 2024", synthetic.POLL_RESULTS,
     "99.1 \u2014 Poll Results of Annual General Meeting"),
)  # fmt: skip


def build_documents() -> dict[str, dict[str, bytes]]:
    """File bytes per accession number, for every 6-K with files."""
    by_acc = {f.accession: f for f in FILINGS}
    out: dict[str, dict[str, bytes]] = {}
    q4 = (SEEDS / Q4_2023).read_text(encoding="utf-8")
    cover, release = _split(q4, "**Qifu Technology Announces")
    f = by_acc["0001104659-24-032436"]
    out[f.accession] = {
        f.files[0].name: _cover(cover, f),
        f.files[1].name: _exhibit(release, "Exhibit 99.1", STYLES),
    }
    q2 = apply_fixes((SEEDS / Q2_2024).read_text(encoding="utf-8"), Q2_2024_FIXES)
    cover, release, recon = _split(
        q2, "Qifu Technology Announces Second", "DIFFERENCES BETWEEN U.S. GAAP"
    )
    f = by_acc["0001104659-24-088431"]
    out[f.accession] = {
        f.files[0].name: _cover(cover, f),
        f.files[1].name: _exhibit(release, "Exhibit 99.1", STYLES),
        f.files[2].name: _exhibit(recon, "Exhibit 99.2", {}, EX992_STYLE),
    }
    for acc, month, signed, body, label in SYNTHETIC_6KS:
        f = by_acc[acc]
        cover = synthetic.cover_text(month, [label], signed)
        out[acc] = {
            f.files[0].name: _cover(cover, f),
            f.files[1].name: _exhibit(body, "Exhibit 99.1", {}),
        }
    return out


def build(root: Path) -> list[dict[str, object]]:
    """Write the archive's sec/... under ``root``; return manifest entries."""
    base = root / "sec" / CIK10
    docs = build_documents()
    entries: list[dict[str, object]] = []
    sub_sizes: dict[str, int] = {}
    for filing in FILINGS:
        if not filing.files:
            continue
        files = docs[filing.accession]
        sizes = {name: len(data) for name, data in files.items()}
        sub_sizes[filing.accession] = submission_size(filing, sizes)
        folder = base / filing.accession
        written = {f"{filing.accession}-index.htm": index_page(filing, sizes), **files}
        for name, data in written.items():
            write(folder / name, data)
        entries.append(
            {
                "source": "sec",
                "id": filing.accession,
                "form": filing.form,
                "date": filing.filing_date,
                "files": file_entries(root, folder, written),
            }
        )
    data = dump_json(submissions(sub_sizes))
    write(base / "submissions" / f"CIK{CIK10}.json", data)
    write(root / "sec" / "company_tickers.json", dump_json(COMPANY_TICKERS))
    return entries


def write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def file_entries(root: Path, folder: Path, files: dict[str, bytes]) -> list[dict[str, object]]:
    import hashlib

    return [
        {
            "name": name,
            "path": (folder / name).relative_to(root).as_posix(),
            "sha256": hashlib.sha256(data).hexdigest(),
            "size": len(data),
        }
        for name, data in sorted(files.items())
    ]
