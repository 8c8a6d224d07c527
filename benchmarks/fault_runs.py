"""Real ``filings run`` processes for the fault suite: started, killed with SIGKILL at seeded
points, run side by side, and their warehouses compared.

Used by ``tests/faults`` (a small size) and ``python -m benchmarks.faults`` (the full size).
Each run is a separate Python process pointed, like a live run, at one stand-in for EDGAR and
HKEXnews that every run shares (the replay server on loopback, serving the bundled archive), at
one warehouse (``FILINGS_DATABASE_URL``: a SQLite file or a PostgreSQL database) and at an
already running Prefect API (``PREFECT_API_URL``), so no run pays Prefect's start-up.
"""

from __future__ import annotations

import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy import inspect, text

from benchmarks.warehouse_dump import Dump, dump
from storage import db

DEFAULT_POSTGRES_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
# One line a person can act on: "error: ..." and nothing else on stderr.
TRACEBACK = re.compile(r"Traceback \(most recent call last\)|^\s+File \"", re.MULTILINE)
# Or a run that ended with failures: the summary's one line per failure (exit 1).
SUMMARY_FAILURE = re.compile(r"^(failed|source failed|not delivered): ", re.MULTILINE)


@dataclass
class Outcome:
    """How one run process ended."""

    returncode: int
    stdout: str
    stderr: str
    killed: bool = False
    progress_lines: int = 0

    @property
    def unhandled(self) -> bool:
        """A traceback, or a failure without the one-line ``error:`` reason."""
        if self.killed:
            return False
        if TRACEBACK.search(self.stderr) or TRACEBACK.search(self.stdout):
            return True
        errors = [line for line in self.stderr.splitlines() if line.startswith("error:")]
        if self.returncode == 1 and not errors and SUMMARY_FAILURE.search(self.stdout):
            return False
        return self.returncode != 0 and len(errors) != 1


@dataclass(frozen=True)
class Services:
    """What every run process shares: the Prefect API and the sources' stand-in."""

    api_url: str
    source_url: str


@dataclass
class Warehouse:
    """One warehouse the runs share, and the folder their replay data goes to."""

    url: str
    data_dir: Path
    env: dict[str, str] = field(default_factory=dict)

    def environment(self, services: Services) -> dict[str, str]:
        """The environment of a run process on this warehouse."""
        env = {k: v for k, v in os.environ.items() if not k.startswith(("FILINGS_", "PREFECT_"))}
        env.update(
            FILINGS_DATA_DIR=str(self.data_dir),
            FILINGS_DATABASE_URL=self.url,
            FILINGS_SEC_DATA_URL=services.source_url,
            FILINGS_SEC_ARCHIVES_URL=services.source_url,
            FILINGS_HKEX_URL=services.source_url,
            FILINGS_HKEX_SECONDS_BETWEEN_REQUESTS="0",
            FILINGS_SEC_USER_AGENT="Fault Suite faults@example.test",
            PREFECT_API_URL=services.api_url,
            PREFECT_HOME=str(self.data_dir / "prefect"),
            DO_NOT_TRACK="1",
            PREFECT_SERVER_ANALYTICS_ENABLED="false",
            PYTHONUNBUFFERED="1",
        )
        env.update(self.env)
        return env


@contextmanager
def sqlite_warehouse(folder: Path) -> Iterator[Warehouse]:
    """A fresh SQLite warehouse file under ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    yield Warehouse(f"sqlite:///{folder / 'warehouse.sqlite'}", folder)


@contextmanager
def postgres_warehouse(folder: Path, admin_url: str = "") -> Iterator[Warehouse]:
    """A fresh PostgreSQL database (created on the server, dropped afterwards)."""
    admin_url = admin_url or os.environ.get("FILINGS_TEST_POSTGRES_URL", DEFAULT_POSTGRES_URL)
    admin = db.make_engine(admin_url, isolation_level="AUTOCOMMIT")
    name = f"filings_fault_{uuid.uuid4().hex[:10]}"
    folder.mkdir(parents=True, exist_ok=True)
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    url = db.normalize_url(admin_url).set(database=name).render_as_string(hide_password=False)
    try:
        yield Warehouse(url, folder)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def command() -> list[str]:
    """``filings run`` with this interpreter."""
    return [sys.executable, "-c", "from flows.cli import main; main()", "run", "--source", "live"]


def start(warehouse: Warehouse, services: Services) -> subprocess.Popen[str]:
    """Start one run process (its own process group, so a kill reaches nothing else)."""
    return subprocess.Popen(
        command(),
        env=warehouse.environment(services),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


class _Reader(threading.Thread):
    """Collects a pipe's lines and counts the progress lines among them."""

    def __init__(self, pipe: object) -> None:
        super().__init__(daemon=True)
        self.pipe = pipe
        self.lines: list[str] = []
        self.progress = 0
        self.changed = threading.Condition()

    def run(self) -> None:
        for line in self.pipe:  # type: ignore[attr-defined]
            with self.changed:
                self.lines.append(line)
                if "document(s) to process" in line or line.lstrip().startswith("done:"):
                    self.progress += 1
                self.changed.notify_all()


def run(warehouse: Warehouse, services: Services, timeout: float = 600.0) -> Outcome:
    """One run to its end."""
    process = start(warehouse, services)
    out, err = process.communicate(timeout=timeout)
    return Outcome(process.returncode, out, err)


def _watched(
    warehouse: Warehouse, services: Services, after_lines: int, timeout: float
) -> tuple[subprocess.Popen[str], _Reader, _Reader]:
    """A run started, its output read, once it printed ``after_lines`` progress lines (or
    ended, or ``timeout`` passed)."""
    process = start(warehouse, services)
    out, err = _Reader(process.stdout), _Reader(process.stderr)
    out.start()
    err.start()
    deadline = time.monotonic() + timeout
    with err.changed:
        while err.progress < after_lines and process.poll() is None:
            err.changed.wait(0.05)
            if time.monotonic() > deadline:
                break
    return process, out, err


def _outcome(process: subprocess.Popen[str], out: _Reader, err: _Reader, killed: bool) -> Outcome:
    out.join(5)
    err.join(5)
    return Outcome(process.returncode, "".join(out.lines), "".join(err.lines), killed, err.progress)


def run_killed(
    warehouse: Warehouse, services: Services, after_lines: int, extra: float, timeout: float = 600.0
) -> Outcome:
    """A run killed with SIGKILL ``extra`` seconds after its ``after_lines``-th progress line
    (0: after start-up); a run that ends first is not killed."""
    process, out, err = _watched(warehouse, services, after_lines, timeout)
    time.sleep(extra)
    killed = process.poll() is None
    if killed:
        os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=60)
    return _outcome(process, out, err, killed)


def run_interrupted(
    warehouse: Warehouse,
    services: Services,
    after_lines: int,
    action: Callable[[], object],
    timeout: float = 600.0,
) -> Outcome:
    """A run to its end, with ``action`` done to it once it printed ``after_lines`` progress
    lines (a database connection terminated, say)."""
    process, out, err = _watched(warehouse, services, after_lines, timeout)
    action()
    process.wait(timeout=timeout)
    return _outcome(process, out, err, False)


def terminate_backends(url: str, admin_url: str = "", seconds: float = 3.0) -> int:
    """``pg_terminate_backend`` on every connection to the database of ``url``, again and
    again for ``seconds`` (so a statement in flight is hit); returns how many were ended."""
    admin_url = admin_url or os.environ.get("FILINGS_TEST_POSTGRES_URL", DEFAULT_POSTGRES_URL)
    name = db.normalize_url(url).database
    admin = db.make_engine(admin_url, isolation_level="AUTOCOMMIT")
    query = text(
        "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
        "WHERE datname = :name AND pid <> pg_backend_pid()"
    )
    ended = 0
    try:
        with admin.connect() as conn:
            until = time.monotonic() + seconds
            while time.monotonic() < until:
                ended += int(conn.execute(query, {"name": name}).scalar_one())
                time.sleep(0.1)
    finally:
        admin.dispose()
    return ended


def run_killed_when(
    warehouse: Warehouse, services: Services, reached: threading.Event, timeout: float = 600.0
) -> Outcome:
    """A run killed with SIGKILL as soon as ``reached`` is set (by a receiver holding the
    run's send); a run that ends first is not killed."""
    process = start(warehouse, services)
    deadline = time.monotonic() + timeout
    while not reached.wait(0.05) and process.poll() is None and time.monotonic() < deadline:
        pass
    killed = process.poll() is None
    if killed:
        os.killpg(process.pid, signal.SIGKILL)
    out, err = process.communicate(timeout=60)
    return Outcome(process.returncode, out, err, killed)


def run_together(warehouse: Warehouse, services: Services, count: int) -> list[Outcome]:
    """``count`` runs started at once on the same warehouse."""
    processes = [start(warehouse, services) for _ in range(count)]
    outcomes = []
    for process in processes:
        out, err = process.communicate(timeout=900)
        outcomes.append(Outcome(process.returncode, out, err))
    return outcomes


def kill_points(seed: int, progress_lines: int, seconds_per_line: float) -> tuple[int, float]:
    """Where a seeded kill lands: after how many progress lines, plus how many seconds."""
    rng = random.Random(seed)
    return rng.randrange(0, progress_lines + 1), rng.uniform(0.0, seconds_per_line)


def warehouse_dump(warehouse: Warehouse) -> Dump:
    """The comparable content of the warehouse."""
    engine = db.make_engine(warehouse.url)
    try:
        return dump(engine)
    finally:
        engine.dispose()


def run_statuses(warehouse: Warehouse) -> list[str]:
    """How each run in the warehouse's ``runs`` table stands, oldest first."""
    engine = db.make_engine(warehouse.url)
    try:
        if not inspect(engine).has_table("runs"):
            return []
        with engine.connect() as conn:
            query = text("SELECT status FROM runs ORDER BY started_at")
            return [str(s) for s in conn.execute(query).scalars()]
    finally:
        engine.dispose()


# A document's rows: all of them once it is loaded (or quarantined), none before.
DONE = ("loaded", "quarantined")
# Not checked per document: the document row itself, its files (recorded at fetch, before the
# load), and alerts (a later document's load may raise an alert about an earlier one).
PER_RUN_TABLES = ("documents", "document_files", "alert_events", "document_claims")


def per_document(warehouse: Warehouse) -> tuple[dict[str, str], Counter[tuple[str, str]]]:
    """Each document's status, and its row count in every table keyed by document."""
    from storage import schema

    engine = db.make_engine(warehouse.url)
    counts: Counter[tuple[str, str]] = Counter()
    try:
        if not inspect(engine).has_table("documents"):  # killed before its first migration
            return {}, counts
        with engine.connect() as conn:
            status = dict(
                conn.execute(text("SELECT document_id, status FROM documents")).tuples().all()
            )
            for table in schema.metadata.sorted_tables:
                if "document_id" in table.c and table.name not in PER_RUN_TABLES:
                    query = text(
                        f"SELECT document_id, count(*) FROM {table.name} GROUP BY document_id"
                    )
                    for document_id, n in conn.execute(query).tuples():
                        counts[(table.name, str(document_id))] = int(n)
    finally:
        engine.dispose()
    return status, counts


def partial_documents(
    got: tuple[dict[str, str], Counter[tuple[str, str]]],
    want: tuple[dict[str, str], Counter[tuple[str, str]]],
) -> list[str]:
    """Documents stored half-way: done with rows other than the reference's, or not done
    with any row at all."""
    status, counts = got
    _, reference = want
    tables = {table for table, _ in reference} | {table for table, _ in counts}
    partial = []
    for document_id, state in status.items():
        have = {t: counts[(t, document_id)] for t in tables}
        if state in DONE:
            expected = {t: reference[(t, document_id)] for t in tables}
            if have != expected:
                partial.append(f"{document_id} ({state}): {have} != {expected}")
        elif any(have.values()):
            partial.append(f"{document_id} ({state}) holds rows: {have}")
    return partial
