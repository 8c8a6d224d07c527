"""QFIN's seeds through a whole replay run: line_items holds every statement row each document
yields, as printed, and each row the catalog read carries its fact's metric (both databases)."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from sqlalchemy import select

from domain.enums import Origin
from domain.metrics import figure_period, metrics
from domain.records import StoredFile
from flows.ingest import ingest
from storage import db
from storage.schema import document_files, facts
from storage.views import LINE_ITEMS
from tasks.extract import extract_document
from tasks.sources.replay import ReplayServer, default_archive_root

ARCHIVE = default_archive_root()


@pytest.fixture
def replayed(monkeypatch, tmp_path, db_url):
    monkeypatch.setenv("FILINGS_DATABASE_URL", db_url)
    monkeypatch.setenv("FILINGS_DATA_DIR", str(tmp_path))
    with ReplayServer(ARCHIVE) as server:
        for name in ("FILINGS_SEC_DATA_URL", "FILINGS_SEC_ARCHIVES_URL", "FILINGS_HKEX_URL"):
            monkeypatch.setenv(name, server.url)
        monkeypatch.setenv("FILINGS_HKEX_SECONDS_BETWEEN_REQUESTS", "0")
        assert ingest().ingested == 9
    engine = db.make_engine(db_url)
    yield engine
    engine.dispose()


def _read_again(document_id: str, names: list[str]) -> list[tuple[StoredFile, bytes]]:
    """The document's files as the replay archive holds them (by the manifest)."""
    manifest = json.loads((ARCHIVE / "manifest.json").read_text(encoding="utf-8"))
    source, _, source_id = document_id.partition(":")
    entry = next(d for d in manifest["documents"] if (d["source"], d["id"]) == (source, source_id))
    paths = {f["name"]: ARCHIVE / f["path"] for f in entry["files"]}
    return [(StoredFile(n, "", "", 0, ""), paths[n].read_bytes()) for n in names]


def test_line_items_are_every_statement_row_of_every_seed(replayed) -> None:
    with replayed.connect() as conn:
        stored = conn.execute(select(document_files.c.document_id, document_files.c.name)).all()
        items = conn.execute(select(LINE_ITEMS).where(LINE_ITEMS.c.issuer == "QFIN")).all()
        table_facts = conn.execute(
            select(facts.c.metric, facts.c.period_start, facts.c.period_end, facts.c.value)
            .where(facts.c.origin == Origin.TABLE)
        ).all()  # fmt: skip
    by_document: dict[str, list[str]] = {}
    for document_id, name in stored:
        by_document.setdefault(document_id, []).append(name)
    expected: Counter[tuple[object, ...]] = Counter()
    for document_id, names in sorted(by_document.items()):
        extraction = extract_document(document_id, _read_again(document_id, names), "QFIN")
        for r in extraction.rows:
            expected[(document_id, str(r.statement), r.row_label, r.period_end, r.value)] += 1
    got = Counter((i.document_id, i.statement, i.label, i.period_end, i.value) for i in items)
    assert sum(expected.values()) > 500  # the seeds' statements were read
    assert got == expected
    # Every table fact is a mapped line item (a fact may be stored positive where the row is
    # printed in parentheses, as an instant where the row is a period's closing balance, and
    # as of the day before its column's period where the row is the opening balance).
    mapped = {
        (i.metric, at[1], abs(i.value))
        for i in items
        if i.metric and (at := figure_period(metrics()[i.metric], i.period_start, i.period_end))
    }
    assert {(f.metric, f.period_end, abs(f.value)) for f in table_facts} <= mapped
