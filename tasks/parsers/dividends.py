"""Declared dividends -> Dividend records, from a results release or the HKEx form.

Release: "approved a dividend of US$0.29 per Class A ordinary share, or US$0.58 per ADS for
the second half of 2023 to holders of record ... as of the close of business on April 15,
2024 ... The payment date is expected to be on May 21, 2024 for holders of Class A ordinary
shares and around May 24, 2024 for holders of ADSs."
HKEx "Cash Dividend Announcement for Equity Issuer" form: labelled lines ("Dividend declared
USD 0.29 per share", "Ex-dividend date 12 April 2024", "Record date", "Payment date"). The
form gives no per-ADS amount; none is derived.
"""

from __future__ import annotations

import re
from datetime import date
from decimal import Decimal

from tasks.core.records import Dividend, Provenance
from tasks.parsers import prose

_CURRENCY = {"US$": "USD", "USD": "USD", "RMB": "CNY", "HK$": "HKD", "HKD": "HKD"}
_RELEASE = re.compile(
    r"approved a (?:cash )?dividend of (?P<cur>US\$|RMB|HK\$) ?(?P<share>\d+(?:\.\d+)?) per "
    r"Class A ordinary share, or (?:US\$|RMB|HK\$)? ?(?P<ads>\d+(?:\.\d+)?) per ADS for the "
    r"(?P<half>first|second) half of (?P<year>(?:19|20)\d{2})"
    r"(?P<rest>.*?)(?=\. [A-Z][a-z]+ [A-Z]|$)"
)
_RECORD = re.compile(
    r"holders of record .*? as of the close of business on (" + prose.DATE_RE.pattern + ")"
)
_PAYMENT = re.compile(
    r"payment date is expected to be on (?P<share>" + prose.DATE_RE.pattern + r") for holders of "
    r"Class A ordinary shares(?: and (?:around|on) (?P<ads>" + prose.DATE_RE.pattern + ") for "
    r"holders of ADSs)?"
)
_FORM_AMOUNT = re.compile(r"^(?P<cur>USD|HKD|RMB|CNY) ?(?P<amount>\d+(?:\.\d+)?) per share$")
_HALF_TITLE = re.compile(r"(?P<half>First|Second) Half of (?P<year>(?:19|20)\d{2})", re.I)


def extract_dividends(text: str, document: str) -> tuple[Dividend, ...]:
    """Every dividend declared in a document (form or release)."""
    if "Cash Dividend Announcement for Equity Issuer" in text:
        form = _from_form(text, document)
        return (form,) if form else ()
    cleaned = prose.clean(text)
    return tuple(_from_release(m, document) for m in _RELEASE.finditer(cleaned))


def _from_release(match: re.Match[str], document: str) -> Dividend:
    start, end = prose.half(int(match["year"]), 1 if match["half"] == "first" else 2)
    tail = match[0]
    record = _RECORD.search(tail)
    payment = _PAYMENT.search(tail)
    return Dividend(
        currency=_CURRENCY[match["cur"]],
        per_share=Decimal(match["share"]),
        per_ads=Decimal(match["ads"]),
        period_start=start,
        period_end=end,
        record_date=_date(record[1]) if record else None,
        ex_date=None,  # the release gives none; the HKEx form does
        payment_date=_date(payment["share"]) if payment else None,
        provenance=Provenance(document, "narrative: dividend", "dividend", "", tail[:400]),
        ads_payment_date=_date(payment["ads"]) if payment and payment["ads"] else None,
    )


def _from_form(text: str, document: str) -> Dividend | None:
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
        return prose.half(int(title["year"]), 1 if title["half"].lower() == "first" else 2)[0]
    if end is not None and "semi-annual" in _field(lines, "dividend type").lower():
        month = end.month - 5
        return date(end.year if month > 0 else end.year - 1, month if month > 0 else month + 12, 1)
    return None


def _date(text: str) -> date:
    match = prose.DATE_RE.search(text)
    assert match is not None
    return prose.parse_date(match)


def _day_first(text: str) -> date | None:
    match = prose.DAY_FIRST_RE.match(text)
    return prose.parse_date(match) if match else None
