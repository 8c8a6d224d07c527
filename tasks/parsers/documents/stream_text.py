"""A page's running text straight from its content stream, when that text can be trusted.

Reading ``(...) Tj`` literals from the decompressed stream costs no text interpretation, but
the bytes of a literal are only characters through the font that shows them. A page is read
this way only when every byte decodes exactly as pdfminer (so ``extract_text()``) would decode
it, through a named table and nothing else:

- every text-showing operator is ``Tj`` with a literal string operand: no ``TJ``, ``'``,
  ``"``, no hex string, no inline image (its bytes could pass for strings);
- the font each ``Tj`` shows with (the last ``Tf``, through ``q``/``Q``) is simple (/Type1,
  /MMType1, /TrueType: no Type0 CID font, no Type3), has no /ToUnicode CMap, and its
  /Encoding is /WinAnsiEncoding, /StandardEncoding or /MacRomanEncoding (or a dictionary
  naming one as /BaseEncoding without /Differences), or absent for a font whose program is
  not embedded (an embedded Type1 then brings its own encoding; pdfminer's default is
  StandardEncoding, WinAnsi for TrueType). Fonts the page lists but never selects do not
  matter (writers often list every font of the document on every page);
- the page draws no form XObject (its text is not in the page's stream) and sets no font
  through an ExtGState.

Anything else (subset TrueType fonts whose bytes are glyph ids, Identity-H CID fonts, kerned
TJ arrays, /Differences) returns None and the caller reads the page's glyphs instead.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache
from typing import Any

from pdfminer.encodingdb import EncodingDB
from pdfminer.pdfpage import PDFPage
from pdfminer.pdftypes import PDFStream, resolve1
from pdfminer.psparser import PSLiteral

from tasks.parsers.documents.pdfminer_words import decoded_contents

_SIMPLE = frozenset({"Type1", "MMType1", "TrueType"})
_TABLES = frozenset({"WinAnsiEncoding", "StandardEncoding", "MacRomanEncoding"})
_EMBEDDED = ("FontFile", "FontFile2", "FontFile3")
_DELIMITED = r"(?![^\s\[\]()<>{}/%])"  # the token ends here: whitespace, a delimiter or the end
_TOKEN = re.compile(
    r"\((?P<lit>(?:[^()\\]|\\.)*)\)(?P<tj>\s*Tj" + _DELIMITED + ")?"
    r"|/(?P<font>[^\s/\[\]()<>{}%]+)\s+[-+]?(?:\d+\.?\d*|\.\d+)\s+Tf" + _DELIMITED + "|"
    r"(?<![^\s\])>])(?:(?P<op>Tj|TJ|'|\"|BI)|(?P<state>[qQ]))" + _DELIMITED + "|%[^\r\n]*",
    re.DOTALL,
)
_ESCAPE = re.compile(r"\\([0-7]{1,3}|\r\n|.)", re.DOTALL)
_ESCAPES = {"n": "\n", "r": "\r", "t": "\t", "b": "\b", "f": "\f", "\n": "", "\r": "", "\r\n": ""}
_NAME_ESCAPE = re.compile(r"#([0-9A-Fa-f]{2})")


def page_literals(page: PDFPage, contents: list[object] | None = None) -> list[str] | None:
    """The page's ``Tj`` strings in drawing order, decoded; None when they can't be trusted.

    ``contents``: the page's ``decoded_contents`` when the caller has them already.
    """
    resources = _dict(page.resources)
    if _draws_forms(resources) or _sets_fonts(resources):
        return None
    fonts = _font_tables(resources)
    streams = decoded_contents(page) if contents is None else contents
    data = b"".join(s.get_data() for s in streams if isinstance(s, PDFStream))
    out: list[str] = []
    table: dict[int, str] | None = None
    saved: list[dict[int, str] | None] = []  # the font is graphics state: q saves it, Q restores
    for token in _TOKEN.finditer(data.decode("latin-1")):
        if token["font"] is not None:
            table = fonts.get(_NAME_ESCAPE.sub(lambda m: chr(int(m[1], 16)), token["font"]))
        elif token["state"] is not None:
            if token["state"] == "q":
                saved.append(table)
            elif saved:
                table = saved.pop()
        elif token["op"] is not None:
            return None  # TJ, ' or ", a hex string's Tj, an inline image
        elif token["tj"] is not None:
            if table is None:
                return None  # an encoded font, none selected, or one the page doesn't hold
            out.append(_unescape(token["lit"]).translate(table))
    return out


def _font_tables(resources: Mapping[str, Any]) -> dict[str, dict[int, str] | None]:
    """Each font's byte -> text table; None for a font whose bytes need more than a table."""
    tables: dict[str, dict[int, str] | None] = {}
    for name, ref in _dict(resources.get("Font")).items():
        encoding = _encoding_name(_dict(ref))
        tables[name] = _table(encoding) if encoding else None
    return tables


def _encoding_name(spec: Mapping[str, Any]) -> str | None:
    """The named table pdfminer decodes this font's bytes with, if that is all it uses."""
    subtype = _name(spec.get("Subtype"))
    if subtype not in _SIMPLE or "ToUnicode" in spec:
        return None
    encoding = resolve1(spec.get("Encoding"))
    if isinstance(encoding, dict):
        if encoding.get("Differences"):
            return None
        encoding = resolve1(encoding.get("BaseEncoding"))
    if encoding is None:
        if any(key in _dict(spec.get("FontDescriptor")) for key in _EMBEDDED):
            return None  # the font program's own encoding may apply
        return "WinAnsiEncoding" if subtype == "TrueType" else "StandardEncoding"
    name = _name(encoding)
    return name if name in _TABLES else None


def _draws_forms(resources: Mapping[str, Any]) -> bool:
    xobjects = _dict(resources.get("XObject")).values()
    return any(_name(_dict(x).get("Subtype")) == "Form" for x in xobjects)


def _sets_fonts(resources: Mapping[str, Any]) -> bool:
    return any("Font" in _dict(s) for s in _dict(resources.get("ExtGState")).values())


def _dict(value: object) -> Mapping[str, Any]:
    """A dictionary or a stream's dictionary; {} for anything else (a damaged resource: a page
    that needs one is then not trusted, and the glyph reader deals with it)."""
    value = resolve1(value)
    if isinstance(value, PDFStream):
        return value.attrs
    return value if isinstance(value, dict) else {}


def _name(value: object) -> str | None:
    value = resolve1(value)
    return value.name if isinstance(value, PSLiteral) and isinstance(value.name, str) else None


@cache
def _table(encoding: str) -> dict[int, str]:
    """pdfminer's table as a str.translate map; a byte it can't map becomes "(cid:n)" as in
    LTChar."""
    known = EncodingDB.get_encoding(encoding)
    return {code: known.get(code, f"(cid:{code})") for code in range(256)}


def _unescape(literal: str) -> str:
    """A literal's escapes (``\\(``, ``\\223``, a backslash before a line end) -> its bytes."""
    if "\\" not in literal:
        return literal

    def one(match: re.Match[str]) -> str:
        code = match[1]
        if code[0] in "01234567":
            return chr(int(code, 8) & 0xFF)
        return _ESCAPES.get(code, code)

    return _ESCAPE.sub(one, literal)
