"""A whole run through misbehaving sources: one line per failure, nothing stored half-way, and
the next run, once the faults clear, fetches exactly what was missed and ends where a run that
saw no fault ends (same rows in every table)."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from benchmarks.warehouse_dump import differences, dump
from flows.ingest import ingest
from storage import db
from storage.schema import documents, facts, validation_results
from tasks.sources.replay import Answer

pytestmark = pytest.mark.usefixtures("prefect_api", "no_retry_delays")

HTML_PAGE = b"<!DOCTYPE html><html><body>Please try later</body></html>"
# Fault -> the document it hits, and the error class its one line must name.
FAULTS = {
    "hkex:11480512": ("2025031700512.pdf", [Answer(200, HTML_PAGE)], "FatalTransportError"),
    "hkex:11126844": (
        "2024031300844.pdf",
        [Answer(200, b"%PDF-1.7\n1 0 obj\n<<", {"Content-Type": "application/pdf"})] * 4,
        "RetriableTransportError",
    ),
    "sec:0001104659-24-088431": (
        "tm2421456d1_ex99-1.htm",
        [Answer(302, b"", {"Location": "http://localhost:1/elsewhere.htm"})],
        "FatalTransportError",
    ),
    "sec:0001104659-24-032436": (
        "tm248123d1_ex99-1.htm",
        [Answer(404, b"<html>gone</html>")],
        "NotFoundError",
    ),
    "sec:0001104659-24-095871": (
        "tm2423310d1_ex99-1.htm",
        [Answer(200, b"<html>" + b"x" * (2 * 1024 * 1024), fault="chunked")],
        "FatalTransportError",
    ),
}


def _inject_all(replay) -> None:
    for needle, answers, _ in FAULTS.values():
        replay.inject(needle, *answers)
    replay.inject("titleSearchServlet", Answer(429, b"", {"Retry-After": "1"}))
    replay.inject("tm2418031d1_6k.htm", Answer(502, b""), Answer(503, b"", fault="drop"))


def _stored(url: str, table, document_id: str) -> int:
    engine = db.make_engine(url)
    with engine.connect() as conn:
        count = conn.execute(
            select(func.count()).select_from(table).where(table.c.document_id == document_id)
        ).scalar_one()
    engine.dispose()
    return int(count)


def _status(url: str) -> dict[str, str]:
    engine = db.make_engine(url)
    with engine.connect() as conn:
        rows = conn.execute(select(documents.c.document_id, documents.c.status)).all()
    engine.dispose()
    return {r[0]: r[1] for r in rows}


class TestRunThroughFaults:
    """Every fault kind in one run, then a clean rerun, against an uninterrupted reference."""

    def test_faults_then_rerun_equals_an_uninterrupted_run(self, run_env, replay):
        reference_url = run_env("reference")
        clean = ingest()
        assert clean.ok, clean.render()
        want = dump(db.make_engine(reference_url))

        url = run_env("faulted")
        _inject_all(replay)
        faulted = ingest()
        assert not faulted.ok and not faulted.source_failures, faulted.render()
        lines = {line.split(": ", 1)[0]: line for line in faulted.failed}
        assert set(lines) == set(FAULTS), faulted.render()
        status = _status(url)
        for document_id, (_, _, kind) in FAULTS.items():
            assert kind in lines[document_id] and "\n" not in lines[document_id]
            assert status[document_id] == "failed"
            assert _stored(url, facts, document_id) == 0
            assert _stored(url, validation_results, document_id) == 0
        assert status["sec:0001104659-24-075320"] == "loaded"  # 502, dropped, then served

        mark = len(replay.log)
        again = ingest()
        assert again.ok and again.new == 0 and again.ingested == len(FAULTS), again.render()
        fetched = {r.path.rsplit("/", 1)[-1] for r in replay.log[mark:] if r.status == 200}
        documents_fetched = {
            p for p in fetched if p.endswith((".pdf", ".htm")) and "-index" not in p
        }
        assert {needle for needle, _, _ in FAULTS.values()} <= documents_fetched
        assert not documents_fetched & {"tm2418031d1_6k.htm", "2025030301422.pdf"}
        assert differences(dump(db.make_engine(url)), want) == []
