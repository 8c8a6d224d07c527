"""A hand-dropped file is parsed once: the command line identifies it before its flow, the
flow identifies it again and then extracts it, all from the same bytes (tasks.extract keeps
the last parse). Real HKEx results PDF of QFIN, SQLite."""

from __future__ import annotations

from datetime import date

import pytest

from flows.ingest import ingest_local
from tasks import extract
from tasks.config.settings import load_settings
from tasks.parsers.documents import pdf
from tasks.sources.replay import default_archive_root

RESULTS_PDF = default_archive_root() / "hkex" / "03660" / "11480512.pdf"


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_a_hand_dropped_pdf_is_parsed_once(configured_warehouse, monkeypatch, tmp_path):
    configured_warehouse((default_archive_root() / "issuers.toml").read_text(encoding="utf-8"))
    dropped = tmp_path / RESULTS_PDF.name
    dropped.write_bytes(RESULTS_PDF.read_bytes())
    calls = []
    real = pdf.parse_pdf
    monkeypatch.setattr(pdf, "parse_pdf", lambda *a: calls.append(a[0]) or real(*a))
    extract._parsed.cache_clear()  # what an earlier test parsed last
    # the command line's check before the flow, then the flow
    configured = load_settings().issuers()
    extract.inspect_local_file(dropped, configured, "QFIN", date(2025, 3, 17))
    summary = ingest_local(paths=[str(dropped)], issuer="QFIN", published=date(2025, 3, 17))
    assert summary.ingested == 1 and summary.facts_loaded > 100, summary.render()
    assert calls == [dropped.name]
