"""The PDF path against plain pdfplumber, on the same documents: speed and peak memory.

Ours: ``tasks.extract.extract_file`` (a page with standard fonts and plain ``Tj`` strings gives
its running text from its content stream's literals, any other page from PDFium; only pages
showing a statement title are parsed for tables, their words read by pdfminer's interpreter
without pdfplumber's per-glyph objects). Plain: pdfplumber ``extract_text()`` +
``extract_tables()`` on every page. "Same facts" checks that every statement figure we extract
is printed in the plain text too.

Documents: the HKEx fixtures; a real HKEx announcement whose fonts are embedded CID fonts (no
page on the literal fast path); and the results announcement lengthened with filler
pages to 50, 100 and 200 pages (generated at run time into a temp dir with the fixture
generator's reportlab layout; nothing large is committed). The results announcement and its
200-page version are also rendered with reportlab's bundled Vera embedded as TrueType subsets
(rows "results[ 200p], TrueType subset"; sizes scaled to Helvetica's line widths so the layout
is unchanged), as real HKEx PDFs embed their fonts: no page is then on the literal fast path,
like the CID row, and the rendering must give the Helvetica one's statement facts. Peak memory
is tracemalloc's (pdfminer is pure Python); PDFium's own allocations, in C, are not in it.
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
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

import pdfplumber

from tasks.extract import extract_file
from tasks.sources.replay import default_archive_root

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = default_archive_root() / "hkex" / "03660"
REFERENCE = ROOT / "tests" / "fixtures" / "reference" / "hkex"
ENCODED = REFERENCE / "hkex_00328_2025-06-27_profit_warning_zh.pdf"  # embedded CID fonts
_FILLER = (
    "Any forward-looking statements contained in this announcement are made under the safe "
    "harbor provisions of the U.S. Private Securities Litigation Reform Act of 1995. "
) * 6
_NAME = 31  # width of the document column
_VERA = {"Helvetica": "Vera", "Helvetica-Bold": "VeraBd"}  # standard face -> TrueType face
_SAMPLE = "Total net revenue was RMB4,482.3 million (US$614.1 million), December 31, 2024"


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
    result = extract_file("bench.pdf", content, "QFIN")
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


def _fixturegen() -> ModuleType:
    if str(ROOT / "scripts") not in sys.path:
        sys.path.insert(0, str(ROOT / "scripts"))
    from fixturegen import hkex_pdf  # noqa: PLC0415 - build-time tooling only

    return hkex_pdf


def _register_vera() -> dict[str, float]:
    """Register reportlab's bundled Vera faces and family; the size factor for each swap.

    Vera is about 12% wider than Helvetica: at the same size the statement headers overflow
    their columns and print over each other. Scaled so a line is as wide as in Helvetica, the
    layout (wrapping, pages, table columns) stays the standard rendering's.
    """
    import reportlab  # noqa: PLC0415
    from reportlab.lib.fonts import addMapping  # noqa: PLC0415
    from reportlab.pdfbase import pdfmetrics  # noqa: PLC0415
    from reportlab.pdfbase.ttfonts import TTFont  # noqa: PLC0415

    folder = Path(reportlab.__file__).parent / "fonts"
    faces = ((0, 0, "Vera"), (1, 0, "VeraBd"), (0, 1, "VeraIt"), (1, 1, "VeraBI"))
    for bold, italic, face in faces:
        if face not in pdfmetrics.getRegisteredFontNames():
            pdfmetrics.registerFont(TTFont(face, str(folder / f"{face}.ttf")))
        addMapping("Vera", bold, italic, face)  # <b>/<i> markup in a Vera paragraph
    width = pdfmetrics.stringWidth
    return {h: width(_SAMPLE, h, 10) / width(_SAMPLE, v, 10) for h, v in _VERA.items()}


@contextmanager
def truetype() -> Iterator[None]:
    """The fixture generator draws with Vera (embedded TrueType subsets) instead of Helvetica.

    Only this process's generator changes, and only inside the block: its paragraph styles
    and the font commands of its statement tables.
    """
    from reportlab.lib.styles import ParagraphStyle  # noqa: PLC0415

    scale = _register_vera()
    gen = _fixturegen()
    styles = [v for v in vars(gen).values() if isinstance(v, ParagraphStyle)]
    saved = [(st, st.fontName, st.fontSize) for st in styles]
    original = gen._style  # type: ignore[attr-defined]  # a module, typed as ModuleType

    def table_style(*args: Any) -> list[tuple[Any, ...]]:
        cmds: list[tuple[Any, ...]] = original(*args)
        return [
            (*c[:3], _VERA[c[3]], c[4] * scale[c[3]], *c[5:]) if c[0] == "FONT" else c for c in cmds
        ]

    try:
        for st, name, size in saved:
            if name in _VERA:
                st.fontName, st.fontSize = _VERA[name], size * scale[name]
        setattr(gen, "_style", table_style)  # noqa: B010 - the generator reads its global
        yield
    finally:
        for st, name, size in saved:
            st.fontName, st.fontSize = name, size
        setattr(gen, "_style", original)  # noqa: B010


def long_results_pdf(pages: int, folder: Path, suffix: str = "") -> Path:
    """The Q4 2024 results announcement with filler pages before the statements."""
    hkex_pdf = _fixturegen()
    from fixturegen import hkex_docs  # noqa: PLC0415 - build-time tooling only
    from fixturegen.seedparse import parse  # noqa: PLC0415
    from reportlab.platypus import PageBreak, Paragraph  # noqa: PLC0415

    text = (hkex_docs.SEEDS / hkex_docs.RESULTS).read_text(encoding="utf-8")
    idx = text.index("Qifu Technology Announces Fourth Quarter")
    filler = []
    for _ in range(max(pages - 13, 0)):
        filler += [Paragraph(_FILLER, hkex_pdf.BODY) for _ in range(4)] + [PageBreak()]
    blocks = hkex_pdf.blocks_flowables(parse(text[idx:]))
    flow = hkex_docs._cover(text[:idx]) + [PageBreak()] + filler + blocks
    path = folder / f"results_{pages}p{suffix}.pdf"
    path.write_bytes(hkex_pdf.render(flow, "Benchmark"))
    return path


def page_count(content: bytes) -> int:
    with pdfplumber.open(io.BytesIO(content)) as pdf:
        return len(pdf.pages)


def row(name: str, content: bytes, repeat: int = 1) -> tuple[str, int]:
    """One line of the table, and how many statement facts ours extracted."""
    pages = page_count(content)
    ours_runs, ours_mb, raws = measure(ours, content, repeat)
    plain_runs, plain_mb, text = measure(plain, content, repeat)
    assert isinstance(raws, list) and isinstance(text, str)
    ours_s, plain_s = min(ours_runs), min(plain_runs)
    median = statistics.median(plain_runs) / statistics.median(ours_runs)
    squeezed = "".join(text.split())
    found = sum(1 for r in raws if "".join(r.split()) in squeezed)
    line = (
        f"{name:<{_NAME}}{pages:>6}{ours_s:>9.2f}{plain_s:>9.2f}{pages / ours_s:>9.1f}"
        f"{pages / plain_s:>10.1f}{plain_s / ours_s:>8.1f}x{ours_mb:>9.1f}{plain_mb:>10.1f}"
        f"{found:>7}/{len(raws)}{median:>7.1f}x"
    )
    return line, len(raws)


def truetype_rows(folder: Path, sizes: tuple[int, ...], expected: int, repeat: int) -> None:
    """The results announcement drawn with embedded TrueType subsets, at each size in pages.

    A rendering must give the same statement facts as the Helvetica one (``expected``): the
    fonts change, the figures don't; a shortfall is printed under its row.
    """
    with truetype():
        paths = {n: long_results_pdf(n, folder, "_truetype") for n in sizes}
    for pages, path in paths.items():
        name = "results, TrueType subset" if pages == 13 else f"results {pages}p, TrueType subset"
        line, facts = row(name, path.read_bytes(), repeat)
        print(line)
        if facts != expected:
            print(f"  !! {facts} statement facts, the Helvetica rendering gives {expected}")


def main(argv: list[str] | None = None) -> int:
    """Print the comparison table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--quick", action="store_true", help="fixtures, 50 pages, 13 pages TrueType only"
    )
    parser.add_argument("--repeat", type=int, default=1, help="timed runs per path (best kept)")
    args = parser.parse_args(argv)
    ours((FIXTURES / "11126844.pdf").read_bytes())  # warm imports and the catalog
    print(
        f"{'document':<{_NAME}}{'pages':>6}{'ours s':>9}{'plain s':>9}{'ours p/s':>9}"
        f"{'plain p/s':>10}{'speedup':>9}{'ours MiB':>9}{'plain MiB':>10}{'same facts':>11}"
        f"{'med x':>8}"
    )
    documents = {
        "11480512.pdf": FIXTURES / "11480512.pdf",
        "11126844.pdf": FIXTURES / "11126844.pdf",
        "00328 zh (CID fonts)": ENCODED,
    }
    facts: dict[str, int] = {}
    for name, path in documents.items():
        line, facts[name] = row(name, path.read_bytes(), args.repeat)
        print(line)
    with tempfile.TemporaryDirectory() as tmp:
        for pages in (50,) if args.quick else (50, 100, 200):
            path = long_results_pdf(pages, Path(tmp))
            print(row(path.name, path.read_bytes(), args.repeat)[0])
        sizes = (13,) if args.quick else (13, 200)
        truetype_rows(Path(tmp), sizes, facts["11480512.pdf"], args.repeat)  # same announcement
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
