"""The text, HTML and PDF renderings of one disclosure must agree on every statement fact."""

from __future__ import annotations

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
