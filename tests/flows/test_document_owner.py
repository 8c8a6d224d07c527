"""Whose document a run fetched: a document listed under one issuer that is another's is refused
in one line and nothing of it is stored, through the replay server and the ingest flow.

The generated universe files QFIN's real-shaped results (two 6-Ks with their exhibits, the HKEx
results PDF) again under a second issuer's CIK and stock code: exactly a filing listed under
issuer B whose documents name issuer A. Configured without the alias the universe gives it
(its documents print "Qifu Technology, Inc."), every one of B's documents is refused; with it,
they are read.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import func, select

from flows.ingest import ingest
from storage.schema import documents, facts, statement_rows
from tasks.sources.replay import ReplayServer
from tasks.sources.replay_universe import build_universe

ISSUERS = """
[[issuer]]
ticker = "QFIN"
name = "Qifu Technology, Inc."
cik = "0001741530"
hkex_code = "03660"

[[issuer]]
ticker = "U0001"
name = "Universe Issuer 0001"
cik = "0009000001"
hkex_code = "10001"
"""


@pytest.fixture
def listed_as_another(monkeypatch, tmp_path, configured_warehouse):
    root = tmp_path / "universe"
    build_universe(root, 2, 1, datetime(2024, 3, 12, 8, 0, tzinfo=UTC))
    engine = configured_warehouse(ISSUERS)
    with ReplayServer(root) as server:
        monkeypatch.setenv("FILINGS_SINCE", "2024-01-01")
        for name in ("FILINGS_SEC_DATA_URL", "FILINGS_SEC_ARCHIVES_URL", "FILINGS_HKEX_URL"):
            monkeypatch.setenv(name, server.url)
        monkeypatch.setenv("FILINGS_HKEX_SECONDS_BETWEEN_REQUESTS", "0")
        yield engine, tmp_path / "issuers.toml"


def _by_issuer(engine, table):
    with engine.connect() as conn:
        rows = conn.execute(
            select(documents.c.issuer, func.count())
            .select_from(table.join(documents, table.c.document_id == documents.c.document_id))
            .group_by(documents.c.issuer)
        )
        return dict(rows.all())


def test_documents_listed_under_another_issuer_are_refused_and_nothing_is_stored(
    listed_as_another,
) -> None:
    engine, _ = listed_as_another
    summary = ingest(issuers=["QFIN", "U0001"])
    why = "refused, nothing stored: it does not name U0001 (Universe Issuer 0001, HKEx 10001)"
    assert sorted(summary.failed) == [  # one line each: the document, and whom it names instead
        f"hkex:3000001000 {why} (it names QFIN, stock code 3660)",
        f"sec:0009000001-24-000001 {why} (it names QFIN)",
    ], summary.render()
    with engine.connect() as conn:
        b_documents = conn.execute(
            select(documents.c.status, documents.c.status_reason).where(
                documents.c.issuer == "U0001"
            )
        ).all()
    assert {status for status, _ in b_documents} == {"failed"}
    assert all(reason.startswith("refused: it does not name U0001") for _, reason in b_documents)
    # nothing of B's documents is stored; A's own documents are read as before
    assert "U0001" not in _by_issuer(engine, facts)
    assert "U0001" not in _by_issuer(engine, statement_rows)
    assert _by_issuer(engine, facts)["QFIN"] > 0

    again = ingest(issuers=["QFIN", "U0001"])  # a refusal is final: not fetched nor read again
    assert again.ok and (again.new, again.ingested) == (0, 0), again.render()


def test_with_the_name_its_documents_print_as_an_alias_they_are_read(listed_as_another) -> None:
    engine, issuers = listed_as_another
    issuers.write_text(
        ISSUERS + 'aliases = ["Qifu Technology, Inc."]\n', encoding="utf-8"
    )  # the alias belongs to the last table: U0001
    summary = ingest(issuers=["U0001"])
    assert summary.ok and summary.ingested == 2, summary.render()
    assert _by_issuer(engine, facts)["U0001"] > 0
