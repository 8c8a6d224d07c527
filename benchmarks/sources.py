"""Sources: requests per new document and the wall time of a no-op pass (replay archive).

Runs the fetch stage (discover, register, download) for both sources over the bundled replay
archive into a temporary warehouse and archive, then a second, no-op pass. Each figure is
printed beside its floor, measured in the same run: the fewest requests a pass can make (one
listing per issuer and source, plus one download per stored file), and the wall time of the
same requests sent again with a bare ``requests`` session (no pacing, parsing or storing).
``python -m benchmarks.sources``
"""

from __future__ import annotations

import tempfile
import time
from collections import Counter
from datetime import date
from pathlib import Path

import requests
from sqlalchemy import func, select
from sqlalchemy.engine import Engine

from domain.enums import Status
from storage import db
from storage.documents import set_status
from storage.schema import document_files
from tasks import fetch
from tasks.config import wiring
from tasks.config.issuers import DEFAULT_ISSUERS
from tasks.config.settings import load_settings
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


def _bare(base: str, paths: list[str]) -> float:
    """Wall seconds of GETting ``paths`` again with a bare session: the transport's floor."""
    with requests.Session() as session:
        started = time.perf_counter()
        for path in paths:
            session.get(base + path, timeout=30).content  # noqa: B018 - the body read whole
        return time.perf_counter() - started


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
        end = len(server.log)
        first_bare = _bare(server.url, [r.path for r in server.log[:mark]])
        noop_bare = _bare(server.url, [r.path for r in server.log[mark:end]])
        with engine.connect() as conn:
            files = int(conn.execute(select(func.count()).select_from(document_files)).scalar_one())
        listings = len(DEFAULT_ISSUERS) * len(sources.listed())
        engine.dispose()
    total = sum(first.values())
    print(f"{'measure':<44}{'value':>12}{'floor':>12}")
    print(f"{'new documents (first pass)':<44}{new:>12}")
    print(f"{'requests, first pass (sec/hkex)':<44}{first['sec']:>6}/{first['hkex']:<5}"
          f"{listings + files:>12}")  # fmt: skip
    print(f"{'requests per new document':<44}{total / max(new, 1):>12.2f}"
          f"{(listings + files) / max(new, 1):>12.2f}")  # fmt: skip
    print(f"{'first pass wall time (s)':<44}{first_wall:>12.2f}{first_bare:>12.2f}")
    print(f"{'no-op pass requests (sec/hkex)':<44}{noop['sec']:>6}/{noop['hkex']:<5}"
          f"{listings:>12}")  # fmt: skip
    print(f"{'no-op pass wall time (s)':<44}{noop_wall:>12.2f}{noop_bare:>12.2f}")
    print(
        f"floor: requests, one listing per issuer and source ({listings}) + one per stored "
        f"file ({files}); wall time, the same requests again with a bare requests session"
    )


if __name__ == "__main__":
    main()
