"""A document's statement figures, proved: each published figure says how (domain/proofs).

The rows' own arithmetic (domain/arithmetic: totals equal the rows above them) ties each
row; the identities between standard metrics tie the figures mapped from them; a narrative
figure of the same metric, period and unit, agreeing to its printed precision, is a witness.
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.arithmetic import columns, prove
from domain.metrics import metrics
from domain.pershare import PerShareBasis
from domain.precision import agrees
from domain.proofs import Proven, prove_facts
from domain.records import Fact
from domain.rowrecords import StatementRow
from tasks.parsers.statements.standard import row_facts


def row_ties(rows: Sequence[StatementRow]) -> dict[int, str]:
    """Row index -> how its statement's arithmetic ties its figure (a column whose totals
    disagree with its rows ties nothing)."""
    ties: dict[int, str] = {}
    for column, lines in columns(rows).items():
        ties.update(prove(lines, column.startswith("balance")).ties)
    return ties


def prove_document(
    facts: Sequence[Fact],
    rows: Sequence[StatementRow],
    witnesses: Sequence[Fact] = (),
    bases: Sequence[PerShareBasis] = (),
) -> tuple[Proven, dict[int, str]]:
    """The facts to publish (each with ``proved_by``), those held back and the verdicts; and
    the rows' ties. ``witnesses`` are the document's narrative figures, ``bases`` what its EPS
    note says each EPS is of."""
    ties = row_ties(rows)
    by_fact = {id(fact): ties[i] for i, fact in row_facts(rows, facts).items() if i in ties}
    seen = {id(f): how for f in facts if (how := _witness(f, witnesses))}
    statement_of = {m: d.statement for m, d in metrics().items()}
    return prove_facts(facts, statement_of, by_fact, seen, bases), ties


def _witness(fact: Fact, witnesses: Sequence[Fact]) -> str:
    """How a narrative figure states ``fact`` (same metric, period and unit), or ""."""
    for other in witnesses:
        same = (other.metric, other.period_start, other.period_end, other.unit)
        if same == (fact.metric, fact.period_start, fact.period_end, fact.unit) and agrees(
            fact.value, other.value, other.decimals
        ):
            return f"witness: the document's text ({other.provenance.raw_text[:80]})"
    return ""
