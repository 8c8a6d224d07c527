"""Sources: requests per new document and the wall time of a no-op pass (replay archive).

Runs the fetch stage (discover, register, download) for both sources over the bundled replay
archive into a temporary warehouse and archive, then a second, no-op pass.
``python -m benchmarks.sources``
"""

from __future__ import annotations

import tempfile
import time
from collections import Counter
from datetime import date
from pathlib import Path

from sqlalchemy.engine import Engine

from storage import db, repo
from tasks import fetch
from tasks.archive import RawArchive
from tasks.config import DEFAULT_ISSUERS, load_settings
from tasks.core.enums import Status
from tasks.sources.replay import ReplayServer, default_archive_root

SOURCES = ("sec", "hkex")


def _pass(engine: Engine, sources: fetch.Sources, archive: RawArchive) -> int:
    """One fetch pass over every source; returns the number of new documents."""
    new = 0
    for issuer in DEFAULT_ISSUERS:
        for source in SOURCES:
            listing = fetch.discover(engine, sources, source, issuer, date(2024, 1, 1), False)
            with engine.begin() as conn:
                repo.upsert_issuers(conn, [issuer])
                new += len(repo.record_documents(conn, listing.refs))
            fetch.record_listing(engine, source, issuer, listing)
        with engine.begin() as conn:
            pending = repo.documents_to_process(conn, issuer.ticker)
        for document_id in pending:
            with engine.begin() as conn:
                ref = repo.get_document(conn, document_id)
            files = fetch.fetch_files(engine, sources, archive, ref, issuer.cik, {})
            with engine.begin() as conn:
                repo.record_files(conn, document_id, files)
                repo.set_status(conn, document_id, Status.LOADED)
    return new


def _kind(path: str) -> str:
    return "sec" if path.startswith(("/submissions/", "/Archives/", "/cgi-bin/")) else "hkex"


def main() -> None:
    """Print the table."""
    with tempfile.TemporaryDirectory() as tmp, ReplayServer(default_archive_root()) as server:
        engine = db.make_engine(f"sqlite:///{Path(tmp) / 'w.db'}")
        db.migrate(engine)
        settings = load_settings(
            sec_data_url=server.url,
            sec_archives_url=server.url,
            hkex_url=server.url,
            hkex_seconds_between_requests=0,
            sec_limiter="local",
        )
        sources, archive = fetch.build_sources(settings), RawArchive(str(Path(tmp) / "a"))
        started = time.perf_counter()
        new = _pass(engine, sources, archive)
        first_wall = time.perf_counter() - started
        first = Counter(_kind(r.path) for r in server.log)
        mark = len(server.log)
        started = time.perf_counter()
        _pass(engine, sources, archive)
        noop_wall = time.perf_counter() - started
        noop = Counter(_kind(r.path) for r in server.log[mark:])
        engine.dispose()
    total = sum(first.values())
    print(f"{'measure':<40}{'value':>12}")
    print(f"{'new documents (first pass)':<40}{new:>12}")
    print(f"{'requests, first pass (sec/hkex)':<40}{first['sec']:>6}/{first['hkex']:<5}")
    print(f"{'requests per new document':<40}{total / max(new, 1):>12.2f}")
    print(f"{'first pass wall time (s)':<40}{first_wall:>12.2f}")
    print(f"{'no-op pass requests (sec/hkex)':<40}{noop['sec']:>6}/{noop['hkex']:<5}")
    print(f"{'no-op pass wall time (s)':<40}{noop_wall:>12.2f}")


if __name__ == "__main__":
    main()
