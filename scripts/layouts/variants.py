"""Layout variants of a seed text: the same statements and outlook, laid out the ways real
releases lay them out (issue #13). Each variant is a function seed text -> seed text; the
renderer (render.py) then draws it as text, EDGAR HTML and PDF. A variant changes layout only:
every figure, label and period the golden file names stays printed.

``PAGE_BREAK`` is a paragraph of its own: a page number in text and HTML, a new page in PDF.
"""

from __future__ import annotations

import re
from collections.abc import Callable

PAGE_BREAK = "[[page break]]"
Variant = Callable[[str], str]

_BALANCE = "Unaudited Condensed Consolidated Balance Sheets"
_OPERATIONS = "Unaudited Condensed Consolidated Statements of Operations"
_DAY = r"([A-Z][a-z]+ \d{1,2}), (\d{4})"  # "December 31, 2023": month and day, year
_DATES3 = re.compile(rf"^\t{_DAY}\t{_DAY}\t{_DAY}$", re.M)
_YEARS = re.compile(r"^\t((?:(?:19|20)\d{2}\t?)+)$", re.M)
_MONEY = re.compile(r"^\t((?:(?:RMB|USD)\t?)+)$", re.M)
_GROUPS = re.compile(r"^\t(Three months ended [^\t]+)\t\t\t(Year ended [^\t]+)\t\t$", re.M)
_AMOUNTS = re.compile(r"^\(Amounts in thousands[^\n]*\n(?:except[^\n]*\n)?", re.M)
_OUTLOOK = re.compile(r"(between RMB[\d.]+ (?:billion|million) and) (RMB)")


def _table(text: str, title: str) -> tuple[int, int]:
    """Start and end of the tab lines of the statement titled ``title``."""
    start = text.index(title)
    first = text.index("\n\t", start) + 1
    end = first
    for line in text[first:].split("\n"):
        if "\t" not in line:
            break
        end += len(line) + 1
    return first, end


def _in_table(title: str, edit: Callable[[str], str]) -> Variant:
    def variant(text: str) -> str:
        start, end = _table(text, title)
        return text[:start] + edit(text[start:end]) + text[end:]

    return variant


def baseline(text: str) -> str:
    return text


def _periods_one_line(block: str) -> str:
    """ "December 31, December 31, December 31," / "2023 2024 2024" / "RMB RMB USD"."""

    def dates(m: re.Match[str]) -> str:
        return f"\t{m[1]}, {m[3]}, {m[5]},\t\t\n\t{m[2]} {m[4]} {m[6]}\t\t"

    block = _DATES3.sub(dates, block, count=1)
    return _MONEY.sub(lambda m: "\t" + " ".join(m[1].split("\t")) + "\t\t", block, count=1)


def _header_in_label(block: str) -> str:
    """The whole header in the label column: one line of dates, one of currencies."""
    block = _DATES3.sub(
        lambda m: f"{m[1]}, {m[2]} {m[3]}, {m[4]} {m[5]}, {m[6]}\t\t\t", block, count=1
    )
    return _MONEY.sub(lambda m: " ".join(m[1].split("\t")) + "\t\t\t", block, count=1)


def _years_one_line(block: str) -> str:
    """ "2023 2024 2024 2023 2024 2024" and "RMB RMB USD RMB RMB USD" in one cell each."""

    def one(m: re.Match[str]) -> str:
        cells = m[1].strip("\t").split("\t")
        return "\t" + " ".join(cells) + "\t" * (len(cells) - 1)

    return _MONEY.sub(one, _YEARS.sub(one, block, count=1), count=1)


def _groups_one_line(block: str) -> str:
    return _GROUPS.sub(lambda m: f"\t{m[1]} {m[2]}\t\t\t\t\t", block, count=1)


def _label_marks(block: str) -> str:
    """Footnote marks on labels: "(1)", a star, a superscript."""
    marks = iter([" (1)", "*", "¹"] * 100)
    out = []
    for line in block.split("\n"):
        label, sep, rest = line.partition("\t")
        if label and re.search(r"\d", rest):
            label += next(marks)
        out.append(label + sep + rest)
    return "\n".join(out)


def _nil_swapped(text: str) -> str:
    """The other nil mark: "—" where the seed prints "-", and "-" where it prints "—"."""
    swap = {"—": "-", "-": "—"}
    return re.sub(r"(?<=\t)[—-](?=\t|$)", lambda m: swap[m[0]], text, flags=re.M)


def _scale_in_header(text: str) -> str:
    """No "(Amounts in thousands ...)" title line: "RMB'000" in the header's label cell."""
    while (found := _AMOUNTS.search(text)) is not None:
        first = text.index("\n\t", found.end() - 1) + 1
        text = text[: found.start()] + text[found.end() : first] + "RMB'000" + text[first:]
    return text


def _continued(repeat_header: bool) -> Variant:
    def variant(text: str) -> str:
        start, end = _table(text, _BALANCE)
        lines = text[start:end].rstrip("\n").split("\n")
        cut = next(i for i, ln in enumerate(lines) if ln.lower().startswith("total current assets"))
        header = [ln for ln in lines[:4] if not re.search(r"\t[\d(]", ln) and ln.startswith("\t")]
        if repeat_header:
            title = f"{_BALANCE} (continued)\n(Amounts in thousands of Renminbi)"
            middle = f"\n{title}\n\n" + "\n".join(header)
        else:
            middle = f"\n{PAGE_BREAK}\n"
        first, second = "\n".join(lines[: cut + 1]), "\n".join(lines[cut + 1 :])
        return text[:start] + first + "\n" + middle + "\n" + second + "\n" + text[end:]

    return variant


def _wrapped(block: str) -> str:
    """Long labels over two lines, the second in lower case."""
    out = []
    for line in block.split("\n"):
        label, sep, rest = line.partition("\t")
        words = label.split(" ")
        cut = next((i for i in range(3, len(words)) if words[i][:1].islower()), None)
        if len(label) > 40 and cut is not None and re.search(r"\d", rest):
            out.append(" ".join(words[:cut]) + "\t" * (rest.count("\t") + 1))
            label = " ".join(words[cut:])
        out.append(label + sep + rest)
    return "\n".join(out)


def _usd_first(block: str) -> str:
    """The USD convenience column printed first."""
    out = []
    for line in block.split("\n"):
        cells = line.split("\t")
        if len(cells) == 4:
            cells = [cells[0], cells[3], cells[1], cells[2]]
        out.append("\t".join(cells))
    return "\n".join(out)


def _outlook_page_break(text: str) -> str:
    return _OUTLOOK.sub(lambda m: f"{m[1]}\n\n{PAGE_BREAK}\n\n{m[2]}", text, count=1)


def _outlook_glued_marks(text: str) -> str:
    return re.sub(r"\^\{(\*?\d+)\}", r"\1", text)


VARIANTS: dict[str, Variant] = {
    "baseline": baseline,
    "balance periods on one line": _in_table(_BALANCE, _periods_one_line),
    "balance header in the label column": _in_table(_BALANCE, _header_in_label),
    "operations years on one line": _in_table(_OPERATIONS, _years_one_line),
    "operations groups on one line": _in_table(_OPERATIONS, _groups_one_line),
    "footnote marks on labels": _in_table(_OPERATIONS, _label_marks),
    "the other nil mark": _nil_swapped,
    "scale in the header": _scale_in_header,
    "continued without header": _continued(False),
    "continued with header": _continued(True),
    "wrapped labels": _in_table(_OPERATIONS, _wrapped),
    "USD column first": _in_table(_BALANCE, _usd_first),
    "outlook across a page break": _outlook_page_break,
    "footnote marks glued to words": _outlook_glued_marks,
}
