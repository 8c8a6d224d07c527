"""The HKEx "Cash Dividend Announcement for Equity Issuer" form -> a Dividend record.

Labelled lines ("Dividend declared USD 0.29 per share", "Ex-dividend date 12 April 2024",
"Record date", "Payment date"), the value on the label's line or (PDF cells) the next. The
form gives no per-ADS amount; none is derived.
"""

from __future__ import annotations

import re
from datetime import date
from decimal import Decimal

from domain.records import Dividend, Provenance
from tasks.parsers.documents import running_text

TITLE = "Cash Dividend Announcement for Equity Issuer"
_FORM_AMOUNT = re.compile(r"^(?P<cur>USD|HKD|RMB|CNY) ?(?P<amount>\d+(?:\.\d+)?) per share$")
_HALF_TITLE = re.compile(r"(?P<half>First|Second) Half of (?P<year>(?:19|20)\d{2})", re.I)


def from_form(text: str, document: str) -> Dividend | None:
    """The dividend the form declares (None when its amount line is not readable)."""
    lines = [" ".join(line.split()) for line in text.splitlines()]
    declared = _FORM_AMOUNT.match(_field(lines, "dividend declared"))
    if declared is None:
        return None
    period_end = _day_first(_field(lines, "reporting period end for the dividend declared"))
    return Dividend(
        currency="CNY" if declared["cur"] == "RMB" else declared["cur"],
        per_share=Decimal(declared["amount"]),
        per_ads=None,
        period_start=_form_start(lines, period_end),
        period_end=period_end,
        record_date=_day_first(_field(lines, "record date")),
        ex_date=_day_first(_field(lines, "ex-dividend date")),
        payment_date=_day_first(_field(lines, "payment date")),
        provenance=Provenance(document, "form", "Dividend declared", "", declared[0]),
    )


def _field(lines: list[str], label: str) -> str:
    """The value printed after a form label: on its line, or (PDF cells) the next line."""
    for index, line in enumerate(lines):
        lowered = line.lower()
        if lowered.startswith(label + " "):
            return line[len(label) + 1 :].strip()
        if lowered == label and index + 1 < len(lines):
            return lines[index + 1]
    return ""


def _form_start(lines: list[str], end: date | None) -> date | None:
    title = _HALF_TITLE.search(_field(lines, "title of announcement"))
    if title:
        return running_text.half(int(title["year"]), 1 if title["half"].lower() == "first" else 2)[
            0
        ]
    if end is not None and "semi-annual" in _field(lines, "dividend type").lower():
        month = end.month - 5
        return date(end.year if month > 0 else end.year - 1, month if month > 0 else month + 12, 1)
    return None


def _day_first(text: str) -> date | None:
    match = running_text.DAY_FIRST_RE.match(text)
    return running_text.parse_date(match) if match else None
