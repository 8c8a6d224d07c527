"""Many documents in one Great Expectations run: each document's results are exactly the
ones it gets validated alone (its own failing rows only, its own gate decision)."""

from __future__ import annotations

from pathlib import Path

import pytest

from domain.records import Fact, ValidationResult, quarantine_required
from expectations.rules import Context
from tasks.extract import extract_file
from tasks.runs.docs_sites import build_data_docs
from tasks.sources.replay import default_archive_root
from tasks.validate import Subject, validate_facts, validate_many

from .qfin_facts import DEC24, Q4_23, altered, fact

REAL = (
    "sec/0001741530/0001104659-24-032436/tm248123d1_ex99-1.htm",
    "hkex/03660/11480512.pdf",
)


def _real(name: str) -> Subject:
    path = default_archive_root() / name
    extraction = extract_file(path.name, path.read_bytes(), "QFIN")
    facts = [*extraction.facts, *extraction.narrative_twins]
    return Subject(f"replay:{path.name}", facts, Context.of_extraction(path.name, extraction))


@pytest.fixture(scope="module")
def subjects(good_facts: list[Fact]) -> list[Subject]:
    conflicting = fact("total_assets", "48,132,000", (None, DEC24))
    return [
        Subject("hkex:good", good_facts),
        # fails balance_sheet_balances on one row (a critical identity): quarantined alone
        Subject(
            "hkex:broken", altered(good_facts, "total_liabilities_and_equity", DEC24, -(10**6))
        ),
        Subject("hkex:empty", []),
        # fails an identity on another period, and the structure suite (a duplicate key)
        Subject(
            "hkex:messy",
            [*altered(good_facts, "financing_income", Q4_23[1], 10**6, Q4_23[0]), conflicting],
        ),
        *(_real(name) for name in REAL),
        Subject("hkex:good-again", good_facts),  # the same rows as the first: no cross-talk
    ]


def _alone(subject: Subject) -> list[ValidationResult]:
    return validate_facts(subject.document_id, subject.facts, context=subject.context)


def test_each_document_gets_what_it_gets_alone(subjects: list[Subject]) -> None:
    together = validate_many(subjects)
    assert len(together) == len(subjects)
    for subject, results in zip(subjects, together, strict=True):
        assert results == _alone(subject), subject.document_id


def test_gate_decisions_are_each_documents_own(subjects: list[Subject]) -> None:
    results = validate_many(subjects)
    gates = {s.document_id: quarantine_required(r) for s, r in zip(subjects, results, strict=True)}
    assert gates["hkex:broken"] and gates["hkex:messy"]
    assert not gates["hkex:good"] and not gates["hkex:good-again"] and not gates["hkex:empty"]
    failed = {
        s.document_id: {r.expectation for r in rs if not r.success}
        for s, rs in zip(subjects, results, strict=True)
    }
    assert failed["hkex:broken"] == {"balance_sheet_balances"}
    assert "credit_driven_components_sum" in failed["hkex:messy"]
    assert "no_duplicate_facts" in failed["hkex:messy"]
    assert failed["hkex:good"] == set()


def test_declared_rules_apply_per_document(subjects: list[Subject]) -> None:
    plain, *_ = validate_many([subjects[0]])
    narrowed = validate_many([Subject(subjects[0].document_id, subjects[0].facts, declared=())])
    assert len(narrowed[0]) < len(plain)


def test_one_data_docs_site_holds_the_batch(subjects: list[Subject], tmp_path: Path) -> None:
    site = tmp_path / "run"
    validate_many(subjects[:3], docs_site=site)
    link = build_data_docs(site)
    index = Path(link.removeprefix("file://")).read_text(encoding="utf-8")
    assert "hkex:good and 2 more" in index  # the check suites' one run for the batch
    assert all(f"'run_name': '{s.document_id}'" in index for s in subjects[:3])  # facts suites
