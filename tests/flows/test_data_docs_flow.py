"""Data Docs in the flows: one site per run, built once at its end, valid after later runs."""

from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from sqlalchemy import select

from expectations import runner
from flows.ingest import ingest_local
from storage.schema import documents
from tasks.sources.replay import default_archive_root

ARCHIVE = default_archive_root()
EXHIBITS = sorted((ARCHIVE / "sec/0001741530").glob("*/*ex99*.htm"))[:2]
# QFIN's FY2024 results announcement as text: a release the exhibits above are not
ANOTHER = (
    Path(__file__).resolve().parents[1] / "fixtures/seeds/hkex_03660_2025-03-17_q4-2024-results.txt"
)


@pytest.fixture
def env(sqlite_warehouse):
    return sqlite_warehouse


@pytest.fixture
def builds(monkeypatch):
    """Every site the runner builds."""
    seen = []
    original = runner.build_docs

    def spy(docs_site):
        seen.append(docs_site)
        return original(docs_site)

    monkeypatch.setattr(runner, "build_docs", spy)
    return seen


def _another_copy(tmp_path, tag):
    """A release the first run did not load, as a file of its own: ingested, not a repeat
    (a copy of a loaded one is recognised as that release and not loaded again)."""
    copy = tmp_path / f"copy-{tag}.txt"
    copy.write_bytes(ANOTHER.read_bytes() + f"\n{tag}\n".encode())
    return str(copy)


def _path(link):
    return Path(unquote(urlsplit(link).path))


def _pages_by_document(site):
    return {p.parts[-3] for p in (site / "validations").rglob("*.html")}


def test_each_local_run_links_its_own_site_which_outlives_the_next_run(env, tmp_path, builds):
    first = ingest_local([str(p) for p in EXHIBITS])
    with env.connect() as conn:
        ids = set(conn.execute(select(documents.c.document_id)).scalars())
    assert len(ids) == len(EXHIBITS)
    site = Path(first.data_docs_dir)
    assert site.parent == tmp_path / "data_docs"
    assert first.data_docs == (site / "index.html").as_uri()
    assert f"data docs: {first.data_docs}" in first.render()
    assert builds == [site]  # once for the run, not once per document
    assert _pages_by_document(site) == ids
    assert runner.held_results() == 0  # the built run's results are forgotten

    second = ingest_local([_another_copy(tmp_path, "second")])
    assert second.data_docs != first.data_docs and _path(second.data_docs).is_file()
    index = _path(first.data_docs).read_text(encoding="utf-8")
    assert all(f"'run_name': '{d}'" in index for d in ids)
    assert _pages_by_document(site) == ids
    runs = (tmp_path / "data_docs" / "index.html").read_text(encoding="utf-8")
    assert runs.index(Path(second.data_docs_dir).name) < runs.index(site.name)


def test_a_run_deletes_sites_older_than_the_configured_days(env, tmp_path, monkeypatch):
    root = tmp_path / "data_docs"
    old = root / "20000101T000000Z-0a0b0c0d"  # a site from long ago
    (old / "static").mkdir(parents=True)
    (old / "index.html").write_text("<html></html>", encoding="utf-8")
    monkeypatch.setenv("FILINGS_DATA_DOCS_KEEP_DAYS", "30")
    summary = ingest_local([_another_copy(tmp_path, "keep30")])
    assert _path(summary.data_docs).is_file()
    assert not old.exists()
    assert old.name not in (root / "index.html").read_text(encoding="utf-8")


def test_keep_days_zero_keeps_old_sites(env, tmp_path, monkeypatch):
    old = tmp_path / "data_docs" / "20000101T000000Z-0a0b0c0d"
    old.mkdir(parents=True)
    monkeypatch.setenv("FILINGS_DATA_DOCS_KEEP_DAYS", "0")
    ingest_local([_another_copy(tmp_path, "keep0")])
    assert old.exists()
