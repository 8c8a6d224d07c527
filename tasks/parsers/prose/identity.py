"""Whose document is this? The one place a document's text is checked against an issuer.

Pure functions over a document's text and the configured ``Issuer`` records: a document names
its issuer by its registrant / company name ("Qifu Technology, Inc."), its Nasdaq ticker
("Nasdaq: QFIN") or its HKEx stock code ("Stock Code: 3660", "股份代號：3660"). Used before a
hand-dropped file is stored (``filings ingest``) and on every document a run fetches
(:func:`foreign_file`: a 6-K listed under one issuer's CIK whose exhibit is another company's).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from domain.records import Issuer
from tasks.parsers.prose.dateline import dateline

_SUFFIXES = re.compile(
    r"[,.]?\s+(?:inc|incorporated|ltd|limited|corp|corporation|co|company|plc|holdings?|group)\.?$",
    re.IGNORECASE,
)
_CODE_LABEL = r"(?:stock\s+code|股份代號|股份代号|證券代號|证券代码)\s*[:：]?\s*"
# How a document says whose it is: "(NYSE: BKE)", "Nasdaq: QFIN", "Stock Code: 3660".
_TICKER_MARK = re.compile(
    r"\b(?i:nasdaq|nyse)(?:\s+(?i:global\s+select\s+market|american))?\s*[:：]\s*([A-Z][A-Z.]{0,5})\b"
)
_CODE_MARK = re.compile(_CODE_LABEL + r"0*(\d{1,5})\b", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class IdentityCheck:
    """The outcome of checking a document against the configured issuers."""

    issuer: Issuer | None  # the issuer the document belongs to; None when refused
    reason: str = ""  # one line saying why it was refused ("" when accepted)


def core_name(name: str) -> str:
    """A company name without its legal suffixes: "Qifu Technology, Inc." -> "Qifu Technology"."""
    previous = None
    name = name.strip()
    while previous != name:
        previous, name = name, _SUFFIXES.sub("", name).strip()
    return name


def names_issuer(text: str, issuer: Issuer) -> bool:
    """True when the text names the issuer by name (or an alias), ticker or HKEx stock code."""
    for name in (core_name(n) for n in (issuer.name, *issuer.aliases)):
        if name and re.search(_word(name), text, re.I):
            return True
    if re.search(r"(?:nasdaq|nyse)\s*[:：]\s*" + re.escape(issuer.ticker) + r"\b", text, re.I):
        return True
    code = issuer.hkex_code.lstrip("0")
    return bool(code) and bool(re.search(_CODE_LABEL + r"0*" + code + r"\b", text, re.I))


def identify(text: str, configured: Sequence[Issuer], ticker: str | None) -> IdentityCheck:
    """The issuer a document belongs to: the one named with ``ticker`` if the text names it,
    else the single configured issuer the text names; refused otherwise (never a default)."""
    named = [i for i in configured if names_issuer(text, i)]
    if ticker:
        wanted = next((i for i in configured if i.ticker == ticker.upper()), None)
        if wanted is None:
            return IdentityCheck(None, f"unknown issuer {ticker.upper()}")
        if wanted in named:
            return IdentityCheck(wanted)
        others = f" (it names {', '.join(i.ticker for i in named)})" if named else ""
        return IdentityCheck(None, f"does not name {_label(wanted)}{others}")
    if len(named) == 1:
        return IdentityCheck(named[0])
    if named:
        tickers = ", ".join(i.ticker for i in named)
        return IdentityCheck(None, f"names several issuers ({tickers}): pass --issuer")
    known = "; ".join(_label(i) for i in configured)
    return IdentityCheck(None, f"names no configured issuer ({known})")


def foreign_file(
    files: Sequence[tuple[str, str]], issuer: Issuer, configured: Sequence[Issuer]
) -> str:
    """Why a fetched document is not the issuer's ("" when it is), from its files' texts.

    Some file must name the issuer, and a file that names another configured issuer, or says
    it is another company's ("(NYSE: BKE)", "Stock Code: 328"), must name it too. A file that
    names no company (an IFRS reconciliation exhibit) is the document's.
    """
    if not any(names_issuer(text, issuer) for _, text in files):
        others = sorted({o for _, text in files for o in _others(text, issuer, configured)})
        named = f" (it names {', '.join(others)})" if others else ""
        return f"it does not name {_label(issuer)}{named}"
    for name, text in files:
        others = _others(text, issuer, configured)
        if others and not names_issuer(text, issuer):
            return f"its file {name} names {', '.join(others)}, not {issuer.ticker}"
    return ""


def _others(text: str, issuer: Issuer, configured: Sequence[Issuer]) -> list[str]:
    """Who else the text names: configured issuers, and exchange tickers or stock codes that
    are not the issuer's."""
    found = [i.ticker for i in configured if i.ticker != issuer.ticker and names_issuer(text, i)]
    found += [
        f"{m.group(0).split(':')[0].split('：')[0].strip()}: {m.group(1)}"
        for m in _TICKER_MARK.finditer(text)
        if m.group(1) != issuer.ticker and m.group(1) not in found
    ]
    own = issuer.hkex_code.lstrip("0")
    found += [f"stock code {m.group(1)}" for m in _CODE_MARK.finditer(text) if m.group(1) != own]
    return list(dict.fromkeys(found))


def _word(name: str) -> str:
    """A name as a pattern: whole words when it is ASCII (a Chinese name has no word breaks)."""
    pattern = re.escape(name).replace(r"\ ", r"\s+")
    return rf"\b{pattern}\b" if name.isascii() else pattern


def _label(issuer: Issuer) -> str:
    code = issuer.hkex_code.lstrip("0")
    return f"{issuer.ticker} ({core_name(issuer.name)}{f', HKEx {code}' if code else ''})"


def publication_date(text: str) -> date | None:
    """When the document says it was published (:func:`dateline.dateline`): a press release's
    or wire service's dateline, a "Date:" line, an HKEx form's "Announcement date", "Hong Kong,
    30 March 2015", or a Chinese edition's "香港，二零一五年三月三十日"."""
    return dateline(text)
