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

from storage import db
from storage.documents import set_status
from tasks import fetch
from tasks.config import wiring
from tasks.config.issuers import DEFAULT_ISSUERS
from tasks.config.settings import load_settings
from tasks.core.enums import Status
from tasks.sources.archive import RawArchive
from tasks.sources.protocol import Sources
from tasks.sources.replay import ReplayServer, default_archive_root


def _pass(engine: Engine, sources: Sources, archive: RawArchive) -> int:
    """One fetch pass over every listed source; returns the number of new documents."""
    new = 0
    for issuer in DEFAULT_ISSUERS:
        for source in sources.listed():
            listing = fetch.discover(engine, sources, source, issuer, date(2024, 1, 1), False)
            new += len(fetch.record_listing(engine, source, issuer, listing))
        for document_id in fetch.pending(engine, issuer.ticker):
            fetch.fetch_document(engine, sources, archive, issuer.cik, document_id)
            with engine.begin() as conn:
                set_status(conn, document_id, Status.LOADED)
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
        sources, archive = wiring.build_sources(settings), RawArchive(str(Path(tmp) / "a"))
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
