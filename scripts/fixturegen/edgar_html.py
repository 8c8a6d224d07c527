"""Render seed blocks as EDGAR-style HTML exhibits (Workiva-like markup, real <table>s)."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field

from fixturegen.seedparse import NIL_MARKS, NUM_RE, Block, Para, Row, Table

FONT = "font-family:'Times New Roman',serif;font-size:10pt"
CELL = "padding:2px 1pt;vertical-align:bottom"
SPACER = '<td style="padding:0 1pt">&#160;</td>'
SPAN_MARK = re.compile(r"\{(\d+)\}$")
SPAN_ALL = "{all}"  # a header cell spanning the label column and every value column


@dataclass(frozen=True)
class TableStyle:
    """How one table prints: negatives ``split3`` "( | 366,065 | )", ``split2``
    "(366,065 | )" or ``whole`` "(366,065)"; currency-symbol cells on some rows;
    long labels wrapped over two rows."""

    negatives: str = "split2"
    currency_rows: tuple[str, ...] = ()
    wrap: dict[str, int] = field(default_factory=dict)


def inline(text: str) -> str:
    """Seed markup (markdown-ish) to HTML: bold, italics, superscripts, links, escapes."""
    out = html.escape(text.replace("\\$", "$"), quote=False)
    out = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", out, flags=re.S)
    # superscript markers ("^{*1}") hide their asterisks from the italics rule
    out = re.sub(
        r"\^\{(.+?)\}", lambda m: "<sup>" + m.group(1).replace("*", "\x01") + "</sup>", out
    )
    out = re.sub(r"(?<![\w*])\*([^*\n][^*]*?)\*(?![\w*])", r"<i>\1</i>", out)
    out = out.replace("\x01", "*")
    out = re.sub(r"&lt;(https?://[^&\s]+)&gt;", r'<a href="\1">\1</a>', out)
    out = re.sub(r"&lt;u&gt;(.*?)&lt;/u&gt;", r"<u>\1</u>", out)
    return out.replace("\n", "<br>")


def _font(text: str, bold: bool = False) -> str:
    weight = "700" if bold else "400"
    return f'<font style="{FONT};font-weight:{weight}">{text}</font>'


def _span(cells: list[str], i: int) -> int:
    """Header cells with {n} span n columns; period captions span up to the next caption."""
    m = SPAN_MARK.search(cells[i])
    if m:
        return int(m.group(1))
    if "ended" not in cells[i]:
        return 1
    n = 1
    while i + n < len(cells) and not cells[i + n]:
        n += 1
    return n


def _head_row(row: Row, ncols: int) -> str:
    if row.cells[1].endswith(SPAN_ALL):  # one cell across the whole row, the label's too
        text = row.cells[1].removesuffix(SPAN_ALL)
        body = _font(inline(text), True) if text else ""
        style = f"{CELL};text-align:center"
        return f'<tr><td colspan="{4 * ncols + 1}" style="{style}">{body}</td></tr>'
    tds = [f'<td style="{CELL};text-align:left">{_font(inline(row.cells[0]), True)}</td>']
    values = row.cells[1 : ncols + 1]
    i = 0
    while i < len(values):
        span = _span(values, i)
        text = SPAN_MARK.sub("", values[i])
        line = "border-bottom:1px solid #000;" if text and span > 1 else ""
        tds.append(SPACER)
        tds.append(
            f'<td colspan="{4 * span - 1}" style="{CELL};{line}text-align:center">'
            f"{_font(inline(text), True) if text else ''}</td>"
        )
        i += span
    return "<tr>" + "".join(tds) + "</tr>"


def _value_cells(raw: str, negatives: str, symbol: str) -> tuple[str, str, str]:
    """(prefix, number, suffix) cell texts for one printed value."""
    if raw in NIL_MARKS:
        return (symbol, "&#8212;", "")
    if raw.startswith("(") and raw.endswith(")"):
        inner = raw[1:-1]
        if negatives == "split3":
            return ("(", inner, ")")
        if negatives == "split2":
            return ("", "(" + inner, ")")
        return ("", raw, "")
    if negatives == "split2" and NUM_RE.match(raw) and not raw.endswith("%"):
        return (symbol, raw + "&#160;", "")
    return (symbol, html.escape(raw), "")


def _currencies(table: Table) -> list[str]:
    for row in table.rows:
        if row.kind == "head" and {"RMB", "USD"} & set(row.cells):
            return ["US$" if c == "USD" else "RMB" for c in row.cells[1:]]
    return [""] * table.ncols


def _body_row(row: Row, ncols: int, style: TableStyle, currencies: list[str]) -> str:
    label = row.cells[0]
    bold = label.upper().startswith("TOTAL")
    indent = "0" if label.endswith(":") or label.isupper() else "6pt"
    tds = [
        f'<td style="{CELL};text-align:left;padding-left:{indent}">'
        f"{_font(inline(label), bold)}</td>"
    ]
    with_symbol = label in style.currency_rows
    for i, raw in enumerate(row.cells[1 : ncols + 1]):
        tds.append(SPACER)
        if not raw:
            tds.append('<td colspan="3" style="padding:0 1pt"></td>')
            continue
        symbol = currencies[i] if with_symbol and currencies[i] else ""
        pre, num, suf = _value_cells(raw, style.negatives, symbol)
        tds.append(f'<td style="{CELL};text-align:left">{_font(pre, bold) if pre else ""}</td>')
        tds.append(f'<td style="{CELL};text-align:right">{_font(num, bold)}</td>')
        tds.append(f'<td style="{CELL};text-align:left">{_font(suf, bold) if suf else ""}</td>')
    return "<tr>" + "".join(tds) + "</tr>"


def _wrapped(row: Row, at: int) -> list[Row]:
    """A long label printed over two rows: caption alone, then the rest with the values."""
    first, rest = row.cells[0][:at].rstrip(), row.cells[0][at:].lstrip()
    return [Row("body", [first] + [""] * (len(row.cells) - 1)), Row("body", [rest, *row.cells[1:]])]


def render_table(table: Table, style: TableStyle) -> str:
    """Title paragraphs, then the <table> with header bands and body rows."""
    parts = [
        f'<p style="margin:0;text-align:center">{_font(inline(t), True)}</p>' for t in table.title
    ]
    currencies = _currencies(table)
    rows: list[str] = []
    for row in table.rows:
        if row.kind == "head":
            rows.append(_head_row(row, table.ncols))
            continue
        split = style.wrap.get(row.cells[0])
        for part in _wrapped(row, split) if split else [row]:
            rows.append(_body_row(part, table.ncols, style, currencies))
    parts.append(
        '<table style="border-collapse:collapse;width:100%">' + "\n".join(rows) + "</table>"
    )
    parts.append("<div><font><br></font></div>")
    return "\n".join(parts)


def render_blocks(
    blocks: list[Block], styles: dict[str, TableStyle], default: TableStyle | None = None
) -> str:
    """Narrative as <p>/<ul>, tables through ``render_table`` (style by first title line)."""
    out: list[str] = []
    bullets: list[str] = []
    for block in blocks:
        if isinstance(block, Para) and block.kind == "bullet":
            bullets.append(f"<li>{_font(inline(block.text))}</li>")
            continue
        if bullets:
            out.append('<ul style="margin-top:0">' + "".join(bullets) + "</ul>")
            bullets = []
        if isinstance(block, Table):
            key = block.title[0] if block.title else ""
            out.append(render_table(block, styles.get(key, default or TableStyle())))
        elif block.kind == "heading":
            out.append(f'<p style="margin:6pt 0 0 0">{_font(inline(block.text), True)}</p>')
        else:
            out.append(
                f'<p style="margin:6pt 0 0 0;text-align:justify">{_font(inline(block.text))}</p>'
            )
    if bullets:
        out.append('<ul style="margin-top:0">' + "".join(bullets) + "</ul>")
    return "\n".join(out)


def document(title: str, exhibit: str, body: str) -> bytes:
    """A whole exhibit file, ASCII with character references as EDGAR requires."""
    head = (
        f'<div style="text-align:right">{_font(html.escape(exhibit), True)}</div>\n'
        if exhibit
        else ""
    )
    text = (
        f"<html><head>\n<title>{html.escape(title)}</title>\n</head>\n"
        f'<body style="{FONT}">\n{head}{body}\n</body></html>\n'
    )
    return text.encode("ascii", "xmlcharrefreplace")


def cover_page(cover_text: str, exhibits: list[tuple[str, str, str]]) -> str:
    """The 6-K cover body; exhibit lines of the seed become a linked Exhibit Index table."""
    paras = [p.replace("\t", " ").strip() for p in re.split(r"\n\s*\n", cover_text)]
    out: list[str] = []
    for par in paras:
        if not par or par.lstrip("[").startswith("Exhibit 9"):
            continue
        if par == "Exhibit Index":
            out.append(f'<p style="text-align:center">{_font("EXHIBIT INDEX", True)}</p>')
            out.append(_exhibit_index(exhibits))
            continue
        align = "center" if len(par) < 200 and "Pursuant" not in par else "justify"
        out.append(f'<p style="margin:6pt 0 0 0;text-align:{align}">{_font(inline(par))}</p>')
    return "\n".join(out)


def _exhibit_index(exhibits: list[tuple[str, str, str]]) -> str:
    rows = [
        f'<tr><td style="{CELL}">{_font("Exhibit", True)}</td>'
        f'<td style="{CELL}">{_font("Description", True)}</td></tr>'
    ]
    for number, description, href in exhibits:
        link = _font(f'<a href="{href}">{number}</a>')
        rows.append(
            f'<tr><td style="{CELL}">{link}</td>'
            f'<td style="{CELL}">{_font(inline(description))}</td></tr>'
        )
    return '<table style="border-collapse:collapse;width:100%">' + "".join(rows) + "</table>"
