"""The PDF path against plain pdfplumber, on the same documents: speed and peak memory.

Ours: ``tasks.extract.extract_file`` (a page with standard fonts and plain ``Tj`` strings gives
its running text from its content stream's literals, any other page from its glyphs; only
pages showing a statement title are parsed for tables, their words read by pdfminer's
interpreter without pdfplumber's per-glyph objects). Plain: pdfplumber ``extract_text()`` +
``extract_tables()`` on every page. "Same facts" checks that every statement figure we extract
is printed in the plain text too.

Documents: the HKEx fixtures; a real HKEx announcement whose fonts are embedded CID fonts (every
page read from its glyphs: the slow path); and the results announcement lengthened with filler
pages to 50, 100 and 200 pages (generated at run time into a temp dir with the fixture
generator's reportlab layout; nothing large is committed). Peak memory is tracemalloc's
(pdfminer is pure Python).
Times are the best of ``--repeat`` untraced runs (the same count for both paths); "med x" is the
speed-up of the medians. Usage: ``python -m benchmarks.pdf [--quick] [--repeat N]``.
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pdfplumber

from tasks.extract import extract_file, load_catalog

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures" / "hkex" / "03660"
REFERENCE = ROOT / "tests" / "fixtures" / "reference" / "hkex"
ENCODED = REFERENCE / "hkex_00328_2025-06-27_profit_warning_zh.pdf"  # embedded CID fonts
_FILLER = (
    "Any forward-looking statements contained in this announcement are made under the safe "
    "harbor provisions of the U.S. Private Securities Litigation Reform Act of 1995. "
) * 6


def plain(content: bytes) -> str:
    """The baseline: every page's text and tables through pdfplumber."""
    parts: list[str] = []
    with pdfplumber.open(io.BytesIO(content)) as pdf:
        for page in pdf.pages:
            parts.append(page.extract_text() or "")
            for table in page.extract_tables():
                parts.extend(" ".join(cell or "" for cell in row) for row in table)
            page.close()
    return "\n".join(parts)


def ours(content: bytes) -> list[str]:
    """Our path; returns the raw text of every statement fact."""
    result = extract_file("bench.pdf", content, load_catalog("QFIN"))
    return [f.provenance.raw_text for f in result.facts if f.origin == "table"]


def measure(
    run: Callable[[bytes], object], content: bytes, repeat: int = 1
) -> tuple[list[float], float, object]:
    """Seconds of ``repeat`` untraced runs and peak MiB (one more, traced: tracing slows Python)."""
    seconds = []
    for _ in range(repeat):
        started = time.perf_counter()
        out = run(content)
        seconds.append(time.perf_counter() - started)
    tracemalloc.start()
    run(content)
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    return seconds, peak, out


def long_results_pdf(pages: int, folder: Path) -> Path:
    """The Q4 2024 results announcement with filler pages before the statements."""
    sys.path.insert(0, str(ROOT / "scripts"))
    from fixturegen import hkex_docs, hkex_pdf  # noqa: PLC0415 - build-time tooling only
    from fixturegen.seedparse import parse  # noqa: PLC0415
    from reportlab.platypus import PageBreak, Paragraph  # noqa: PLC0415

    text = (hkex_docs.SEEDS / hkex_docs.RESULTS).read_text(encoding="utf-8")
    idx = text.index("Qifu Technology Announces Fourth Quarter")
    filler = []
    for _ in range(max(pages - 13, 0)):
        filler += [Paragraph(_FILLER, hkex_pdf.BODY) for _ in range(4)] + [PageBreak()]
    blocks = hkex_pdf.blocks_flowables(parse(text[idx:]))
    flow = hkex_docs._cover(text[:idx]) + [PageBreak()] + filler + blocks
    path = folder / f"results_{pages}p.pdf"
    path.write_bytes(hkex_pdf.render(flow, "Benchmark"))
    return path


def page_count(content: bytes) -> int:
    with pdfplumber.open(io.BytesIO(content)) as pdf:
        return len(pdf.pages)


def row(name: str, content: bytes, repeat: int = 1) -> str:
    """One line of the table."""
    pages = page_count(content)
    ours_runs, ours_mb, raws = measure(ours, content, repeat)
    plain_runs, plain_mb, text = measure(plain, content, repeat)
    assert isinstance(raws, list) and isinstance(text, str)
    ours_s, plain_s = min(ours_runs), min(plain_runs)
    median = statistics.median(plain_runs) / statistics.median(ours_runs)
    squeezed = "".join(text.split())
    found = sum(1 for r in raws if "".join(r.split()) in squeezed)
    return (
        f"{name:<22}{pages:>6}{ours_s:>9.2f}{plain_s:>9.2f}{pages / ours_s:>9.1f}"
        f"{pages / plain_s:>10.1f}{plain_s / ours_s:>8.1f}x{ours_mb:>9.1f}{plain_mb:>10.1f}"
        f"{found:>7}/{len(raws)}{median:>7.1f}x"
    )


def main(argv: list[str] | None = None) -> int:
    """Print the comparison table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fixtures and 50 pages only")
    parser.add_argument("--repeat", type=int, default=1, help="timed runs per path (best kept)")
    args = parser.parse_args(argv)
    ours((FIXTURES / "11126844.pdf").read_bytes())  # warm imports and the catalog
    print(
        f"{'document':<22}{'pages':>6}{'ours s':>9}{'plain s':>9}{'ours p/s':>9}"
        f"{'plain p/s':>10}{'speedup':>9}{'ours MiB':>9}{'plain MiB':>10}{'same facts':>11}"
        f"{'med x':>8}"
    )
    documents = {
        "11480512.pdf": FIXTURES / "11480512.pdf",
        "11126844.pdf": FIXTURES / "11126844.pdf",
        "00328 zh (CID fonts)": ENCODED,
    }
    for name, path in documents.items():
        print(row(name, path.read_bytes(), args.repeat))
    with tempfile.TemporaryDirectory() as tmp:
        for pages in (50,) if args.quick else (50, 100, 200):
            path = long_results_pdf(pages, Path(tmp))
            print(row(path.name, path.read_bytes(), args.repeat))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
