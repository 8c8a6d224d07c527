"""Where a narrative figure stands in its document: the PDF page, and the note its words carry
when that note says the figure was restated.

A results release marks a term with a footnote ("loan volume^{*4}", "loan volume\\n*4\\n" in a
PDF's text layer, "loan volume*4") and prints the note at the foot of the section: "4 Refers to
the total principal amount ... Retrospectively excluding the impact of discontinued service,
...". A note that restates (retrospectively, restated, recast, reclassified, to conform) is the
reason an analyst needs beside a changed figure: its sentences that say so become the
``note`` of every narrative fact read under the marked term. Pure: text in, facts out.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from domain.records import Fact
from tasks.parsers.documents.running_text import clean

# a note: its number at the start of a line, then its text up to a blank line or the next note
_NOTE = re.compile(
    r"^[ \t]*\(?(?P<n>\d{1,2})\)?[ \t]+(?P<text>[A-Z“\"].*"
    r"(?:\n(?![ \t]*\(?\d{1,2}\)?[ \t]+[A-Z“\"])(?![ \t]*\n).+)*)",
    re.M,
)
_RESTATES = re.compile(
    r"\b(?:retrospectiv\w*|restate\w*|recast|reclassifi\w*|conform to the current)", re.I
)
_SENTENCE = re.compile(r"[^.]*\.")
_NOT_TERM = re.compile(r".*\d.*|million|billion|was|were|reached|approximately", re.I)
_TERM_WORDS = 8  # words before a marker that name the term it marks


def restating_notes(prose: str) -> dict[str, str]:
    """Note number -> the sentences of that note that say a figure was restated."""
    found: dict[str, str] = {}
    for match in _NOTE.finditer(prose):
        text = " ".join(match["text"].split())
        said = " ".join(s.strip() for s in _SENTENCE.findall(text) if _RESTATES.search(s))
        if said and match["n"] not in found:
            found[match["n"]] = said
    return found


def marked_terms(prose: str, notes: dict[str, str]) -> list[tuple[str, str]]:
    """(the words a marker follows, its note) for each marker of a restating note."""
    terms = []
    for number, note in notes.items():
        # the marks running_text.clean removes: "volume^{*4}", "volume\n*4\n", "volume*4"
        for mark in re.finditer(rf"\^\{{\*?{number}\}}|\s*\*+{number}\b", prose):
            before = clean(prose[max(0, mark.start() - 200) : mark.start()]).split()
            while before and _NOT_TERM.fullmatch(before[-1]):
                before.pop()  # a mark after the figure ("reached RMB95,425 million*4")
            if before:
                terms.append((" ".join(before[-_TERM_WORDS:]), note))
    return terms


def page_texts(prose: str, pages: Sequence[tuple[int, int]]) -> list[tuple[int, str]]:
    """Each page's running text, cleaned (``pages``: number, offset of its text in ``prose``)."""
    ends = [offset for _, offset in pages[1:]] + [len(prose)] if pages else []
    return [(n, clean(prose[o:e])) for (n, o), e in zip(pages, ends, strict=True)]


def page_of(texts: Sequence[tuple[int, str]], fact: Fact) -> int | None:
    """The page whose text holds the fact's figure and the words after it; None when no one
    page does (a sentence broken across two, or a document without pages)."""
    p = fact.provenance
    # the words after the figure follow it past a comma or bracket ("million, an increase")
    needle = re.compile(re.escape(p.raw_text) + r"\W{0,3}" + re.escape(p.column.strip()))
    return next((number for number, text in texts if needle.search(text)), None)


def annotate(facts: Sequence[Fact], prose: str, pages: Sequence[tuple[int, int]]) -> list[Fact]:
    """The narrative facts, each with its page in the locator when one page holds it ("page 3,
    narrative: ...") and the restating note of the term it was read under ("" for none)."""
    terms = marked_terms(prose, restating_notes(prose))
    texts = page_texts(prose, pages)
    out = []
    for fact in facts:
        label = " ".join(fact.provenance.row_label.split())
        note = next((n for term, n in terms if _same_term(term, label)), "")
        page = page_of(texts, fact)
        where = fact.provenance.locator
        if page is not None:
            where = f"page {page}, {where}"
        out.append(replace(fact, note=note, provenance=replace(fact.provenance, locator=where)))
    return out


def _same_term(term: str, label: str) -> bool:
    """The label reads the marked term: the term's last words stand together in it, and it
    starts within the term ("Total facilitation and origination loan volume" marks "Total
    facilitation and origination loan volume reached", not "such loan volume was")."""
    words, said = term.split(), label.split()
    tail = words[-3:]
    if not said or said[0] not in words:
        return False
    return any(said[i : i + len(tail)] == tail for i in range(len(said) - len(tail) + 1))
