"""The text, HTML and PDF renderings of one disclosure must agree on every statement fact."""

from __future__ import annotations

from pathlib import Path

import pytest

from tasks.extract import extract_file
from tests.parsers.conftest import (
    Q2_2024_HTML,
    Q2_2024_TEXT,
    Q4_2023_HTML,
    Q4_2023_TEXT,
    Q4_2024_PDF,
    Q4_2024_TEXT,
    extraction,
)


def _values(path):  # type: ignore[no-untyped-def]
    return {f.key: f.value for f in extraction(path).facts}


class TestCrossFormat:
    def test_q4_2023_text_and_html_identical(self) -> None:
        assert _values(Q4_2023_TEXT) == _values(Q4_2023_HTML)

    def test_q4_2024_text_and_pdf_identical(self) -> None:
        assert _values(Q4_2024_TEXT) == _values(Q4_2024_PDF)

    def test_q2_2024_damaged_text_never_contradicts_html(self) -> None:
        text, html = _values(Q2_2024_TEXT), _values(Q2_2024_HTML)
        clashes = {k: (v, html[k]) for k, v in text.items() if k in html and html[k] != v}
        assert clashes == {}

    def test_q2_2024_damaged_text_still_yields_most_gaap_facts(self) -> None:
        text, html = _values(Q2_2024_TEXT), _values(Q2_2024_HTML)
        assert len(set(text) & set(html)) >= 0.8 * len(html)


def _as_pipes(text: str, edged: bool) -> str:
    """The seed's tab-separated tables as Markdown pipe rows, as HTML-to-text converters print
    tables ("| Revenue | 1,234 |" with a "|---|---|" rule under the first row, or without
    the outer pipes)."""
    out, first = [], True
    for line in text.splitlines():
        if "\t" not in line:
            out.append(line)
            first = True
            continue
        cells = line.split("\t")
        out.append(f"| {' | '.join(cells)} |" if edged else " | ".join(cells))
        if first:
            out.append("|" + "---|" * len(cells) if edged else "|".join(["---"] * len(cells)))
        first = False
    return "\n".join(out)


class TestPipeTables:
    """A release's text whose tables are pipe rows reads as its tab-separated text does."""

    @pytest.mark.parametrize("edged", [True, False], ids=["| a | b |", "a | b"])
    @pytest.mark.parametrize(
        "seed", [Q4_2023_TEXT, Q2_2024_TEXT, Q4_2024_TEXT], ids=lambda p: p.stem
    )
    def test_the_same_facts_and_guidance(self, seed: Path, edged: bool) -> None:
        tabbed = extraction(seed)
        piped = extract_file(seed.name, _as_pipes(seed.read_text(), edged).encode(), "QFIN")
        assert tabbed.facts and tabbed.guidance and tabbed.rows  # neither reading empty
        assert {f.key: f.value for f in piped.facts} == {f.key: f.value for f in tabbed.facts}
        assert piped.guidance == tabbed.guidance
        assert len(piped.refused) == len(tabbed.refused)
