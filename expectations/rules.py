"""Check rows: each rule turns one document's figures into rows GX compares exactly.

A suite expectation on the ``identity_checks`` frame names a rule in its ``meta`` (``rule``,
default ``identity``) and selects its own rows by ``row_condition``. Every row says the same
thing, whatever the rule: two sides that must agree to within a tolerance derived from how
precisely each figure was printed. Rules needing more than the document's own facts (earlier
documents, the other source, guidance, dividends) read them from :class:`Context`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from decimal import ROUND_CEILING, Decimal
from typing import Any

from domain.enums import RESULTS_KINDS, Basis, Origin
from domain.metrics import metrics
from domain.precision import half_unit, select_stored_facts
from domain.records import Dividend, Extraction, Fact, Guidance, UnmappedRow, Verdict
from domain.rowrecords import RefusedRow, StatementRow

IDENTITY_BASIS = Basis.US_GAAP
PeriodKey = tuple[date | None, date]
_RATIO_STEP = Decimal("1e-6")  # a derived ratio is rounded to this before GX sees it


@dataclass(frozen=True, slots=True)
class Sourced:
    """A stored fact or dividend and the document that reported it."""

    document_id: str
    fact: Fact | None = None
    dividend: Dividend | None = None
    published_at: datetime | None = None  # when the document was published, if known


@dataclass(frozen=True, slots=True)
class Context:
    """What a document is checked against besides its own facts (all optional)."""

    document_id: str = ""
    kind: str = ""  # DocKind value; "" when unknown
    published_at: datetime | None = None  # this document's; None when unknown
    guidance: tuple[Guidance, ...] = ()
    dividends: tuple[Dividend, ...] = ()
    usd_rate: Decimal | None = None  # RMB per USD of the convenience column
    usd_facts: tuple[Fact, ...] = ()  # the USD convenience column, unit "USD"/"USD/ADS"
    prior: tuple[Sourced, ...] = ()  # facts of the issuer's other stored documents
    companions: tuple[Sourced, ...] = ()  # facts/dividends of the same disclosure, other source
    reported: tuple[Sourced, ...] = ()  # release figures an audited filing is checked against
    refused: tuple[UnmappedRow, ...] = ()  # figures the extractor refused as damaged text
    # statement rows read per StatementKind value, and the rows refused (the statement gate);
    # known only with the extraction (a revalidation has no text)
    statements: tuple[tuple[str, int], ...] = ()
    statements_refused: tuple[RefusedRow, ...] = ()
    statements_known: bool = False
    statement_rows: tuple[StatementRow, ...] = ()  # as read, for their arithmetic
    verdicts: tuple[Verdict, ...] = ()  # the identities on its statement figures (proofs)
    unproven: tuple[Fact, ...] = ()  # statement figures nothing tied (not published)

    @classmethod
    def of_extraction(cls, document_id: str, extraction: Extraction) -> Context:
        """What an extraction itself says about its document (no warehouse)."""
        return cls(
            document_id=document_id,
            kind=str(extraction.kind),
            guidance=extraction.guidance,
            dividends=extraction.dividends,
            usd_rate=extraction.usd_rate,
            refused=extraction.unmapped,
            statements=tuple(Counter(str(r.statement) for r in extraction.rows).items()),
            statements_refused=extraction.refused,
            statement_rows=extraction.rows,
            verdicts=extraction.verdicts,
            unproven=extraction.unproven,
            # an extraction without the row layer (table facts but no statement row read or
            # refused: one built by hand) is not judged by the statement gate
            statements_known=bool(extraction.rows or extraction.refused)
            or not any(f.origin == Origin.TABLE for f in extraction.facts),
        )


def completes(ctx: Context, others: Iterable[tuple[datetime | None, str]]) -> bool:
    """True when this document is the last published of the documents a cross-document row
    compares (ties: by document id): the row is stored with that document, whatever order the
    documents were validated in (tasks/settle.py re-checks it when an earlier one arrives).
    Unknown publication times (a document checked by hand) never withhold a row."""
    if ctx.published_at is None:
        return True
    mine = (ctx.published_at, ctx.document_id)
    return all(
        not document or document == ctx.document_id or when is None or (when, document) < mine
        for when, document in others
    )


@dataclass(frozen=True, slots=True)
class Figure:
    """One printed figure behind a check, for the details a person reads."""

    label: str
    value: Decimal
    decimals: int | None = None


@dataclass(frozen=True, slots=True)
class CheckRow:
    """``lhs`` and ``rhs`` must agree within ``tolerance`` (one-sided: lhs must not exceed rhs)."""

    identity: str
    period: str  # what the row is about: a period, or "metric period"
    lhs_label: str
    lhs: Decimal
    rhs_label: str
    rhs: Decimal
    tolerance: Decimal
    figures: tuple[Figure, ...] = ()
    one_sided: bool = False
    unit: str = ""  # the figures' currency when not their metrics' usual one (a USD statement)

    @property
    def gap(self) -> Decimal:
        """How far the two sides are apart in the direction the rule forbids."""
        if self.one_sided:
            return max(self.lhs - self.rhs, Decimal(0))
        return abs(self.lhs - self.rhs)


@dataclass(frozen=True, slots=True)
class RuleOutput:
    """Rows a rule produced, and what it could not evaluate (``"period: missing a, b"``)."""

    rows: list[CheckRow]
    skipped: list[str]


Rule = Callable[[str, dict[str, Any], list[Fact], Context], RuleOutput]


def period_label(key: PeriodKey) -> str:
    """``2024-12-31`` for an instant, ``2024-10-01..2024-12-31`` for a duration."""
    start, end = key
    return end.isoformat() if start is None else f"{start.isoformat()}..{end.isoformat()}"


def parse_term(term: str) -> tuple[Decimal, str]:
    """``"2*eps_basic_per_share"`` -> (2, metric); ``"-x"`` -> (-1, x); ``"x"`` -> (1, x)."""
    if "*" in term:
        coef, metric = term.split("*", 1)
        return Decimal(coef.strip()), metric.strip()
    if term.startswith("-"):
        return Decimal(-1), term[1:].strip()
    return Decimal(1), term.strip()


def by_period(facts: Iterable[Fact]) -> dict[PeriodKey, dict[str, Fact]]:
    """The stored choice (one fact per key, most precise) of us_gaap facts, by period."""
    grouped: dict[PeriodKey, dict[str, Fact]] = {}
    for f in select_stored_facts([f for f in facts if f.basis == IDENTITY_BASIS]):
        grouped.setdefault((f.period_start, f.period_end), {})[f.metric] = f
    return grouped


def _sorted_periods(grouped: dict[PeriodKey, dict[str, Fact]]) -> list[PeriodKey]:
    return sorted(grouped, key=lambda k: (k[1], k[0] or k[1]))


def _side(terms: Sequence[tuple[Decimal, Fact]]) -> tuple[str, Decimal, Decimal]:
    """Label, total and rounding tolerance of a weighted sum of figures."""
    label = " + ".join(f.metric if c == 1 else f"{c} * {f.metric}" for c, f in terms)
    total = sum((c * f.value for c, f in terms), Decimal(0))
    tol = sum((abs(c) * half_unit(f.decimals) for c, f in terms), Decimal(0))
    return label, total, tol


def _figures(facts: Iterable[Fact]) -> tuple[Figure, ...]:
    return tuple(Figure(f.metric, f.value, f.decimals) for f in facts)


def identity_rule(name: str, meta: dict[str, Any], facts: list[Fact], ctx: Context) -> RuleOutput:
    """sum(lhs terms) = sum(rhs terms), each term ``metric`` or ``k*metric``."""
    lhs_terms = [parse_term(t) for t in meta["lhs"]]
    rhs_terms = [parse_term(t) for t in meta["rhs"]]
    metrics = [m for _, m in lhs_terms + rhs_terms]
    out = RuleOutput([], [])
    grouped = by_period(facts)
    for key in _sorted_periods(grouped):
        present = grouped[key]
        if not _complete(key, present, metrics, out):
            continue
        lhs = _side([(c, present[m]) for c, m in lhs_terms])
        rhs = _side([(c, present[m]) for c, m in rhs_terms])
        row = CheckRow(
            name, period_label(key), lhs[0], lhs[1], rhs[0], rhs[1], lhs[2] + rhs[2],
            _figures(present[m] for m in metrics), unit=unusual_currency(present.values()),
        )  # fmt: skip
        out.rows.append(row)
    return out


def unusual_currency(facts: Iterable[Fact]) -> str:
    """The one currency of these facts when it is not their metrics' registered one ("USD"
    for a US issuer's balance sheet); "" when it is, or when they mix currencies."""
    units = {f.unit.partition("/")[0] for f in facts}
    known = metrics()
    usual = {known[f.metric].unit.partition("/")[0] for f in facts if f.metric in known}
    if len(units) != 1 or units == usual:
        return ""
    (unit,) = units
    return unit if len(unit) == 3 and unit.isupper() else ""


def _complete(
    key: PeriodKey, present: dict[str, Fact], metrics: list[str], out: RuleOutput
) -> bool:
    absent = [m for m in metrics if m not in present]
    if absent and len(absent) < len(metrics):  # a period with none of them is unrelated
        out.skipped.append(f"{period_label(key)}: missing {', '.join(absent)}")
    return not absent


def ratio_rule(name: str, meta: dict[str, Any], facts: list[Fact], ctx: Context) -> RuleOutput:
    """result = factor x numerator / denominator (margins), within both roundings."""
    result, num_m, den_m = meta["result"], meta["numerator"], meta["denominator"]
    factor = Decimal(str(meta.get("factor", 100)))
    out = RuleOutput([], [])
    grouped = by_period(facts)
    for key in _sorted_periods(grouped):
        present = grouped[key]
        if not _complete(key, present, [result, num_m, den_m], out):
            continue
        r, n, d = present[result], present[num_m], present[den_m]
        if d.value == 0:
            out.skipped.append(f"{period_label(key)}: {den_m} is zero")
            continue
        expected = (factor * n.value / d.value).quantize(_RATIO_STEP)
        # First-order error of the quotient from the rounding of each input, plus our rounding.
        spread = factor * (half_unit(n.decimals) / abs(d.value))
        spread += factor * abs(n.value) * half_unit(d.decimals) / (d.value * d.value)
        tol = half_unit(r.decimals) + spread + _RATIO_STEP
        row = CheckRow(
            name, period_label(key), result, r.value, f"{factor} * {num_m} / {den_m}",
            expected, tol.quantize(_RATIO_STEP, rounding=ROUND_CEILING), _figures((r, n, d)),
        )  # fmt: skip
        out.rows.append(row)
    return out


def narrative_rule(name: str, meta: dict[str, Any], facts: list[Fact], ctx: Context) -> RuleOutput:
    """A figure quoted in the text agrees with the table's figure to the text's rounding."""
    tables: dict[tuple[Any, ...], list[Fact]] = {}
    for f in facts:
        if f.origin == Origin.TABLE:
            tables.setdefault((*f.key, f.unit), []).append(f)
    out = RuleOutput([], [])
    seen: set[tuple[Any, ...]] = set()
    for n in facts:
        if n.origin != Origin.NARRATIVE:
            continue
        for t in tables.get((*n.key, n.unit), []):
            if (n.key, n.value, t.value) in seen:
                continue
            seen.add((n.key, n.value, t.value))
            subject = f"{n.metric} {period_label((n.period_start, n.period_end))}"
            tol = half_unit(n.decimals) + half_unit(t.decimals)
            figures = (Figure(f"narrative {n.provenance.raw_text!r}", n.value, n.decimals),)
            out.rows.append(
                CheckRow(
                    name, subject, Origin.NARRATIVE, n.value, Origin.TABLE, t.value, tol, figures
                )
            )
    return out


def usd_rule(name: str, meta: dict[str, Any], facts: list[Fact], ctx: Context) -> RuleOutput:
    """The USD convenience figure times the stated rate is the RMB figure."""
    out = RuleOutput([], [])
    if ctx.usd_rate is None or not ctx.usd_facts:
        if ctx.usd_facts:
            out.skipped.append("document: no stated RMB/USD rate")
        return out
    rmb = {f.key: f for f in select_stored_facts(facts)}
    rate = ctx.usd_rate
    for u in ctx.usd_facts:
        c = rmb.get(u.key)
        if c is None:
            continue
        subject = f"{u.metric} {period_label((u.period_start, u.period_end))}"
        tol = rate * half_unit(u.decimals) + half_unit(c.decimals)
        figures = (Figure(f"USD {u.metric}", u.value, u.decimals), Figure("rate", rate))
        out.rows.append(
            CheckRow(name, subject, f"USD x {rate}", u.value * rate, "RMB", c.value, tol, figures)
        )
    return out


def guidance_rule(name: str, meta: dict[str, Any], facts: list[Fact], ctx: Context) -> RuleOutput:
    """Guidance low is not above guidance high."""
    rows = [
        CheckRow(
            name,
            f"{g.metric} {period_label((g.period_start, g.period_end))}",
            "low",
            g.low,
            "high",
            g.high,
            Decimal(0),
            one_sided=True,
        )  # fmt: skip
        for g in ctx.guidance
        if g.low is not None and g.high is not None
    ]
    return RuleOutput(rows, [])


DAMAGE_MARK = "damaged figure"


def damaged_text_rule(
    name: str, meta: dict[str, Any], facts: list[Fact], ctx: Context
) -> RuleOutput:
    """No printed figure was refused as damaged text (e.g. "RMB71.860 million").

    The extractor never stores such a figure; this check makes the damage a finding a person
    sees (a warning: the document's other figures are sound and still publish).
    """
    rows = [
        CheckRow(name, f"{row.reason} at {row.locator}", "damaged figures", Decimal(1),
                 "allowed", Decimal(0), Decimal(0), one_sided=True)
        for row in ctx.refused
        if DAMAGE_MARK in row.reason
    ]  # fmt: skip
    if not rows:  # evaluated and clean, not "nothing to compare"
        rows = [CheckRow(name, "all printed figures", "damaged figures", Decimal(0),
                         "allowed", Decimal(0), Decimal(0), one_sided=True)]  # fmt: skip
    return RuleOutput(rows, [])


def core_metrics_rule(
    name: str, meta: dict[str, Any], facts: list[Fact], ctx: Context
) -> RuleOutput:
    """A results document reports every core metric (1 required vs 1 present / 0 absent)."""
    if ctx.kind not in RESULTS_KINDS:
        return RuleOutput([], [])
    present = {f.metric for f in facts if f.basis == IDENTITY_BASIS}
    rows = [
        CheckRow(name, metric, "required", Decimal(1), "reported", Decimal(int(metric in present)),
                 Decimal(0))
        for metric in meta["metrics"]
    ]  # fmt: skip
    return RuleOutput(rows, [])
