"""The PDF benchmark's TrueType rendering: embedded subset fonts, same layout, same facts."""

from __future__ import annotations

import io
from pathlib import Path

import pdfplumber

from benchmarks import pdf as bench


def _fonts(content: bytes) -> set[str]:
    with pdfplumber.open(io.BytesIO(content)) as pdf:
        return {c["fontname"] for page in pdf.pages for c in page.chars}


def test_truetype_rendering_embeds_subsets_and_keeps_the_facts(tmp_path: Path) -> None:
    standard = bench.long_results_pdf(13, tmp_path).read_bytes()
    with bench.truetype():
        encoded = bench.long_results_pdf(13, tmp_path, "_truetype").read_bytes()
    fonts = _fonts(encoded)
    assert fonts and all("+BitstreamVera" in f for f in fonts)  # subset tag: embedded
    assert bench.page_count(encoded) == bench.page_count(standard)
    assert sorted(bench.ours(encoded)) == sorted(bench.ours(standard))


def test_truetype_block_restores_the_generator(tmp_path: Path) -> None:
    before = bench.long_results_pdf(13, tmp_path).read_bytes()
    with bench.truetype():
        pass
    assert bench.long_results_pdf(13, tmp_path, "_after").read_bytes() == before
    assert _fonts(before) <= {"Helvetica", "Helvetica-Bold", "Helvetica-Oblique"}
