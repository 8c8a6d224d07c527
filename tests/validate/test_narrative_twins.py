"""Narrative figures that repeat a table figure reach GX through the flow's real path.

extract_document stores one fact per key (the table figure wins); the narrative twin it sets
aside is validated with the facts by validate_document, so ``narrative_matches_table``
compares every figure the text quotes with the table's.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import select
from sqlalchemy.engine import Engine

from domain.enums import RESULTS_KINDS, Status
from domain.precision import select_stored_facts as one_per_key
from domain.records import (
    DocumentRef,
    Extraction,
    Issuer,
    StoredFile,
    ValidationResult,
    quarantine_required,
)
from storage.documents import record_documents, upsert_issuers
from storage.loading import load_document
from storage.schema import documents
from tasks.extract import extract_document
from tasks.sources.replay import default_archive_root
from tasks.validate import revalidate_document, validate_document

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
Q2_2024 = "sec/0001741530/0001104659-24-088431/tm2421456d1_ex99-1.htm"
SEEDS = sorted((FIXTURES / "seeds").glob("*.txt"))
CHECK = "narrative_matches_table"
# The Q2 2024 exhibit prints this twice; its table holds 4,160,063 thousand.
PRINTED = b"Total net revenue was RMB4,160.1 million"
CONTRADICTING = b"Total net revenue was RMB4,260.1 million"
QFIN = Issuer("QFIN", "Qifu Technology, Inc.", "0001741530", "03660")


def status_reason(engine: Engine, document_id: str) -> str:
    with engine.connect() as conn:
        where = documents.c.document_id == document_id
        return str(conn.execute(select(documents.c.status_reason).where(where)).scalar_one())


def extract(name: str, content: bytes) -> Extraction:
    stored = StoredFile(name, f"file:///{name}", "sha", len(content), "test")
    return extract_document(f"test:{name}", [(stored, content)], "QFIN")


def validate(engine: Engine, extraction: Extraction) -> dict[str, ValidationResult]:
    """The flow's validate step, on a warehouse that knows the document."""
    source_id = extraction.document.split(":", 1)[1]
    ref = DocumentRef("local", source_id, "QFIN", "6-K", source_id, datetime.now(UTC), "x")
    with engine.begin() as conn:
        upsert_issuers(conn, [QFIN])
        record_documents(conn, [ref])
    results = validate_document(engine, ref.document_id, extraction)
    return {r.expectation: r for r in results}


@pytest.fixture(scope="module")
def q2_exhibit() -> bytes:
    content = (default_archive_root() / Q2_2024).read_bytes()
    assert content.count(PRINTED) == 2
    return content


def test_twins_are_set_aside_and_stored_facts_stay_one_per_key(q2_exhibit: bytes) -> None:
    extraction = extract("q2.htm", q2_exhibit)
    keys = [f.key for f in extraction.facts]
    assert len(keys) == len(set(keys))
    assert extraction.narrative_twins  # the text repeats table figures
    assert {f.origin for f in extraction.narrative_twins} == {"narrative"}
    stored = {f.key: f for f in extraction.facts}
    assert all(stored[t.key].origin == "table" for t in extraction.narrative_twins)
    # The warehouse still gets exactly the old choice: one fact per key, the table's.
    assert one_per_key([*extraction.facts, *extraction.narrative_twins]) == list(extraction.facts)


@pytest.mark.parametrize("seed", SEEDS, ids=lambda p: p.stem)
def test_seed_narratives_agree_with_their_tables(engine: Engine, seed: Path) -> None:
    extraction = extract(seed.name, seed.read_bytes())
    result = validate(engine, extraction)[CHECK]
    assert result.success, result.observed
    if extraction.kind not in RESULTS_KINDS:  # the dividend form quotes no statement
        assert not extraction.narrative_twins and result.observed.startswith("not evaluated")
        return
    evaluated = re.match(r"(\d+) period\(s\) evaluated, 0 outside tolerance", result.details)
    assert evaluated and int(evaluated[1]) >= 10, result.details


def test_contradicting_narrative_figure_fails_and_quarantines(
    engine: Engine, q2_exhibit: bytes
) -> None:
    honest = extract("q2.htm", q2_exhibit)
    # Both places: a figure the text contradicts itself on never leaves the parser.
    altered = extract("q2-altered.htm", q2_exhibit.replace(PRINTED, CONTRADICTING))
    # Only the text changed: the stored facts are the same table figures.
    assert [(f.key, f.value) for f in altered.facts] == [(f.key, f.value) for f in honest.facts]
    results = validate(engine, altered)
    result = results[CHECK]
    assert not result.success and result.severity == "critical"
    assert "1 outside tolerance" in result.details
    assert result.observed == (
        "total_net_revenue 2024-04-01..2024-06-30: narrative 4260100000 vs table 4160063000 "
        "(diff 100037000, tolerance 50500)"
    )
    assert "'RMB4,260.1 million'" in result.details
    assert quarantine_required(list(results.values()))


def test_revalidation_keeps_what_only_the_text_showed(engine: Engine, q2_exhibit: bytes) -> None:
    altered = extract("q2.htm", q2_exhibit.replace(PRINTED, CONTRADICTING))
    first = validate(engine, altered)
    assert not first[CHECK].success
    document_id = "local:q2.htm"
    results = list(first.values())
    load_document(engine, document_id, altered.facts, results, quarantine=True)
    again = revalidate_document(engine, document_id)
    # Only stored facts are read back (no narrative twin): no crash, and the contradiction
    # seen at extraction is kept, so a revalidation does not publish the document.
    kept = {r.expectation: r for r in again.results}[CHECK]
    assert (kept.success, kept.observed) == (False, first[CHECK].observed)
    assert "its inputs are not stored" in kept.details
    assert again.status is Status.QUARANTINED
    assert status_reason(engine, document_id) == f"failed: {CHECK}"


def test_revalidation_of_an_honest_text_keeps_its_pass(engine: Engine, q2_exhibit: bytes) -> None:
    extraction = extract("q2.htm", q2_exhibit)
    first = validate(engine, extraction)
    assert first[CHECK].success and "outside tolerance" in first[CHECK].details
    document_id = "local:q2.htm"
    results = list(first.values())
    load_document(engine, document_id, extraction.facts, results, quarantine=False)
    again = revalidate_document(engine, document_id)
    kept = {r.expectation: r for r in again.results}[CHECK]
    assert kept.success and kept.observed == first[CHECK].observed
    assert again.status is Status.LOADED


def test_revalidation_keeps_the_damaged_text_warning(engine: Engine, q2_exhibit: bytes) -> None:
    # The Q2 2024 exhibit's refused figures ("RMB71.860 million") are never stored: read back,
    # the stored facts alone would pass no_damaged_text_figures vacuously.
    extraction = extract("q2.htm", q2_exhibit)
    first = validate(engine, extraction)
    damage = first["no_damaged_text_figures"]
    assert not damage.success and damage.severity == "warning"
    document_id = "local:q2.htm"
    results = list(first.values())
    load_document(engine, document_id, extraction.facts, results, quarantine=False)
    again = {r.expectation: r for r in revalidate_document(engine, document_id).results}
    kept = again["no_damaged_text_figures"]
    assert (kept.success, kept.observed) == (False, damage.observed)
    assert "its inputs are not stored" in kept.details
