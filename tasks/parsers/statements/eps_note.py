"""The earnings-per-share note read: what each period's EPS is computed on.

An HKFRS income statement prints its EPS without the shares; its note ("7. EARNINGS PER
SHARE", "9. 每股盈利") prints the weighted average number of shares for basic and for
diluted EPS and the earnings each is of, one column per year, or says it in a sentence ("on
281,000,000 shares in issue during both periods"). Read from the document's text lines in
reading order: a line's trailing figures are its columns, the words before them (and the
figure-less lines above) its label; a line of years heads the columns, a line of units
("RMB'000", "'000", "千股") gives the scale of the rows under it. :func:`bases_for` gives each
EPS figure of the statement the note's basis of its year (domain/pershare proves it).

Pure: text in, frozen records out.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal

from domain.enums import Origin
from domain.pershare import EPS_SHARES, PROFIT, Dilution, PerShareBasis
from domain.precision import half_unit
from domain.records import Fact
from tasks.parsers.documents.numbers import CellKind, parse_cell
from tasks.parsers.documents.zh import englished, has_han

_HEADING = re.compile(
    r"^\s*(\d{1,2})\.?\s+((?:basic and diluted )?(?:earnings|\(?loss\)?)[/()a-z]*\s+per\s+share"
    r"|每股(?:基本及攤薄|基本及摊薄)?(?:盈利|虧損|亏损|收益)(?:[╱/][（(]?(?:虧損|亏损)[)）]?)?)\s*$",
    re.IGNORECASE,
)
# a figure printed against its label ("已發行普通股加權平均數20,047,139,447")
_GLUED = re.compile(r"([^\s\d,.(（\-–])(\(?\d{1,3}(?:,\d{3})+(?:\.\d+)?\)?)(?=\s|$)")
_NEXT_NOTE = re.compile(r"^\s*\d{1,2}\.?\s+[A-Z\u3400-\u9fff]")
_MAX_LINES = 60  # a note longer than this is not an EPS note's table
_UNITS = re.compile(
    r"^(?:(?:RMB|HK\$|US\$|港幣|港币|人民幣|人民币)?['’]000|千股|[^\d]{0,4}千元|千港元|千美元)$"
)
_CURRENCY = re.compile(r"RMB|HK\$|US\$|元")
_SENTENCE = re.compile(
    r"\b(?:on|of)\s+(?:the\s+)?(?:weighted\s+average\s+number\s+of\s+)?"
    r"([1-9]\d{0,2}(?:,\d{3})+)\s+(?:ordinary\s+)?shares\s+in\s+issue\s+during\s+both\s+"
    r"(?:periods|years)",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class NoteFigure:
    """One figure of the note: the shares (or the earnings) of one year's basic or diluted EPS
    (``year`` None: every period the note speaks of)."""

    year: int | None
    dilution: Dilution
    what: str  # "shares" or "earnings"
    value: Decimal  # whole units
    decimals: int
    source: str  # "note 7 'EARNINGS PER SHARE': 'Weighted average number of ...'"


def read_eps_note(text: str) -> tuple[NoteFigure, ...]:
    """The note's figures: from its lines of figures, else from its sentence; () without one."""
    sentence: tuple[NoteFigure, ...] = ()
    for note, lines in _notes(text):
        figures = tuple(_table_figures(note, lines))
        if figures:
            return figures
        sentence = sentence or tuple(_sentence_figures(note, lines))
    return sentence


def bases_for(figures: Sequence[NoteFigure], facts: Sequence[Fact]) -> tuple[PerShareBasis, ...]:
    """Each statement EPS figure's basis from the note (its year's shares, and earnings where
    printed); none where two EPS figures of one metric end in the same year (which is whose?)."""
    eps_metric = {metric: d for d, (metric, _) in EPS_SHARES.items()}
    eps = [f for f in facts if f.metric in eps_metric and f.origin == Origin.TABLE]
    out = []
    for fact in eps:
        year, dilution = fact.period_end.year, eps_metric[fact.metric]
        if sum(1 for f in eps if (f.metric, f.period_end.year) == (fact.metric, year)) > 1:
            continue
        shares = _pick(figures, year, dilution, "shares")
        if shares is None:
            continue
        earnings = _pick(figures, year, dilution, "earnings")
        if not _ties_to_profit(_pick(figures, year, Dilution.BASIC, "earnings"), fact, facts):
            earnings = None  # read at another scale, or another profit: the statement's is used
        out.append(PerShareBasis(
            fact.period_start, fact.period_end, str(fact.basis), dilution, shares.value,
            shares.decimals, earnings.value if earnings else None,
            earnings.decimals if earnings else 0, shares.source,
        ))  # fmt: skip
    return tuple(dict.fromkeys(out))


def _ties_to_profit(basic: NoteFigure | None, eps: Fact, facts: Sequence[Fact]) -> bool:
    """The note's basic earnings are the statement's attributable profit of the period, to
    the coarser rounding (none printed, or no such profit: nothing to tie)."""
    if basic is None:
        return True
    period = (eps.period_start, eps.period_end, eps.basis)
    profit = next(
        (f for m in PROFIT for f in facts
         if f.metric == m and (f.period_start, f.period_end, f.basis) == period),
        None,
    )  # fmt: skip
    if profit is None:
        return False
    slack = half_unit(min(basic.decimals, profit.decimals)) * 2
    return abs(basic.value - profit.value) <= slack


def _pick(
    figures: Sequence[NoteFigure], year: int, dilution: Dilution, what: str
) -> NoteFigure | None:
    return next(
        (f for f in figures
         if f.what == what and f.dilution == dilution and f.year in (year, None)),
        None,
    )  # fmt: skip


def _notes(text: str) -> Iterator[tuple[str, list[str]]]:
    """Each EPS note heading's name and the lines under it, up to the next note."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        match = _HEADING.match(_despaced(line))
        if match is None:
            continue
        body = []
        for nxt in lines[i + 1 : i + 1 + _MAX_LINES]:
            if _NEXT_NOTE.match(_despaced(nxt)) and not _figures(_despaced(nxt))[1]:
                break
            body.append(nxt)
        yield f"note {match[1]} {match[2]!r}", body


def _table_figures(note: str, lines: Sequence[str]) -> Iterator[NoteFigure]:
    years: list[int] = []
    scale = {"money": 0, "shares": 0}
    pending: list[str] = []
    both = any(_says_both(line) for line in lines[:3])
    found: list[NoteFigure] = []
    for raw in lines:
        line = _despaced(raw)
        label, cells = _figures(line)
        if not cells:
            if _years(line) or _unit(line):  # a header: the rows under it start afresh
                years, scale, pending = _years(line) or years, _unit(line) or scale, []
            else:
                pending.append(label)
            continue
        label, pending = " ".join([*pending, label]).strip(), []
        if len(cells) == len(years):
            found += _row(note, label, cells, years, scale)
    yield from found
    if both and not any(f.dilution == Dilution.DILUTED and f.what == "shares" for f in found):
        yield from (replace(f, dilution=Dilution.DILUTED) for f in found if f.what == "shares")


def _row(
    note: str, label: str, cells: Sequence[str], years: Sequence[int], scale: dict[str, int]
) -> list[NoteFigure]:
    """A row's figures when its label names the weighted shares or the earnings of an EPS."""
    low = label.lower()
    shares = "weighted average" in low or "加權平均" in low or "加权平均" in low
    earnings = not shares and bool(
        re.search(r"earnings\b.*\bpurposes? of\b", low) or re.search(r"計算每股.*盈利之.*盈利", low)
    )
    if not (shares or earnings):
        return []
    what = "shares" if shares else "earnings"
    power = scale["shares" if shares else "money"]
    source = f"{note}: {label[:80]!r}"
    out = []
    for cell, year in zip(cells, years, strict=True):
        parsed = parse_cell(cell)
        if parsed.value is None:
            continue
        value = parsed.value * Decimal(10) ** power
        for dilution in _dilutions(low):
            out.append(NoteFigure(year, dilution, what, value, parsed.frac_digits - power, source))
    return out


def _dilutions(low: str) -> tuple[Dilution, ...]:
    if _says_both(low):
        return (Dilution.BASIC, Dilution.DILUTED)
    if "dilut" in low or "攤薄" in low or "摊薄" in low:
        return (Dilution.DILUTED,)
    return (Dilution.BASIC,)


def _says_both(text: str) -> bool:
    return bool(re.search(r"basic and diluted|基本及攤薄|基本及摊薄", text, re.IGNORECASE))


def _sentence_figures(note: str, lines: Sequence[str]) -> Iterator[NoteFigure]:
    """ "... on 281,000,000 shares in issue during both periods": basic (and diluted where
    the note says both) for every period."""
    text = " ".join(" ".join(lines[:8]).split())
    match = _SENTENCE.search(text)
    if match is None:
        return
    value = Decimal(match[1].replace(",", ""))
    for dilution in _dilutions(text[: match.start()].lower()):
        yield NoteFigure(None, dilution, "shares", value, 0, f"{note}: {match[0]!r}")


def _figures(line: str) -> tuple[str, list[str]]:
    """A line's label and its trailing figures (nil marks count: "887 –")."""
    tokens = line.split()
    cells: list[str] = []
    while tokens and parse_cell(tokens[-1]).kind in (CellKind.NUMBER, CellKind.NIL):
        cells.insert(0, tokens.pop())
    if not any(parse_cell(c).kind == CellKind.NUMBER for c in cells):
        return line.strip(), []
    return " ".join(tokens), cells


def _years(line: str) -> list[int]:
    tokens = englished(line).split() if has_han(line) else line.split()
    if tokens and all(re.fullmatch(r"(?:19|20)\d{2}", t) for t in tokens):
        return [int(t) for t in tokens]
    return []


def _unit(line: str) -> dict[str, int]:
    """ "RMB'000 RMB'000" -> money in thousands, shares as printed; "'000" / "千股" -> shares
    in thousands (and money, in a note that prints its earnings above without a unit)."""
    line = re.sub(r"(RMB|HK\$|US\$)\s+(?=['’]000)", r"\1", line)  # "HK$ ’000" (pdftotext)
    tokens = line.split() if " " in line else _halves(line)
    if not tokens or not all(_UNITS.match(t) for t in tokens):
        return {}
    if _CURRENCY.search(line):
        return {"money": 3, "shares": 0}
    return {"money": 3, "shares": 3}


def _halves(line: str) -> list[str]:
    """A despaced unit line printed twice ("千港元千港元") as its two columns."""
    half = len(line) // 2
    return [line[:half], line[half:]] if line[:half] == line[half:] else [line]


def _despaced(line: str) -> str:
    """Chinese printed with a space between characters ("每 股 盈 利") joined again, a figure
    glued to its label set apart."""
    line = re.sub(r"(?<=[^\x00-\x7f])\s+(?=[^\x00-\x7f])", "", line)
    return _GLUED.sub(r"\1 \2", line).strip()
