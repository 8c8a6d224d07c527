"""Row-level reading of a RawTable: header/body segments, labels, sub-section context.

A table may hold several stacked sub-tables (a new header group after data rows: the "Year
ended" half of a statement). Labels wrapped over two rows are joined when the second part
starts in lower case, or when only the joined label is known to the catalog.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from tasks.parsers.catalog import Section, normalize_label
from tasks.parsers.headers import header_lines
from tasks.parsers.numbers import CellKind, is_year, parse_cell
from tasks.parsers.tables import Row

IGNORED = "<ignored>"
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


@dataclass(frozen=True, slots=True)
class BodyRow:
    """A body row with values, its label joined and its sub-section context resolved."""

    label: str  # as printed (wrapped parts joined with a space)
    context: str | None
    cells: Row  # value cells, row[1:]


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


def body_rows(body: tuple[Row, ...], section: Section) -> Iterator[BodyRow]:
    """Yield the rows that carry values, with wrapped labels joined and context tracked."""
    pending: str | None = None
    context: str | None = None
    for row in body:
        if not has_values(row) and not any(_damaged(c) for c in row[1:]):
            pending = clean_label(" ".join(c for c in row if c))  # heading, or a wrapped label
            context = context_of(section, pending) or context
            continue
        label = clean_label(row[0])
        if pending and label and should_join(pending, label, section, context):
            label = f"{pending} {label}"
        pending = None
        context = context_of(section, label) or context
        yield BodyRow(label, context, row[1:])


def _damaged(cell: str) -> bool:
    return parse_cell(cell).kind is CellKind.DAMAGED


def context_of(section: Section, label: str) -> str | None:
    """The sub-section a heading opens, if the catalog declares it."""
    norm = normalize_label(label)
    return next((c for c in section.contexts if norm.startswith(c)), None)


def should_join(first: str, second: str, section: Section, context: str | None) -> bool:
    """Whether ``second`` continues the label begun by the value-less row ``first``."""
    if second[:1].islower():
        return True
    joined = lookup(section, f"{first} {second}", context)
    return joined is not None and lookup(section, second, context) is None


def lookup(section: Section, label: str, context: str | None) -> str | None:
    """Metric id for a label, IGNORED for a known non-metric row, None when never seen."""
    norm = normalize_label(label)
    if context and f"{context} > {norm}" in section.labels:
        return section.labels[f"{context} > {norm}"]
    if norm in section.labels:
        return section.labels[norm]
    return IGNORED if norm in section.ignored else None
