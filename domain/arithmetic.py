"""A statement's reading proves itself: its totals equal the rows above them.

Rows are taken in printed order, one column (period) at a time, money rows only. A running
stack holds the figures not yet summed: a row is *proved* when the figures just above it on
the stack add up to it, either as a sum (IFRS signs: "Revenue", "(Cost of sales)", "Gross
profit") or as the first less the rest (US and HK signs: "Total current assets" less "Total
current liabilities" is "Net current assets"); its figures are then replaced by it. So "Gross
profit" proves from revenue and cost of sales, "Total assets less current liabilities" from
the non-current assets' subtotal and net current assets, and a balance sheet balances when its
last two figures are equal (net assets and total equity; total assets and total liabilities
and equity). A row that *must* be a total (unlabelled, or labelled total / net assets / 總額 /
合計 ..., or an income statement's subtotal: gross profit, operating profit, profit before
tax, profit for the year / 毛利, 除稅前溢利, 年內溢利) and is not proved is a disagreement: its
printed figure and the nearest sum.

Pure and standard library only: the statement gate (expectations/gate.py) judges with it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal

from domain.rowrecords import StatementKind, StatementRow

# a row that states a total: unlabelled subtotals, "Total ...", "... total", net assets, net
# current assets/liabilities, and Chinese totals (總額, 總值, 總計, 合計, 淨值)
_TOTAL = re.compile(
    r"^(?:total\b|net (?:current )?(?:assets|liabilities)\b)|\btotals?$"
    r"|[總总](?:額|额|值|計|计)|合[計计]|[淨净]值|[總总]資[產产]$",
    re.IGNORECASE,
)
# ... and the subtotals an income statement prints down the page: gross profit, operating
# profit, profit before tax and for the period ("Profit for the year", not "... attributable
# to owners": a share of it)
_SUBTOTAL = re.compile(
    r"^(?:gross (?:\(loss\) )?profit|(?:\(loss\) )?(?:profit|loss)(?: \((?:loss|profit)\))?"
    r" (?:before tax(?:ation)?|for the (?:year|period))|(?:income|loss) from operations"
    r"|operating (?:profit|income)|(?:income|loss) before income tax(?:es| expense)?"
    r"|毛利|除[稅税]前(?:溢利|利[潤润])|[年期][內内](?:溢利|利[潤润])|[經经]營溢利)$",
    re.IGNORECASE,
)
_DEPTH = 24  # figures above a row a total may add up (Fullshare: 14 non-current, 16 current assets)
# statements whose rows add up to their totals down the page (a cash flow statement's
# adjustments and a reconciliation's do not, in any printed order we can rely on)
PROVED = (StatementKind.INCOME_STATEMENT, StatementKind.BALANCE_SHEET)


@dataclass(frozen=True, slots=True)
class Line:
    """One figure of a column: its label as printed, value in whole units, printed precision."""

    label: str
    value: Decimal
    decimals: int  # XBRL-style: -3 for a figure printed in thousands
    index: int = -1  # the row's position in the rows proved (:func:`columns`), -1: none


@dataclass(frozen=True, slots=True)
class Disagreement:
    """A total whose printed figure no run of the figures above it adds up to."""

    label: str
    printed: Decimal
    nearest: Decimal  # the sum (or difference) of the figures above closest to the printed one
    tolerance: Decimal  # the rounding allowed (one unit of the coarsest figure)


@dataclass(frozen=True, slots=True)
class Proof:
    """What a column's arithmetic shows."""

    proved: int  # totals equal to the figures above them
    unproved: int  # rows that must be totals and are not (judged or not)
    disagreements: tuple[Disagreement, ...]  # those judged: printed, yet not their rows' sum
    balanced: bool  # its last two figures agree (a balance sheet's two sides)
    ties: tuple[tuple[int, str], ...] = ()  # (row index, how its figure was tied) per row


def is_total(label: str) -> bool:
    """True when a row's label says it is a total (or it has none: an unlabelled subtotal)."""
    text = label.strip()
    return not text or _TOTAL.search(text) is not None or _SUBTOTAL.match(text) is not None


def prove(lines: Iterable[Line], balance_sheet: bool = False) -> Proof:
    """Prove one column's figures, in printed order.

    A total printed after totals only, its parts not printed ("TOTAL QIFU EQUITY" after
    "TOTAL LIABILITIES"), is a summary line: not judged when the balance sheet balances
    (or on an income statement). A column is judged only when it proves itself mostly (more
    than twice as many totals proved as disagreeing): a summary table (selected lines) is not.
    """
    stack: list[Line] = []
    ties: dict[int, str] = {}
    proved, since, failed, last = 0, 0, [], None
    for line in lines:
        total = is_total(line.label)
        depth = _proving_depth(stack, line, total)
        if depth:
            if depth > 0 or total:  # a plain line's difference ties nothing: any figure is one
                _tie(ties, line, stack[-abs(depth) :])
            if depth > 0:  # its parts are replaced by it (not a plain line's difference)
                del stack[-depth:]
            proved, since = proved + 1, 0
        else:
            if total and len(stack) >= 2:
                found = Disagreement(line.label, line.value, *_nearest(stack, line))
                failed.append((found, since == 0))
                if since:  # the totals below are checked against what its rows say
                    line = replace(line, value=found.nearest)
            since += 0 if total else 1  # plain lines since the last total proved
        stack.append(line)
        _fold_parent(stack, ties)
        last = line
    balanced = len(stack) >= 2 and abs(stack[-1].value - stack[-2].value) <= _slack(stack[-2:])
    wrong = [d for d, summary in failed if not (summary and (balanced or not balance_sheet))]
    closed = last is not None and is_total(last.label) and len(stack) >= 2
    if balance_sheet and closed and not balanced and not wrong and last is not None:
        other = stack[-2]  # the balance sheet's two sides differ
        wrong.append(Disagreement(last.label, last.value, other.value, _slack([other, last])))
    judged = proved > 2 * len(wrong)
    if balanced:
        _tie(ties, stack[-1], stack[-2:-1], "balances with")
    # a sum that held is a proof whatever else in the column disagrees (the gate judges that)
    return Proof(
        proved, len(failed), tuple(wrong) if judged else (), balanced, tuple(sorted(ties.items()))
    )


def _tie(ties: dict[int, str], total: Line, parts: Sequence[Line], verb: str = "") -> None:
    """Record that ``total`` equals ``parts`` (each part's tie names the total)."""
    name = total.label or "(unlabelled subtotal)"
    for part in parts:
        if part.index >= 0:
            ties.setdefault(part.index, f"{verb or 'adds up to'} {name!r}")
    if total.index >= 0:
        what = f"{verb} {parts[0].label or '(unlabelled subtotal)'!r}" if verb else ""
        ties.setdefault(total.index, what or f"the sum of the {len(parts)} figures above it")


def columns(rows: Iterable[StatementRow]) -> dict[str, list[Line]]:
    """A document's rows as the columns to prove: per statement title, period and currency,
    its money figures (those at the column's usual scale: not per-share amounts) in order."""
    grouped: dict[str, list[tuple[int, StatementRow]]] = {}
    for index, row in enumerate(rows):
        if row.statement in PROVED and row.currency:
            period = f"{row.period_start or ''}..{row.period_end}".lstrip(".")
            key = f"{row.statement.value.replace('_', ' ')} {period} {row.currency}"
            grouped.setdefault(key, []).append((index, row))
    found = {}
    for key, members in grouped.items():
        scales = Counter(r.scale for _, r in members)
        usual = scales.most_common(1)[0][0]
        # in printed order: a statement continued on the next page restarts its row numbers
        ordered = sorted((m for m in members if m[1].scale == usual), key=lambda m: m[0])
        found[key] = [Line(r.row_label, r.value, r.decimals, i) for i, r in ordered]
    return found


def _proving_depth(stack: list[Line], line: Line, total: bool) -> int:
    """How many figures just above ``line`` add up to it (0: none; at least two are needed).
    A row that is no total proves as a difference only of the two figures above it ("Gross
    profit" = sales less cost of sales), and then leaves them on the stack (-2): further up,
    any figure is some difference of the balance sheet's totals ("Retained earnings" = total
    assets less everything else; "Reserves" = net assets less share capital)."""
    for depth in range(2, min(len(stack), _DEPTH) + 1):
        above = stack[-depth:]
        total_of = sum((x.value for x in above), Decimal(0))
        difference = above[0].value - (total_of - above[0].value)
        slack = _slack([*above, line])
        if abs(total_of - line.value) <= slack:
            return depth
        if (total or depth == 2) and abs(difference - line.value) <= slack:
            return depth if total else -depth
    return 0


def _fold_parent(stack: list[Line], ties: dict[int, str]) -> None:
    """A figure printed above its parts ("Credit driven services" then its three lines): once
    the plain lines below it add up to it, they are folded into it (never totals: a balance
    sheet's total assets are not the parent of its liabilities and equity)."""
    running = Decimal(0)
    for position in range(len(stack) - 1, max(len(stack) - _DEPTH, 0) - 1, -1):
        parent, parts = stack[position], stack[position + 1 :]
        if len(parts) >= 2 and abs(running - parent.value) <= _slack(stack[position:]):
            if not any(is_total(p.label) for p in parts):
                _tie(ties, parent, parts)
                del stack[position + 1 :]
            return
        running += parent.value


def _nearest(stack: list[Line], line: Line) -> tuple[Decimal, Decimal]:
    """The sum or difference of the figures above closest to the printed one, and its slack."""
    candidates = []
    for depth in range(2, min(len(stack), _DEPTH) + 1):
        above = stack[-depth:]
        total = sum((x.value for x in above), Decimal(0))
        slack = _slack([*above, line])
        candidates += [(total, slack), (above[0].value - (total - above[0].value), slack)]
    return min(candidates, key=lambda c: abs(c[0] - line.value))


def _slack(lines: Sequence[Line]) -> Decimal:
    """Rounding allowed: one unit of the coarsest printed figure (a total of rounded figures
    may be a unit off their sum)."""
    return max(Decimal(10) ** -x.decimals for x in lines)
