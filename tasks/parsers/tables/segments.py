"""Row-level reading of a RawTable: header/body segments, labels and their footnote marks.

A table may hold several stacked sub-tables (a new header group after data rows: the "Year
ended" half of a statement).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from tasks.parsers.documents.numbers import CellKind, is_year, parse_cell
from tasks.parsers.documents.raw_tables import Row
from tasks.parsers.tables.headers import header_lines

# footnote marks after a label: "(1)", "(a)", "*", "*7", "(Note ii)", superscript digits
_MARKS = re.compile(
    r"(?:\s*(?:\(\d{1,2}\)|\([a-z]\)|\(note [ivx\d]+\)|\*+\d*|[¹²³⁴-⁹⁰]+|\^\{\*?\d+\})"
    r"|(?<=[a-z]{2})\d{1,2})+$",  # the last: a superscript a PDF's text glued to the word
    re.IGNORECASE,
)
_HEADER_WORDS = re.compile(
    r"\b(months?|ended|RMB|USD|IFRSs?|as of|january|february|march|april|may|june|july|"
    r"august|september|october|november|december)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Segment:
    """One header group and the body rows under it."""

    header: tuple[Row, ...]
    body: tuple[Row, ...]


def has_values(row: Row) -> bool:
    """True when some value cell is a number or a nil mark (years excluded)."""
    kinds = [parse_cell(c).kind for c in row[1:] if not is_year(c)]
    return any(k in (CellKind.NUMBER, CellKind.NIL) for k in kinds)


def unplaced_figures(text: str) -> bool:
    """A line of no value cells ending in two figures or more (not years): a row whose
    columns the text does not show (flowed text printing fewer figures than columns)."""
    words = text.split()
    count = 0
    while count < len(words) and _is_figure(words[-1 - count]):
        count += 1
    return count >= 2


def _is_figure(word: str) -> bool:
    return parse_cell(word).kind is CellKind.NUMBER and not is_year(word)


def has_numbers(row: Row) -> bool:
    """True when some value cell is a figure (years and nil marks excluded)."""
    return any(parse_cell(c).kind is CellKind.NUMBER for c in row[1:] if not is_year(c))


def segments(rows: tuple[Row, ...]) -> Iterator[Segment]:
    """Split a table into header groups and their bodies."""
    header: list[Row] = []
    body: list[Row] = []
    for row in rows:
        text_only = (any(row[1:]) or _label_header(row)) and not has_numbers(row)
        started = any(has_numbers(r) for r in body)
        if text_only and (not started or _looks_like_header(row)):
            if started:
                yield Segment(tuple(header), tuple(body))
                header, body = [], []
            header.append(row)
        else:
            body.append(row)
    if header or body:
        yield Segment(tuple(header), tuple(body))


def _label_header(row: Row) -> bool:
    """A header printed whole in the label column ("December 31, 2023 December 31, 2024")."""
    return bool(row[0]) and not any(row[1:]) and bool(header_lines((row[0],)))


def clean_label(text: str) -> str:
    """A label as printed without its footnote marks ("Total assets (1)", "Net income*")."""
    return _MARKS.sub("", text).strip()


def _looks_like_header(row: Row) -> bool:
    cells = [c for c in row[1:] if c]
    return all(is_year(c) for c in cells) or _HEADER_WORDS.search(" ".join(row)) is not None
