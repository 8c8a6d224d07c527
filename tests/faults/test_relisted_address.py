"""A document that failed takes the address its source lists now, not the one it was first
listed with.

Issue 25's probe: an HKEx document whose first listing had a bad ``FILE_LINK`` kept that URL;
after the listing was corrected every rerun failed with the old 404 (3 of 3) and its facts
never arrived. The replay server plays HKEx's title search in its wire format; the first run
sees the bad link, the next sees the corrected listing (SQLite and PostgreSQL warehouses).
"""

from __future__ import annotations

import json
import shutil
from datetime import UTC, date, datetime

import pytest
from sqlalchemy import select, text

from domain.enums import Status
from domain.records import DocumentRef, Issuer
from flows.ingest import ingest
from storage import db
from storage.documents import record_documents, set_status, upsert_issuers
from storage.schema import documents
from tasks.sources.replay import Answer, ReplayServer, default_archive_root

ROWS = default_archive_root() / "hkex" / "03660" / "titlesearch_rows.json"
NEWS_ID = "11480512"  # QFIN's 2024 annual results announcement (English)
BAD_LINK = "/listedco/listconews/sehk/2025/0317/2025031799999.pdf"


@pytest.mark.usefixtures("prefect_api", "no_retry_delays")
class TestFailedDocumentTakesTheLatestListing:
    def test_corrected_file_link_is_fetched_next_run(self, run_env, tmp_path, monkeypatch):
        url = run_env("relisted")
        archive = tmp_path / "archive"
        shutil.copytree(default_archive_root(), archive)
        rows_file = archive / "hkex" / "03660" / "titlesearch_rows.json"
        rows = json.loads(rows_file.read_text())
        good = next(r for r in rows if r["NEWS_ID"] == NEWS_ID)
        rows_file.write_text(
            json.dumps([dict(r, FILE_LINK=BAD_LINK) if r is good else r for r in rows])
        )
        with ReplayServer(archive) as hkex:
            monkeypatch.setenv("FILINGS_HKEX_URL", hkex.url)
            hkex.inject(BAD_LINK, *[Answer(404, b"<html><body>404 Not Found</body></html>")] * 20)
            first = ingest(issuers=["QFIN"], sources=["hkex"])
            failed = [f for f in first.failed if f.startswith(f"hkex:{NEWS_ID}")]
            assert failed and hkex.requests(BAD_LINK), first.failed
            rows_file.write_text(json.dumps(rows))  # HKEx corrects its listing
            # a rerun lists the document again (a backfill from 2025)
            second = ingest(issuers=["QFIN"], sources=["hkex"], since=date(2025, 1, 1))
            assert not [f for f in second.failed if f.startswith(f"hkex:{NEWS_ID}")], second
            assert hkex.requests(good["FILE_LINK"])
        engine = db.make_engine(url)
        try:
            with engine.connect() as conn:
                row = conn.execute(
                    select(documents.c.url, documents.c.status).where(
                        documents.c.document_id == f"hkex:{NEWS_ID}"
                    )
                ).one()
                facts = conn.execute(
                    text("SELECT count(*) FROM facts WHERE document_id = :d"),
                    {"d": f"hkex:{NEWS_ID}"},
                ).scalar_one()
        finally:
            engine.dispose()
        assert row.url.endswith(good["FILE_LINK"]) and row.status == "loaded", row
        assert facts > 0


def _ref(url: str) -> DocumentRef:
    return DocumentRef(
        source="hkex",
        source_id=NEWS_ID,
        issuer="QFIN",
        form="announcement",
        title="Annual results",
        published_at=datetime(2025, 3, 17, 5, 58, tzinfo=UTC),
        url=url,
    )


class TestRecordingAListingAgain:
    """The storage rule on both databases: a re-listed document not yet loaded takes the new
    address; a loaded one keeps the address its stored facts came from."""

    @pytest.mark.parametrize("status", ["fetched", "failed", "loaded"])
    def test_address_follows_the_listing_until_loaded(self, engine, status):
        qfin = Issuer("QFIN", "Qifu Technology, Inc.", cik="0001741530", hkex_code="03660")
        with engine.begin() as conn:
            upsert_issuers(conn, [qfin])
            assert record_documents(conn, [_ref("https://h.example" + BAD_LINK)]) == [
                f"hkex:{NEWS_ID}"
            ]
            set_status(conn, f"hkex:{NEWS_ID}", Status(status), "HTTP 404")
        with engine.begin() as conn:
            assert record_documents(conn, [_ref("https://h.example/fixed.pdf")]) == []
            stored = conn.execute(select(documents.c.url, documents.c.status)).one()
        want = BAD_LINK if status == "loaded" else "/fixed.pdf"
        assert stored.url == "https://h.example" + want and stored.status == status
