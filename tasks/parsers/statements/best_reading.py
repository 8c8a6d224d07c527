"""When a text reads more than one way, the reading whose arithmetic holds wins.

Flowed text (``flowed``) keeps no column positions: a row printing as many figures as the
table has value columns, the first of them note-like ("Other income 3 1,136" under NOTES
2014 2013), is two figures, or a note and one figure beside a blank cell. The first reading
is taken unless some total of the statements is then not equal to its rows
(``domain/arithmetic``): each other reading of each such line is tried in turn, and kept
when fewer totals disagree (then when more are proved). A statement no reading proves goes
on to the gate, which quarantines it.
"""

from __future__ import annotations

from collections.abc import Callable

from domain.arithmetic import columns, prove
from tasks.parsers.documents.flowed import Choice
from tasks.parsers.documents.raw_tables import ParsedDocument
from tasks.parsers.statements.asreported import read_rows

Build = Callable[[list[str]], ParsedDocument]


def chosen(pages: list[str], choices: list[Choice], build: Build) -> ParsedDocument:
    """The document built from ``pages``, each line of ``choices`` read the way that makes
    its statements agree with their totals best."""
    current = list(pages)
    best = build(current)
    if not choices:
        return best
    score = _score(best)
    for choice in choices:
        for option in choice.others:
            if score[0] == 0:
                return best
            trial = _with_line(current, choice, option)
            document = build(trial)
            found = _score(document)
            if found < score:
                current, best, score = trial, document, found
    return best


def _score(document: ParsedDocument) -> tuple[int, int]:
    """(totals not equal to their rows, minus totals proved) over the document's statements:
    lower is better. Every unproved total counts, judged or not: a misread row can leave a
    column too broken to be judged."""
    wrong = proved = 0
    for key, lines in columns(read_rows(document, "").rows).items():
        proof = prove(lines, key.startswith("balance"))
        wrong += proof.unproved
        proved += proof.proved
    return wrong, -proved


def _with_line(pages: list[str], choice: Choice, option: str) -> list[str]:
    lines = pages[choice.page].split("\n")
    lines[choice.line] = option
    return [*pages[: choice.page], "\n".join(lines), *pages[choice.page + 1 :]]
