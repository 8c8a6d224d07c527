"""The "Business Outlook" paragraph -> Guidance records.

"for the first quarter of 2025, the Company expects to generate a net income between RMB1.75
billion and RMB1.85 billion and a non-GAAP net income between RMB1.80 billion and RMB1.90
billion, representing a year-on-year growth between 49% and 58%" gives two ranges; the growth
range belongs to the one just before it. "will provide forward-looking guidance ... on its
earnings conference call" gives one record with ``numeric=False``. The issue date is the
release's dateline ("Shanghai, China, March 16, 2025"), else its "Date:" line; without either
no guidance is recorded (a warning says so).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from domain.records import Guidance, Provenance
from tasks.parsers.documents import running_text
from tasks.parsers.documents.running_text import Period
from tasks.parsers.prose.dateline import dateline
from tasks.parsers.statements.catalog import LabelCatalog

_OUTLOOK = re.compile(r"Business Outlook (?P<body>.*?)(?= Conference Call|$)")
_TARGET = re.compile(
    r"for the (?P<q>first|second|third|fourth) quarter of (?P<y>(?:19|20)\d{2})|"
    r"for the (?:full )?year (?:of )?(?P<fy>(?:19|20)\d{2})"
)
_AMOUNT = r"RMB ?(?P<{0}>\d+(?:\.\d+)?) ?(?P<{0}u>billion|million)"
_RANGE = re.compile(
    r"(?P<label>[A-Za-z-][A-Za-z -]{2,60}?) between "
    + _AMOUNT.format("lo")
    + " and "
    + _AMOUNT.format("hi")
    + r"(?:, representing an? (?:year-on-year|year-over-year) growth between "
    r"(?P<glo>\d+(?:\.\d+)?)% and (?P<ghi>\d+(?:\.\d+)?)%)?"
)
_ON_CALL = re.compile(r"will provide [^.]*guidance[^.]*(?:conference|earnings) call")
_SCALE = {"billion": 9, "million": 6}


@dataclass(frozen=True, slots=True)
class Outlook:
    """Guidance read from one document, with why any was not."""

    guidance: tuple[Guidance, ...]
    warnings: tuple[str, ...]


def extract_guidance(text: str, catalog: LabelCatalog, document: str) -> Outlook:
    """Read the Business Outlook paragraph of a results release."""
    cleaned = running_text.clean(text)
    match = _OUTLOOK.search(cleaned)
    if match is None:
        return Outlook((), ())
    body = match["body"]
    issued = dateline(cleaned)
    if issued is None:
        return Outlook((), (f"{document}: Business Outlook without a release date; not stored",))
    where = Provenance(document, "narrative: Business Outlook", "Business Outlook", "", body[:300])
    if _ON_CALL.search(body):
        target = _reported_quarter(cleaned)
        if target is None:
            return Outlook((), (f"{document}: guidance on the call, period unknown; not stored",))
        period = running_text.next_quarter(target)
        record = Guidance(
            catalog.call_metric, *period, None, None, "CNY", issued, where, numeric=False
        )
        return Outlook((record,), ())
    return _ranges(body, catalog, issued, where, document)


def _ranges(
    body: str, catalog: LabelCatalog, issued: date, where: Provenance, document: str
) -> Outlook:
    target = _TARGET.search(body)
    if target is None:
        return Outlook((), (f"{document}: Business Outlook without a target period; not stored",))
    period = _target_period(target)
    out: list[Guidance] = []
    warnings: list[str] = []
    for found in _RANGE.finditer(body, target.end()):
        metric = _metric(found["label"], catalog)
        if metric is None:
            warnings.append(f"{document}: guidance for {found['label']!r} maps to no metric")
            continue
        out.append(_record(found, metric, period, issued, where))
    return Outlook(tuple(out), tuple(warnings))


def _record(
    found: re.Match[str], metric: str, period: Period, issued: date, where: Provenance
) -> Guidance:
    def amount(name: str) -> Decimal:
        return Decimal(found[name]) * Decimal(10) ** _SCALE[found[name + "u"]]

    def pct(name: str) -> Decimal | None:
        return Decimal(found[name]) if found[name] else None

    raw = Provenance(where.document, where.locator, found["label"].strip(), "", found[0])
    return Guidance(
        metric,
        period[0],
        period[1],
        amount("lo"),
        amount("hi"),
        "CNY",
        issued,
        raw,
        growth_low_pct=pct("glo"),
        growth_high_pct=pct("ghi"),
    )


def _metric(label: str, catalog: LabelCatalog) -> str | None:
    lowered = " ".join(label.lower().split())
    for words, metric in catalog.guidance:
        if lowered.endswith(words.lower()):
            return metric
    return None


def _target_period(match: re.Match[str]) -> Period:
    if match["fy"]:
        return running_text.full_year(int(match["fy"]))
    return running_text.quarter(int(match["y"]), running_text.ordinal(match["q"]))


def _reported_quarter(text: str) -> Period | None:
    """The latest quarter a release reports on, from its section headings."""
    quarters = [
        s.period for s in running_text.sections(text) if s.period and s.heading[:4] != "Full"
    ]
    return max(quarters, key=lambda p: p[1]) if quarters else None
