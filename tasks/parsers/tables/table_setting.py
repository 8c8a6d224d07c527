"""What a table is, read once from the lines above it: title, scale, currency, title period.

One reader for both readers of statement tables: the as-reported rows (the statement kind
from the title's words) and the catalog's facts (a catalog section from its titles). They
differ only in how a title is recognised, which the caller passes in.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from tasks.parsers.documents.raw_tables import RawTable
from tasks.parsers.tables.headers import header_lines
from tasks.parsers.tables.statement_titles import (
    CONTINUED,
    PERIOD_TITLE_RE,
    currencies_in,
    header_text,
    is_continuation,
    lists_statements,
    scale_of,
)

NEAR = 6  # preamble lines close enough to a table to be its title
_MARKS = frozenset({"$", "US$", "RMB", "HK$", "¥"})
_GLUED_MARK = re.compile(r"(US\$|HK\$|RMB|\$|¥)\s?[\d(]")

K = TypeVar("K")


@dataclass(frozen=True, slots=True)
class TableSetting(Generic[K]):
    """What a table is (`what`: a statement kind or a catalog section), its title, scale and
    the text the scale was read from, currency, and a period its title names."""

    what: K | None
    title: str = ""
    scale: int | None = None
    scale_text: str = ""
    currency: str = ""
    period_title: str = ""


def read_setting(
    table: RawTable,
    previous: TableSetting[K],
    find: Callable[[tuple[str, ...], str], tuple[K | None, str]],
) -> TableSetting[K]:
    """A table's setting from its title lines. A table with nothing but page furniture above
    it continues the previous statement (a page break); a "continued" title of the same
    statement keeps the first page's scale and title period when it prints none. `find`
    gets the title lines (nearest last) and the header's text, and names what the table is
    and its title line (None when it is no statement)."""
    near = table.preamble[-NEAR:]
    header = header_text(table)
    what, title = find(near, header)
    # only period words above it ("Year ended", a header line at the margin): the previous
    # statement's next header block
    continues = is_continuation(near) or (bool(near) and header_lines(near) == list(near))
    if what is not None and lists_statements(table):
        return TableSetting(None)  # a list of contents, not the statement its first line names
    if what is None:
        return previous if continues else TableSetting(None)
    context = " ".join(near) + " " + header
    periods = [ln for ln in near if len(ln) <= 80 and PERIOD_TITLE_RE.match(ln)]
    scale = scale_of(context)
    period_title = periods[-1] if periods else ""
    if (continues or CONTINUED.search(title)) and previous.what == what:
        scale = scale if scale is not None else previous.scale
        period_title = period_title or previous.period_title
    currency = next(iter(currencies_in(" ".join(near) + " " + _symbols(table))), "")
    return TableSetting(what, title[:200], scale, context, currency, period_title)


def _symbols(table: RawTable) -> str:
    """Currency marks printed in the table's cells: a cell of its own ("$" before a figure)
    or glued to the figure ("$293,618", "RMB(1,234)")."""
    glued = (m[1] for row in table.rows for c in row[1:] for m in [_GLUED_MARK.match(c)] if m)
    return " ".join(
        [*table.symbols, *(c for row in table.rows for c in row if c in _MARKS), *glued]
    )
