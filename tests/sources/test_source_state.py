"""storage.source_state on SQLite and PostgreSQL: pauses, cursors, validators, document links."""

from datetime import UTC, datetime, timedelta

from domain.readouts import CachedPage, DocumentMeta
from domain.records import DocumentRef, Issuer
from storage import source_state as state
from storage.documents import record_documents, record_files, upsert_issuers

NOW = datetime(2025, 3, 20, 12, 0, tzinfo=UTC)
QFIN = Issuer("QFIN", "Qifu", "0001741530", "03660")


def _ref(source, source_id, form="6-K"):
    return DocumentRef(source, source_id, "QFIN", form, "t", NOW, f"https://x/{source_id}")


def _register(engine, *refs):
    with engine.begin() as conn:
        upsert_issuers(conn, [QFIN])
        record_documents(conn, refs)


def test_pause_holds_until_its_end(engine):
    with engine.begin() as conn:
        state.set_pause(conn, "sec", NOW + timedelta(minutes=10), "403 block")
    with engine.begin() as conn:
        assert state.active_pause(conn, "sec", NOW).reason == "403 block"
        assert state.active_pause(conn, "sec", NOW + timedelta(minutes=10)) is None
        assert state.active_pause(conn, "hkex", NOW) is None


def test_cursor_round_trip_and_overwrite(engine):
    with engine.begin() as conn:
        assert state.read_cursor(conn, "hkex", "QFIN") == {}
        state.write_cursor(conn, "hkex", "QFIN", {"stock_id": "1", "searched_to": "2025-03-01"})
        state.write_cursor(conn, "hkex", "QFIN", {"stock_id": "1", "searched_to": "2025-03-02"})
    with engine.begin() as conn:
        assert state.read_cursor(conn, "hkex", "QFIN")["searched_to"] == "2025-03-02"


def test_cursor_and_pause_share_a_row_without_clobbering(engine):
    with engine.begin() as conn:
        state.write_cursor(conn, "sec", "*", {"a": "1"})
        state.set_pause(conn, "sec", NOW + timedelta(minutes=10), "block")
    with engine.begin() as conn:
        assert state.read_cursor(conn, "sec", "*") == {"a": "1"}
        assert state.active_pause(conn, "sec", NOW) is not None


def test_page_validators(engine):
    page = CachedPage("https://x/i.htm", '"e"', "Sat, 09 Mar 2024 16:00:00 GMT", "ab")
    with engine.begin() as conn:
        state.remember_page(conn, page)
        state.remember_page(conn, page)
    with engine.begin() as conn:
        assert state.cached_page(conn, page.url) == page
        assert state.cached_page(conn, "https://x/other") is None


def test_metadata_update_changes_only_what_differs(engine):
    _register(engine, _ref("hkex", "1", "13300"))
    meta = DocumentMeta("hkex:1", "NEW TITLE", "10000/13300", False, True)
    with engine.begin() as conn:
        assert state.update_metadata(conn, [meta]) == 1
        assert state.update_metadata(conn, [meta]) == 0
        assert state.cancelled_ids(conn, ["hkex:1"]) == set()
        state.update_metadata(conn, [DocumentMeta("hkex:1", "X", "", True, False)])
        assert state.cancelled_ids(conn, ["hkex:1", "hkex:2"]) == {"hkex:1"}


def test_amendment_and_disclosure_links(engine):
    _register(engine, _ref("sec", "a"), _ref("sec", "b", "6-K/A"))
    with engine.begin() as conn:
        state.link_amendments(conn, {"sec:b": "sec:a"})
        state.set_disclosures(
            conn, {"sec:a": "QFIN:results:2024Q4", "sec:b": "QFIN:results:2024Q4"}
        )
        docs = {d.document_id: d for d in state.issuer_documents(conn, "QFIN")}
    assert docs["sec:b"].amends_document_id == "sec:a"


def test_archived_sha_by_url(engine):
    _register(engine, _ref("sec", "a"))
    from domain.records import StoredFile

    with engine.begin() as conn:
        record_files(conn, "sec:a", [StoredFile("d.htm", "https://x/d.htm", "ff", 1, "6-K")])
        assert state.archived_sha(conn, "https://x/d.htm") == "ff"
        assert state.archived_sha(conn, "https://x/e.htm") is None
