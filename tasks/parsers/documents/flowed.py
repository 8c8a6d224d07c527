"""Flowed text -> laid-out text: a page whose words are all one space apart (a PDF's text
as ``pdfplumber``'s ``extract_text()`` or ``pdftotext`` without ``-layout`` give it, or as
copied from a viewer) keeps no column positions, so its statements are put back in columns.

A header line (only years, currencies, a NOTES word and parenthesised words such as
"(Unaudited)": "2014 2013", "NOTES HK$'000 HK$'000", "附註 千港元 千港元"; or full dates
after a label or none: "ASSETS November 2, 2024 February 3, 2024 (1) October 28, 2023")
opens columns: one per value it names, right-aligned, and a NOTES column before them. Each
later line's trailing figures ("(235,908)", "$293,618", "18.82", "–") fill the columns: one
figure more than the columns, a note reference ("3", "5a") first, goes to NOTES; a lone note
reference after a heading ("EARNINGS PER SHARE 7") too; figures beyond that belong to the
label ("IFRS 9"). Period phrases printed over the columns ("For the six months" / "ended
30 June", "As at As at" / "30 June 31 December", "Thirteen Weeks Ended Thirty-Nine Weeks
Ended" over four) go over them again. A line of fewer figures than columns stays as
printed: which columns they belong to is not in the text, and the row is refused
(``asreported``), never guessed. A line of as many figures as value columns under NOTES,
the first note-like, reads more than one way (a ``Choice``): ``best_reading`` lets the
statements' arithmetic choose. Everything else stays as printed, at the margin: titles
("FOR THE YEAR ENDED 31 DECEMBER 2014") and prose. The text then goes through the laid-out
text's table model.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_SYMBOL = re.compile(r"[$¥€£]|HK\$|US\$|RMB")  # a currency printed before its figure
# a figure as printed: "1,234", "(1,234)", "$301,958", "$(1,234)", "($1,234)", "12.5%", "–", nil
_FIGURE = re.compile(
    rf"(?:{_SYMBOL.pattern})?\(?[-+]?(?:{_SYMBOL.pattern})?(?:\d{{1,3}}(?:,\d{{3}})+|\d+)"
    r"(?:\.\d+)?\)?%?|[–—−_-]+|nil|Nil"
)
_NOTE_REF = re.compile(r"\d{1,2}[a-z]?(?:\([a-z]+\)|\.\d)?")
_YEAR = re.compile(r"(?:19|20)\d\d(?:年度?)?|[二〇零一三四五六七八九]{4}年度?")
_UNIT = re.compile(
    r"(?:HK|US|RMB|S|NT|A|C)?\$(?:['’]000|['’]m|m)?|(?:RMB|HKD|USD)(?:['’]000|['’]m)?"
    r"|[A-Z]{2,3}\$?['’]000|(?:人民[幣币]|港|美)?(?:千|百萬|百万)?(?:港)?元"
)
_NOTES = re.compile(r"notes?|附[註注](?:編號)?", re.IGNORECASE)
_REMARK = re.compile(r"[(（][^\d()（）]{2,20}[)）]")  # "(Unaudited)", "(Restated)", "（經審核）"
_MONTH = (
    r"(?:January|February|March|April|May|June|July|August|September|October|November|December)"
)
_DAY_MONTH = re.compile(rf"\d{{1,2}} {_MONTH}|{_MONTH} \d{{1,2}},?")
_PERIOD_WORDS = re.compile(
    rf"\b(?:ended|ending|months|weeks|year|period|as at|at)\b|{_MONTH}|截至|止|於|于",
    re.IGNORECASE,
)
_FULL_DATE = re.compile(rf"(?:{_MONTH} \d{{1,2}},? |\d{{1,2}} {_MONTH},? )(?:19|20)\d\d")
_MARK = re.compile(r"\(\d{1,2}\)|\*+")  # a footnote mark: "(1)", "*"
_ENDED = re.compile(
    rf"\S.*?\b(?:ended|ending)\b(?: {_MONTH} \d{{1,2}},?| \d{{1,2}} {_MONTH})?(?= |$)",
    re.IGNORECASE,
)
_YEAR_IN = re.compile(r"(?<!\d)(?:19|20)\d\d(?!\d)|[二〇零][〇零一二三四五六七八九]{3}")
_GAP = re.compile(r"\S {2,}\S")
_PROSE_WORDS = 10  # a label, a heading or a title is shorter when it prints a figure
_SLOT = 16  # characters per value column: the widest figure and two spaces


def is_flowed(page: str) -> bool:
    """True when no line of the page parts its words by more than one space, and some line
    ends in two figures (a statement row): nothing to read columns from."""
    lines = [line.strip() for line in page.splitlines()]
    if any(_GAP.search(line) for line in lines):
        return False
    return any(len(_trailing(_words(line))) >= 2 for line in lines)


def _words(line: str) -> list[str]:
    """The line's words, a currency symbol printed apart glued to its figure: "$ 301,958"
    (an EDGAR table's "$" cell as text) is one figure, "$301,958", as wire text prints it;
    a year after a currency is a header's ("RMB 2024"), left apart."""
    words: list[str] = []
    for word in line.split():
        if (
            words
            and _SYMBOL.fullmatch(words[-1])
            and _FIGURE.fullmatch(word)
            and not _YEAR.fullmatch(word)
        ):
            words[-1] += word
        else:
            words.append(word)
    return words


@dataclass(frozen=True, slots=True)
class Choice:
    """A relaid line the text lets read more than one way: "Other income 3 1,136" under
    NOTES 2014 2013 is two figures, or note 3 and one figure beside a blank cell (which one
    is not in the text). The arithmetic of the statement chooses (``best_reading``)."""

    page: int
    line: int
    others: tuple[str, ...]  # the other readings of the line, laid out


def relaid_pages(pages: list[str]) -> tuple[list[str], list[Choice]]:
    """The pages, the flowed ones laid out in columns right of the longest line of any of
    them (a table carried to the next page keeps its columns, clear of that page's prose),
    and the lines that read more than one way."""
    flowed = [is_flowed(page) for page in pages]
    widths = [
        len(" ".join(line.split()))
        for p, f in zip(pages, flowed, strict=True)
        if f
        for line in p.splitlines()
    ]
    margin = max(widths, default=0) + 4
    out, choices = [], []
    for number, (page, is_page_flowed) in enumerate(zip(pages, flowed, strict=True)):
        text, others = relaid(page, margin) if is_page_flowed else (page, {})
        out.append(text)
        choices += [Choice(number, line, options) for line, options in others.items()]
    return out, choices


def relaid(page: str, margin: int) -> tuple[str, dict[int, tuple[str, ...]]]:
    """The page with its statement lines laid out in columns (see the module's docstring),
    labels left of ``margin``, and the other readings of the lines that have some."""
    lines = [_words(line) for line in page.splitlines()]
    heads = _column_heads(lines)
    parts = [p for ps in heads.values() for p in ps] + [p for w in lines for p in _header_dates(w)]
    slot = max([_SLOT] + [len(part) + 2 for part in parts])
    out: list[str] = []
    others: dict[int, tuple[str, ...]] = {}
    columns, notes, wrapped = 0, False, False
    for number, words in enumerate(lines):
        if number in heads:
            out.append(" " * margin + "".join(p.rjust(slot) for p in ["", *heads[number]]))
            continue
        header = _header(words)
        if header is not None:
            named, has_notes = header
            if named >= 2:
                columns, notes = named, has_notes or (notes and named == columns)
            if columns and named:
                label, cells = _header_cells(words)
                out.append(_row(label, cells, columns, notes and has_notes, margin, slot))
                wrapped = False
                continue
        if columns:
            label, cells, noted = _split(words, columns, notes, wrapped)
            if cells:
                if notes and not noted and len(cells) == columns and _NOTE_REF.fullmatch(cells[0]):
                    others[len(out)] = _noted_readings(label, cells, margin, slot)
                out.append(_row(label, cells, columns, noted, margin, slot))
                wrapped = False
                continue
        # before the page's first header a sentence's figures would make columns of the table
        # carried from the page before; after it, a long line may be a label's first part
        out.append("" if not columns and _is_prose(words) else " ".join(words))
        wrapped = bool(columns and words)
    return "\n".join(out), others


def _header_cells(words: list[str]) -> tuple[list[str], list[str]]:
    """A header line's label (before its dates) and its cells, one per column."""
    dates = _header_dates(words)
    if not dates:
        return [], words
    return " ".join(words).split(dates[0])[0].split(), dates


def _is_prose(words: list[str]) -> bool:
    """A sentence with a figure in it ("... (“IAS”) 34 issued by the International ..."):
    no row (the running text keeps it)."""
    return len(words) >= _PROSE_WORDS and any(_FIGURE.fullmatch(w) for w in words)


def _column_heads(lines: list[list[str]]) -> dict[int, list[str]]:
    """The lines of a period phrase printed above a header line ("For the six months" /
    "ended 30 June", "As at As at" / "30 June 31 December"), each as its words over each
    value column: one part per column when the line repeats a phrase or names a date per
    column, else the whole line over every column (a phrase spanning them)."""
    heads: dict[int, list[str]] = {}
    for number, words in enumerate(lines):
        header = _header(words)
        if header is None or header[0] < 2:
            continue
        above = number - 1
        while above >= 0 and number - above <= 3 and _is_column_phrase(lines[above]):
            heads[above] = _per_column(lines[above], header[0])
            above -= 1
    return heads


def _is_column_phrase(words: list[str]) -> bool:
    """A short line of a period phrase and no year ("ended 30 June", "As at As at"): a year
    makes it a title ("For the six months ended 30 June 2014")."""
    text = " ".join(words)
    return (
        0 < len(words) <= 6
        and _PERIOD_WORDS.search(text) is not None
        and _YEAR_IN.search(text) is None
        and _header(words) is None
    )


def _per_column(words: list[str], columns: int) -> list[str]:
    """A phrase line over ``columns`` columns: a phrase repeated per column ("As at As at"),
    a date per column ("30 June 31 December"), phrases each spanning as many columns
    ("Three months ended December 31, Year ended December 31," over six), else the line
    spanning them all."""
    text = " ".join(words)
    if len(words) % columns == 0:
        size = len(words) // columns
        parts = [" ".join(words[i : i + size]) for i in range(0, len(words), size)]
        if len(set(parts)) == 1:
            return parts
    for found in (_DAY_MONTH.findall(text), _ENDED.findall(text)):
        if found and columns % len(found) == 0 and " ".join(found) == text:
            return [part for part in found for _ in range(columns // len(found))]
    return [text] * columns


def _header(words: list[str]) -> tuple[int, bool] | None:
    """(values named, whether a NOTES word leads) when the line is a header of columns."""
    if not words or not all(_is_header_word(w) for w in words):
        return _dated(words)
    has_notes = bool(_NOTES.fullmatch(words[0]))
    named = len(words) - has_notes
    if not any(_YEAR.fullmatch(w) or _UNIT.fullmatch(w) or _REMARK.fullmatch(w) for w in words):
        return None
    return named, has_notes


def _dated(words: list[str]) -> tuple[int, bool] | None:
    """A line of two full dates or more ("November 2, 2024 October 28, 2023", a footnote
    mark after one), after a label or none ("ASSETS"): a header of as many columns."""
    dates = _header_dates(words)
    return (len(dates), False) if len(dates) >= 2 else None


def _header_dates(words: list[str]) -> list[str]:
    """The dates of a dated header line, each with the footnote mark printed after it."""
    text = " ".join(words)
    found = list(_FULL_DATE.finditer(text))
    if len(found) < 2 or text[found[-1].end() :].strip():
        return []
    ends = [m.start() for m in found[1:]] + [len(text)]
    parts = [text[m.start() : end].strip() for m, end in zip(found, ends, strict=True)]
    between = [p[m.end() - m.start() :].strip() for p, m in zip(parts, found, strict=True)]
    return parts if all(not b or _MARK.fullmatch(b) for b in between) else []


def _is_header_word(word: str) -> bool:
    return any(p.fullmatch(word) for p in (_YEAR, _UNIT, _NOTES, _REMARK))


def _trailing(words: list[str]) -> list[str]:
    """The figures the line ends with."""
    count = 0
    while count < len(words) and _FIGURE.fullmatch(words[len(words) - 1 - count]):
        count += 1
    return words[len(words) - count :]


def _split(
    words: list[str], columns: int, notes: bool, wrapped: bool = False
) -> tuple[list[str], list[str], bool]:
    """(label words, cells from the NOTES column or the first value column on, whether the
    first cell is a note reference); no cells when the line is no row of the columns.
    ``wrapped``: the line continues a label begun above (its part here may have no letter:
    "... shares at October" / "28, 2023 508 504 504")."""
    figures = _trailing(words)
    noted = notes and len(figures) > columns and bool(_NOTE_REF.fullmatch(figures[-columns - 1]))
    take = min(len(figures), columns + noted)
    if take == 0:
        return words, [], False
    if take == 1 and notes and len(words) > 1 and _NOTE_REF.fullmatch(figures[-1]):
        return words[:-1], figures[-1:], True  # a heading's note reference
    cells, label = figures[len(figures) - take :], words[: len(words) - take]
    if not (_is_label(label, cells) or wrapped and _continues(label)):
        return words, [], False  # a page number, "– 2 –"
    if take < columns + noted:
        # which columns they stand in is not printed (the USD column left empty, or the
        # prior year's?): left as printed, the row is refused, not guessed (a sentence
        # ending in a year, a figure ending a label, likewise stay as they are)
        return words, [], False
    return label, cells, noted


def _is_label(label: list[str], cells: list[str]) -> bool:
    """Words with a letter, or none before a full row of figures (a total printed alone)."""
    if label:
        return any(ch.isalpha() for word in label for ch in word)
    return all(any(ch.isdigit() for ch in cell) for cell in cells)


def _continues(label: list[str]) -> bool:
    """A wrapped label's last part without a letter ("28, 2023"): not figures alone (one more
    figure than the columns is refused, not read as a label) nor a page's "– 2 –"."""
    return any(not _FIGURE.fullmatch(w) and any(ch.isdigit() for ch in w) for w in label)


def _row(
    label: list[str], cells: list[str], columns: int, noted: bool, margin: int, slot: int
) -> str:
    """The label at the margin, the cells right-aligned in their columns (the note in the
    NOTES column, just before the first value column)."""
    slots = [""] * (columns + 1)
    values = cells[1:] if noted else cells
    if noted:
        slots[0] = cells[0]
    for i, cell in enumerate(values):
        slots[columns + 1 - len(values) + i] = cell
    return _laid(label, slots, margin, slot)


def _noted_readings(label: list[str], cells: list[str], margin: int, slot: int) -> tuple[str, ...]:
    """A row of as many figures as value columns, the first of them note-like: read as that
    note and the other figures with one value cell blank, each cell in turn."""
    note, values = cells[0], cells[1:]
    readings = []
    for blank in range(len(cells)):
        placed = values[:blank] + [""] + values[blank:]
        readings.append(_laid(label, [note, *placed], margin, slot))
    return tuple(readings)


def _laid(label: list[str], slots: list[str], margin: int, slot: int) -> str:
    """The label at the margin, then each slot's text right-aligned in its column."""
    text = " ".join(label).ljust(margin)
    return text + "".join(cell.rjust(slot) for cell in slots).rstrip()
