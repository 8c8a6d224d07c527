"""Split a seed text into paragraphs, bullets, headings and tab-separated tables."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

NIL_MARKS = {"-", "—", "_", "–"}
NUM_RE = re.compile(r"^\(?-?\d[\d,]*(\.\d+)?%?\)?$")


@dataclass
class Row:
    """One table row: ``head`` rows are column headers, ``body`` rows carry a label and values."""

    kind: str  # "head" | "body"
    cells: list[str]


@dataclass
class Table:
    """A statement table and the title paragraph(s) printed above it."""

    title: list[str]
    rows: list[Row] = field(default_factory=list)

    @property
    def ncols(self) -> int:
        """Number of value columns (the label column excluded)."""
        return max(len(r.cells) for r in self.rows) - 1


@dataclass
class Para:
    """A narrative block: ``p``, ``heading`` or ``bullet``."""

    kind: str
    text: str


Block = Para | Table


def split_table_title(lines: list[str]) -> list[str]:
    """Title lines as separate paragraphs: the name, then the '(Amounts in ...)' note."""
    joined = " ".join(s.strip() for s in lines)
    idx = joined.find(" (Amounts")
    if idx > 0:
        return [joined[:idx], joined[idx + 1 :]]
    return [joined]


def _is_head(cells: list[str], band_has_body: bool) -> bool:
    """A header line has no label; values are period names, years or currencies."""
    values = [c.strip() for c in cells[1:] if c.strip()]
    if cells[0].strip():
        # a captioned column-title row ("Condensed Consolidated Balance Sheet | Amounts as ...")
        return not band_has_body and bool(values) and not any(_numeric(v) for v in values)
    if not band_has_body:
        return True
    return bool(values) and not any(_numeric(v) and "," in v for v in values)


def _numeric(value: str) -> bool:
    return bool(NUM_RE.match(value.replace(" ", ""))) or value in NIL_MARKS


def parse_table(lines: list[str], title: list[str]) -> Table:
    """Rows of a tab-separated block; the column count is the widest row's."""
    table = Table(title=title)
    width = max(len(line.split("\t")) for line in lines)
    has_body = False
    for line in lines:
        cells = [c.strip() for c in line.split("\t")]
        cells += [""] * (width - len(cells))
        if _is_head(cells, has_body):
            table.rows.append(Row("head", cells))
            has_body = False
        else:
            table.rows.append(Row("body", cells))
            has_body = True
    return table


def _is_title(par: list[str]) -> bool:
    first = par[0].strip()
    return first.startswith(("Unaudited", "(Amounts", "As of ", "Six months ended")) or (
        first.startswith("Condensed") and len(first) < 80
    )


def _narrative(par: list[str]) -> list[Para]:
    """Bullets one per line; other lines of a paragraph are joined."""
    out: list[Para] = []
    plain: list[str] = []
    for line in par:
        if line.startswith("- "):
            if plain:
                out.append(_para(plain))
                plain = []
            out.append(Para("bullet", line[2:].strip()))
        else:
            plain.append(line)
    if plain:
        out.append(_para(plain))
    return out


def _para(lines: list[str]) -> Para:
    text = "\n".join(s.strip() for s in lines)
    plain = text.replace("**", "").strip("*")
    short = len(plain) < 110 and "\n" not in plain
    if text.startswith("**") or (short and not re.search(r"[.:;,)”\">]$", plain)):
        return Para("heading", text)
    return Para("p", text)


def parse(text: str) -> list[Block]:
    """Blocks in document order; a table takes the title paragraph right above it."""
    blocks: list[Block] = []
    paragraphs = re.split(r"\n[ \t]*\n", text.strip("\n"))
    pending_table: list[str] = []

    def flush_table() -> None:
        if not pending_table:
            return
        title: list[str] = []
        if blocks and isinstance(blocks[-1], Para) and blocks[-1].kind == "title":
            title = split_table_title(blocks.pop().text.split("\n"))
        blocks.append(parse_table(list(pending_table), title))
        pending_table.clear()

    for chunk in paragraphs:
        lines = [ln for ln in chunk.split("\n") if ln.strip()]
        if not lines:
            continue
        if all("\t" in ln for ln in lines):
            pending_table.extend(lines)
            continue
        flush_table()
        if _is_title(lines):
            blocks.append(Para("title", "\n".join(lines)))
        else:
            blocks.extend(_narrative(lines))
    flush_table()
    return [
        b if not (isinstance(b, Para) and b.kind == "title") else Para("heading", b.text)
        for b in blocks
    ]
