"""QFIN's statements in the shapes its next results release came in (issue 36 item 2), whose
column heads do not sit over their columns: the text as published (runs of spaces, each
header line a line of its own between blank lines, "  2023  2024  2024" at the margin under
"Three months ended" / "December 31," set far right, figures one space apart in some rows);
EDGAR HTML with each header line's heads in one cell (over the value columns, across the whole
row, or in the label cell); a PDF with them in one text run (likewise), and the published text
saved as a PDF, every line one text run. Built from the real seeds when the test runs
(scripts/layouts/next_release.py, the fixture generator, reportlab) and read through the
production path (``extract_document``): every golden statement fact, nothing wrong, nothing
refused, the outlook read; the line items are the tab-separated seed's, cell for cell.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts" / "layouts"))

import next_release  # noqa: E402
from render import render  # noqa: E402

from domain.records import Extraction  # noqa: E402
from tasks.extract import extract_file  # noqa: E402
from tests.golden.golden import load  # noqa: E402
from tests.golden.test_golden import _golden_guidance, _guidance  # noqa: E402

SEEDS = Path(__file__).resolve().parents[1] / "fixtures" / "seeds"
SEED_NAMES = (
    "sec_0001741530_2024-03-12_6k_q4-2023.txt",
    "hkex_03660_2025-03-17_q4-2024-results.txt",
)


def _rendered(shape: Callable[[str], str], fmt: str) -> Callable[[str], tuple[str, bytes]]:
    return lambda seed: render(shape(seed), fmt)


SHAPES: dict[str, Callable[[str], tuple[str, bytes]]] = {
    "text as published": _rendered(next_release.spaced_text, "text"),
    "html, heads in one cell over the values": _rendered(next_release.one_cell, "html"),
    "html, heads in one cell across the row": _rendered(
        lambda s: next_release.one_cell(s, across=True), "html"
    ),
    "html, heads in the label cell": _rendered(next_release.label_cell, "html"),
    "pdf, heads in one run over the values": _rendered(next_release.one_cell, "pdf"),
    "pdf, heads in one run across the table": _rendered(
        lambda s: next_release.one_cell(s, across=True), "pdf"
    ),
    "pdf, heads in the label column": _rendered(next_release.label_cell, "pdf"),
    "pdf of the published text": lambda s: (
        "release.pdf",
        next_release.text_pdf(next_release.spaced_text(s)),
    ),
}
_READ: dict[tuple[str, str], Extraction] = {}


def _read(seed: str, shape: str) -> Extraction:
    if (seed, shape) not in _READ:
        name, content = SHAPES[shape]((SEEDS / seed).read_text(encoding="utf-8"))
        _READ[seed, shape] = extract_file(name, content, "QFIN")
    return _READ[seed, shape]


def _cells(extraction: Extraction, labelled: bool) -> Counter[tuple[object, ...]]:
    return Counter(
        (r.statement, r.row_label if labelled else "", r.period_start, r.period_end, r.currency,
         r.value)
        for r in extraction.rows
    )  # fmt: skip


CASES = [(seed, shape) for seed in SEED_NAMES for shape in SHAPES]
IDS = [f"{seed[:8]}-{shape}" for seed, shape in CASES]


@pytest.mark.parametrize(("seed", "shape"), CASES, ids=IDS)
def test_every_golden_statement_fact_and_nothing_wrong(seed: str, shape: str) -> None:
    golden = load(seed).tables
    read = _read(seed, shape)
    got = {f.key: f.value for f in read.facts if f.origin == "table"}
    assert {k: (v, golden.get(k)) for k, v in got.items() if golden.get(k) != v} == {}
    assert set(golden) - set(got) == set()
    assert read.refused == ()


@pytest.mark.parametrize(("seed", "shape"), CASES, ids=IDS)
def test_the_outlook_is_read(seed: str, shape: str) -> None:
    expected = sorted(_golden_guidance(g) for g in load(seed).guidance)
    assert expected and sorted(_guidance(g) for g in _read(seed, shape).guidance) == expected


@pytest.mark.parametrize(("seed", "shape"), CASES, ids=IDS)
def test_the_line_items_are_the_tab_separated_seeds(seed: str, shape: str) -> None:
    """Cell for cell; in a PDF a long label wraps in its cell as the renderer wraps it
    (its last line, "EPS -diluted", is the label read), so there the figures are compared."""
    tabbed = extract_file(seed, (SEEDS / seed).read_bytes(), "QFIN")
    assert len(tabbed.rows) > 300
    labelled = not shape.startswith("pdf")
    assert _cells(_read(seed, shape), labelled) == _cells(tabbed, labelled)


def test_the_published_text_keeps_its_heads_off_the_columns() -> None:
    """The shape itself: header lines apart, the years at the margin, one-space rows."""
    text = next_release.spaced_text((SEEDS / SEED_NAMES[1]).read_text(encoding="utf-8"))
    assert "\n\n  2023  2024  2024  2023  2024  2024\n\n  RMB  RMB  USD" in text
    assert "\n\n" + " " * 40 + "Three months ended" in text
    assert "\nCredit driven services 3,248,263 2,889,500 395,860 11,738,560 11,719,027 " in text
    assert "\nFinancing income 1,485,446 1,667,340 228,425  5,109,921 6,636,511 909,198" in text
    assert "\nRevenue from releasing of guarantee liabilities    1,211,787    761,827" in text
