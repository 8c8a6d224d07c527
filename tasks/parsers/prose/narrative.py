"""Results paragraphs and business highlights -> Facts with origin "narrative".

A clause opens at a catalog phrase followed by "was", "were" or "reached" (or, for counts,
at words that carry the figure: "connected 157 financial institutional partners"). Its first
figure is the metric's value; later figures of the same kind are comparatives, each dated by
the words after it ("in the same period of 2023", "in the prior quarter", "as of December 31,
2023", "a year ago", "in 2022"). A figure whose period cannot be read is skipped and reported.

Damage: "RMB71.860 million" (a thousands separator turned into a decimal point) is refused:
no fact, one UnmappedRow and one warning; neither 71.86 nor 71,860 million is ever stored.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from domain.enums import Origin
from domain.records import Fact, Provenance, UnmappedRow
from tasks.parsers.documents import running_text
from tasks.parsers.documents.running_text import Period
from tasks.parsers.statements.catalog import LabelCatalog, Phrase

_GROUPED = r"\d{1,3}(?:,\d{3})*"
FIGURES = {
    # "RMB4.50 billion" only appears in rounded summaries and quotes: never read as a value.
    "CNY": rf"RMB ?(?P<v>-?{_GROUPED}(?:\.\d+)?) (?P<u>million)\b",
    "CNY/ADS": r"RMB ?(?P<v>-?\d+\.\d{2})(?![\d,]| million| billion)",
    "count": r"(?<![\w$.,])(?P<v>\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)? (?P<u>million))(?![\d%])",
    "months": r"(?P<v>\d+(?:\.\d+)?) months\b",
    "percent": r"(?<!of )(?<!representing )(?P<v>\d+(?:\.\d+)?)%(?! of)",
}
_FIRST_COUNT = r"(?P<v>\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)(?: (?P<u>million))?"
_SCALE = {"million": 6, "billion": 9}
_GAP = (
    r"(?P<gap>\s+(?:in|for)\s+(?:full\s+year\s+|"
    r"the\s+(?:first|second|third|fourth)\s+quarter\s+of\s+)?(?:19|20)\d{2})?"
)
_VERB = r"\s+(?:was|were|reached)\s+(?:approximately\s+)?"
_SENTENCE_END = re.compile(r"\.\s+(?=[A-Z0-9“\"(])|\s[-·]\s")
_DAMAGED = re.compile(r"RMB ?\d{1,3}\.\d{3} (?:million|billion)\b")
_QUALIFIER = re.compile(
    r"in the same period of (?P<same>(?:19|20)\d{2})|(?P<prior>in the prior quarter)|"
    r"(?P<ago>a year ago)|as of (?P<asof>" + running_text.DATE_RE.pattern + r")|"
    r"(?:in|for) the (?P<q>first|second|third|fourth) quarter(?: of (?P<qy>(?:19|20)\d{2}))?|"
    r"in (?:full year )?(?P<fy>(?:19|20)\d{2})\b"
)


def period_words(words: str) -> str:
    """The words after a figure up to where they name its period ("in the same period of
    2023", "as of December 31, 2023"), or "" when they name none."""
    found = _QUALIFIER.search(words)
    return words[: found.end()].strip(" ,.") if found else ""


@dataclass(frozen=True, slots=True)
class NarrativeFacts:
    """Facts read from the running text, with what was refused."""

    facts: tuple[Fact, ...]
    refused: tuple[UnmappedRow, ...]
    warnings: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class _Anchor:
    start: int
    end: int  # end of the first figure
    phrase: Phrase
    label: str
    gap: str
    figure: re.Match[str]


@dataclass
class _Sink:
    document: str
    catalog: LabelCatalog
    facts: list[Fact] = field(default_factory=list)
    refused: list[UnmappedRow] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def refuse(self, where: str, label: str, reason: str) -> None:
        self.refused.append(UnmappedRow(where, Origin.NARRATIVE, label, reason))
        self.warnings.append(f"{self.document} {where} {label!r}: {reason}")


def extract_narrative(text: str, catalog: LabelCatalog, document: str) -> NarrativeFacts:
    """Read every catalog metric stated in the running text."""
    cleaned = running_text.clean(text)
    found = running_text.sections(cleaned)
    sink = _Sink(document, catalog)
    for damaged in _DAMAGED.finditer(cleaned):
        sink.refuse(
            _where(found, damaged.start()), _context(cleaned, damaged), _damage_reason(damaged[0])
        )
    anchors = _anchors(cleaned, catalog, _results_spans(found, len(cleaned)))
    context: dict[int, str] = {}
    sentence: tuple[int, Period | None] = (-1, None)  # (end, period stated in it so far)
    for anchor in anchors:
        section = running_text.section_at(found, anchor.start)
        if section is None or section.period is None:
            continue
        if not _context_ok(anchor.phrase, context, section.start, catalog):
            continue
        end = _clause_end(cleaned, anchor.end, found)
        stop = min([a.start for a in anchors if a.start > anchor.start] + [end])
        # "Day-1 ... was 5.0% in the fourth quarter, and 30-day collection rate was 84.9%":
        # a clause without its own period takes the one stated earlier in its sentence.
        inherited = sentence[1] if sentence[0] == end else None
        stated = _read_clause(cleaned, anchor, stop, section, inherited, sink)
        sentence = (end, stated or inherited)
    return NarrativeFacts(tuple(_dedupe(sink)), tuple(sink.refused), tuple(sink.warnings))


def _damage_reason(raw: str) -> str:
    return (
        f"damaged figure {raw!r}: three decimals in a millions figure "
        "(a thousands separator misread as a decimal point); not stored"
    )


def _context(text: str, match: re.Match[str]) -> str:
    return text[max(0, match.start() - 60) : match.end() + 30]


def _where(found: list[running_text.Section], position: int) -> str:
    section = running_text.section_at(found, position)
    return f"narrative: {section.heading}" if section else "narrative"


def _context_ok(phrase: Phrase, seen: dict[int, str], section: int, catalog: LabelCatalog) -> bool:
    contexts = {p.context for p in catalog.phrases if p.context}
    if phrase.metric in contexts:
        seen[section] = phrase.metric
    return phrase.context is None or seen.get(section) == phrase.context


def _results_spans(found: list[running_text.Section], length: int) -> list[tuple[int, int]]:
    """Where results sections run: only there are clauses looked for (long filings stay fast)."""
    ends = [s.start for s in found[1:]] + [length] if found else []
    return [(s.start, end) for s, end in zip(found, ends, strict=True) if s.period is not None]


def _anchors(text: str, catalog: LabelCatalog, spans: list[tuple[int, int]]) -> list[_Anchor]:
    """Every clause opening, overlaps resolved: earliest first, then the longest phrase."""
    hits: list[_Anchor] = []
    for phrase in catalog.phrases:
        unit = catalog.metrics[phrase.metric].unit
        pattern = _phrase_re(phrase, unit)
        for match in (m for start, end in spans for m in pattern.finditer(text, start, end)):
            figure = _first_figure(match, text, unit, phrase.figure_first)
            if figure is not None:
                gap = match.groupdict().get("gap") or ""
                hits.append(_Anchor(match.start(), figure.end(), phrase, match[0], gap, figure))
    hits.sort(key=lambda a: (a.start, -len(a.phrase.words)))
    kept: list[_Anchor] = []
    for hit in hits:
        same = kept and kept[-1].start == hit.start and kept[-1].phrase.words == hit.phrase.words
        if not kept or hit.start >= kept[-1].end or same:
            kept.append(hit)
    return kept


def _phrase_re(phrase: Phrase, unit: str) -> re.Pattern[str]:
    def words(text: str) -> str:
        return r"\s+".join(re.escape(w) for w in text.split())

    if phrase.figure_first:
        before, _, after = phrase.words.partition("{n}")
        first = _FIRST_COUNT if unit == "count" else FIGURES[unit]
        body = (
            (words(before) + r"\s+" if before else "") + f"(?P<n>{first})" + r"\s+" + words(after)
        )
        return re.compile(r"(?<![\w-])" + body, re.IGNORECASE)
    return re.compile(r"(?<![\w-])" + words(phrase.words) + _GAP + _VERB, re.IGNORECASE)


def _first_figure(
    match: re.Match[str], text: str, unit: str, figure_first: bool
) -> re.Match[str] | None:
    if figure_first:
        return re.compile(_FIRST_COUNT if unit == "count" else FIGURES[unit]).match(
            text, match.start("n")
        )
    return re.compile(FIGURES[unit]).match(text, match.end())


def _clause_end(text: str, position: int, found: list[running_text.Section]) -> int:
    end = _SENTENCE_END.search(text, position)
    limit = end.start() if end else len(text)
    later = [s.start for s in found if s.start > position]
    return min([limit] + later)


def _read_clause(
    text: str,
    anchor: _Anchor,
    stop: int,
    section: running_text.Section,
    inherited: Period | None,
    sink: _Sink,
) -> Period | None:
    """Store the clause's figures; return the period the clause states for itself, if any."""
    assert section.period is not None
    unit = sink.catalog.metrics[anchor.phrase.metric].unit
    figures = [anchor.figure] + list(re.compile(FIGURES[unit]).finditer(text, anchor.end, stop))
    stated = _period_of(anchor.gap, section.period, section.period)
    current = stated or inherited or section.period
    for index, figure in enumerate(figures):
        after_end = figures[index + 1].start() if index + 1 < len(figures) else stop
        words = text[figure.end() : after_end]
        period = _period_of(words, current, section.period)
        if index == 0:
            stated = stated or period
            current = period or current
            period = current
        where = f"narrative: {section.heading}"
        if period is None:
            sink.refuse(where, anchor.label, f"no period for {figure[0]!r}; not stored")
            continue
        _add(figure, period, words.strip(" ,."), anchor, where, sink)
    return stated


def _period_of(words: str, current: Period, section: Period) -> Period | None:
    match = _QUALIFIER.search(words)
    if match is None:
        return None
    if match["same"]:
        return running_text.shift_year(current, int(match["same"]))
    if match["prior"]:
        return running_text.prior_quarter(current)
    if match["ago"]:
        return running_text.shift_year(current, current[1].year - 1)
    if match["asof"]:
        day = running_text.parse_date(running_text.DATE_RE.match(match["asof"]))  # type: ignore[arg-type]
        return (day, day)
    if match["q"]:
        return running_text.quarter(
            int(match["qy"] or section[1].year), running_text.ordinal(match["q"])
        )
    return running_text.full_year(int(match["fy"]))


def _add(
    figure: re.Match[str], period: Period, words: str, anchor: _Anchor, where: str, sink: _Sink
) -> None:
    metric = anchor.phrase.metric
    definition = sink.catalog.metrics[metric]
    raw = figure[0]
    if _DAMAGED.fullmatch(raw):
        return  # already refused by the document-wide scan
    if definition.kind == "flow" and period[0] == period[1]:
        sink.refuse(where, anchor.label, f"a date for a flow metric: {raw!r}; not stored")
        return
    digits = figure["v"].replace(",", "").replace(" million", "")
    unit_word = figure.groupdict().get("u")
    scale = _SCALE.get(unit_word or "", 0)
    frac = len(digits.partition(".")[2])
    start = None if definition.kind == "instant" else period[0]
    sink.facts.append(
        Fact(
            metric=metric,
            period_start=start,
            period_end=period[1],
            value=Decimal(digits) * Decimal(10) ** scale,
            unit=definition.unit,
            scale=scale,
            decimals=frac - scale,
            provenance=Provenance(sink.document, where, anchor.label.strip(), words[:120], raw),
            origin=Origin.NARRATIVE,
        )
    )


def _dedupe(sink: _Sink) -> list[Fact]:
    """One narrative fact per key; keys stated twice with different values are dropped."""
    groups: dict[tuple[str, date | None, date, str], list[Fact]] = {}
    for fact in sink.facts:
        groups.setdefault(fact.key, []).append(fact)
    out = []
    for key, group in groups.items():
        if len({f.value for f in group}) > 1:
            shown = ", ".join(f.provenance.raw_text for f in group)
            sink.warnings.append(
                f"{sink.document}: narrative disagrees with itself on {key[0]} {key[2]}: {shown}"
            )
            continue
        out.append(max(group, key=lambda f: f.decimals))
    return out
