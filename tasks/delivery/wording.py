"""How alert messages name periods, metrics and amounts, the way an analyst writes them."""

from __future__ import annotations

import functools
import re
from datetime import date, timedelta
from decimal import Decimal, InvalidOperation

from domain.enums import Origin
from domain.metrics import metrics
from domain.readouts import Report
from tasks.parsers.prose.narrative import period_words

_CURRENCY = {"CNY": "RMB", "USD": "US$", "HKD": "HK$"}  # per share and per ADS alike


def period_label(start: date | None, end: date) -> str:
    """'Q3 2024', 'H1 2024', 'FY2024', 'as of 2023-12-31', else 'start to end'."""
    if start is None:
        return f"as of {end}"
    next_day = end + timedelta(days=1)
    months = (next_day.year - start.year) * 12 + next_day.month - start.month
    if start.day != 1 or next_day.day != 1:
        return f"{start} to {end}"
    if months == 3 and start.month in (1, 4, 7, 10):
        return f"Q{(start.month + 2) // 3} {start.year}"
    if months == 6 and start.month in (1, 7):
        return f"H{1 if start.month == 1 else 2} {start.year}"
    if months == 12 and start.month == 1:
        return f"FY{start.year}"
    return f"{start} to {end}"


def metric_label(metric: str) -> str:
    """'net income', 'non-GAAP net income': metrics.csv's first label, in running text."""
    found = metrics().get(metric)
    label = found.label if found else metric.replace("_", " ")
    # lower-case a capitalised word, never an acronym ("Non-GAAP" -> "non-GAAP", "ADS" stays)
    if len(label) > 1 and label[0].isupper() and not label[1].isupper():
        return label[0].lower() + label[1:]
    return label


def amount(value: Decimal, unit: str, decimals: int | None = None) -> str:
    """RMB1,798.8m (to the precision printed), -RMB3.606m (the sign before the currency, as
    an analyst writes a loss), 3.35%, 241,400,000 count."""
    if unit == "percent":
        return f"{value.normalize():f}%"
    prefix = _CURRENCY.get(unit.partition("/")[0])
    if prefix is None:
        return f"{value.normalize():,f} {unit}"
    sign, value = ("-" if value < 0 else ""), abs(value)
    if value < 1_000_000:
        return f"{sign}{prefix}{value.normalize():,f}"
    places = 1 if decimals is None else max(0, min(3, 6 + decimals))
    return f"{sign}{prefix}{value / 1_000_000:,.{places}f}m"


# A figure in a lead-in ("RMB47,796 million of such loan volume", "12.4%"), not a year in it.
_ANOTHER_FIGURE = re.compile(
    r"(?:RMB|US\$|HK\$)\s?\d|\d\s*(?:million|billion|%)|\d{1,3}(?:,\d{3})+"
)


def evidence(report: Report) -> str:
    """What the document prints about this very figure, to quote as evidence ("" when nothing).

    A statement's row label names its line (its column names the period). In running text a
    clause's lead-in speaks of its first figure: a later figure of the clause ("compared with
    RMB38,798 million in the same period of 2023") is quoted with the words after it that name
    its period, never with a lead-in about another period.
    """
    label, raw = report.label.strip(), report.raw_text.strip()
    if report.origin != Origin.NARRATIVE or not raw or raw in label:
        return label
    own = period_words(report.words)
    if own or _ANOTHER_FIGURE.search(label):
        return f"{raw} {own}".strip()
    return f"{label} {raw}"


def exact(value: Decimal | None) -> str | None:
    """An amount as an exact decimal string for programs ("68239000000", "2.88"), the same
    from either database (PostgreSQL's NUMERIC carries trailing zeros)."""
    return None if value is None else format(value.normalize(), "f")


def guidance_range(low: Decimal | None, high: Decimal | None, unit: str) -> str:
    """'RMB1.50–1.60bn' (billions to at least two places), or one bound."""
    prefix = _CURRENCY.get(unit.partition("/")[0])
    if prefix is None:
        parts = [amount(v, unit) for v in (low, high) if v is not None]
        return "–".join(parts)

    def bn(v: Decimal) -> str:
        text = f"{(v / 1_000_000_000).normalize():f}"
        whole, _, frac = text.partition(".")
        return f"{int(whole):,}.{frac.ljust(2, '0')}"

    if low is not None and high is not None:
        return f"{prefix}{bn(low)}–{bn(high)}bn"
    return f"{prefix}{bn(low if low is not None else high)}bn"  # type: ignore[arg-type]


def percent(value: Decimal, signed: bool = True) -> str:
    """12.4% (one place); with a sign for changes (+16.1%, -24.7%)."""
    rounded = Decimal(value).quantize(Decimal("0.1"))
    return f"{rounded:+}%" if signed else f"{rounded}%"


# "damaged figures 1 must not exceed allowed 0 (diff 1, tolerance 0)": rule jargon, dropped
_JARGON = re.compile(
    r"(?::\s*)?[\w ]+ -?[\d.]+ must not (?:exceed|be below) allowed -?[\d.]+ \([^)]*\)"
)
_DIFF = re.compile(r"\(diff (-?[\d.]+), tolerance (-?[\d.]+)\)")
_IN_CURRENCY = re.compile(r"^[^:]* in ([A-Z]{3}):")  # "2024-11-02 in USD: ..." (describe_row)
_METRIC_ID = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")
_FIGURE = re.compile(r"\b([a-z][a-z0-9_]*[a-z0-9]) (-?\d+(?:\.\d+)?)\b")


def plain_findings(observed: str) -> list[str]:
    """A failed check's observation as sentences a person reads, each finding once:
    metric ids become their labels with formatted amounts, rule jargon goes."""
    found: list[str] = []
    # each finding ends with its rule's clause when it has one; else findings are "; "-joined
    parts = _JARGON.split(observed) if _JARGON.search(observed) else observed.split("; ")
    for part in parts:
        text = part.strip(" ;:")
        text = _DIFF.sub(lambda m: f"(they differ by {_number(m[1])}, rounding allows "
                         f"{_number(m[2])})", text)  # fmt: skip
        named = _IN_CURRENCY.match(text)
        text = _FIGURE.sub(functools.partial(_labelled, currency=named and named[1]), text)
        text = _METRIC_ID.sub(_named, text)  # the terms of a sum: "total_liabilities + ..."
        if text and text not in found:
            found.append(text)
    return found


def _named(match: re.Match[str]) -> str:
    return _label_of(match[0]) if match[0] in metrics() else match[0]


def _label_of(metric: str) -> str:
    label = metric_label(metric)
    return label.capitalize() if label.isupper() else label


def _labelled(match: re.Match[str], currency: str | None) -> str:
    """``metric 123`` as its label and amount, in ``currency`` when the finding names one
    (a USD balance sheet's total assets are not RMB, whatever the metric's usual unit)."""
    found = metrics().get(match[1])
    if found is None:
        return match[0]
    try:
        value = Decimal(match[2])
    except InvalidOperation:
        return match[0]
    unit = found.unit
    if currency and unit.partition("/")[0] in _CURRENCY:
        unit = currency + unit[3:]
    return f"{_label_of(match[1])} {amount(value, unit)}"


def _number(text: str) -> str:
    try:
        return f"{Decimal(text).normalize():,f}"
    except InvalidOperation:
        return text
