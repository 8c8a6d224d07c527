"""Every command that reads the warehouse has a deadline, and a PostgreSQL error says what is
wrong (issue 34, items 2 and 8).

An outside probe found ``filings status``, ``export`` and ``report`` still waiting after 120 s
on a PostgreSQL server that accepts the connection and never answers (``run`` gave up in 5 s),
and an unknown role reported as a missing database with "createdb" as the advice.
"""

from __future__ import annotations

import os
import socket
import struct
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from sqlalchemy.engine import make_url

from domain.errors import ConfigError
from filings import frames
from storage.db import connection_problem, open_for_reading
from tasks.config.settings_checks import check_database
from tests.service_checks import unavailable

READERS = (["status"], ["export", "--format", "csv"], ["report"])


@contextmanager
def _server(answer: bytes | None) -> Iterator[int]:
    """A loopback server that accepts every connection; ``None``: says nothing, ever; else
    refuses SSL ('N') and answers the start-up message with ``answer``."""
    listener = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []
    stop = threading.Event()

    def serve() -> None:
        listener.settimeout(0.1)
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except OSError:
                continue
            held.append(conn)
            if answer is not None:
                threading.Thread(target=_answer, args=(conn, answer), daemon=True).start()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield int(listener.getsockname()[1])
    finally:
        stop.set()
        thread.join()
        for conn in held:
            conn.close()
        listener.close()


def _answer(conn: socket.socket, answer: bytes) -> None:
    try:
        while True:
            head = conn.recv(8)
            if len(head) < 8:
                return
            length, code = struct.unpack("!II", head)
            conn.recv(length - 8)
            if code == 80877103:  # SSLRequest (also GSSENCRequest's reply): no
                conn.sendall(b"N")
                continue
            if code == 80877104:
                conn.sendall(b"N")
                continue
            conn.sendall(answer)
            return
    except OSError:
        return


def _fatal(sqlstate: str, message: str) -> bytes:
    fields = b"SFATAL\0VFATAL\0C" + sqlstate.encode() + b"\0M" + message.encode() + b"\0\0"
    return b"E" + struct.pack("!I", len(fields) + 4) + fields


def _cli(args: list[str], url: str, tmp_path) -> tuple[subprocess.CompletedProcess[str], float]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FILINGS_", "PREFECT_"))}
    env.update(FILINGS_DATABASE_URL=url, FILINGS_DATA_DIR=str(tmp_path), DO_NOT_TRACK="1")
    env["PREFECT_HOME"] = str(tmp_path / "prefect")
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-c", "from flows.cli import main; main()", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    return done, time.monotonic() - started


@pytest.mark.parametrize("args", READERS, ids=lambda a: a[0])
def test_a_reading_command_gives_up_on_a_silent_server_within_10_s(args, tmp_path):
    with _server(None) as port:
        url = f"postgresql+psycopg://filings:pw@127.0.0.1:{port}/filings"
        done, took = _cli(args, url, tmp_path)
    lines = [line for line in (done.stdout + done.stderr).splitlines() if line.strip()]
    assert done.returncode != 0 and took < 10, (took, lines)
    assert len(lines) == 1 and "Traceback" not in done.stderr, lines
    assert lines[0].startswith("error: FILINGS_DATABASE_URL: ")
    assert f"127.0.0.1:{port} did not answer within 5 s" in lines[0]


def test_the_python_reads_give_up_on_a_silent_server(tmp_path):
    with _server(None) as port:
        url = f"postgresql+psycopg://filings:pw@127.0.0.1:{port}/filings"
        started = time.monotonic()
        with pytest.raises(ConfigError, match="did not answer within 5 s"):
            frames.read_facts(url=url)
    assert time.monotonic() - started < 10


def test_a_reader_statement_has_a_deadline(db_url):
    engine = open_for_reading(db_url)
    try:
        with engine.connect() as conn:
            if conn.dialect.name == "postgresql":
                shown = conn.exec_driver_sql("SHOW statement_timeout").scalar_one()
                assert shown == "5min"
            else:  # SQLite: no server to hang, a busy timeout for a writer's lock
                assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar_one() == 30000
    finally:
        engine.dispose()


@pytest.mark.parametrize(
    ("sqlstate", "message", "said", "not_said"),
    [
        ("28000", 'role "ghost" does not exist', "the role 'ghost' does not exist", "createdb"),
        ("3D000", 'database "filings" does not exist', "createdb -h 127.0.0.1", "role"),
        (
            "28P01",
            'password authentication failed for user "ghost"',
            "refused the password of role 'ghost'",
            "createdb",
        ),
    ],
)
def test_a_postgresql_refusal_says_what_is_wrong(sqlstate, message, said, not_said):
    with _server(_fatal(sqlstate, message)) as port:
        url = f"postgresql+psycopg://ghost:S3cr3tPw@127.0.0.1:{port}/filings"
        with pytest.raises(ConfigError) as checked:
            check_database(url)
        with pytest.raises(ConfigError) as read:
            open_for_reading(url)
    for caught in (checked, read):
        text = str(caught.value)
        assert said in text and not_said not in text and "S3cr3tPw" not in text, text


@pytest.mark.postgres
def test_an_unknown_role_on_the_real_server_is_not_a_missing_database():
    role = f"ghost_{uuid.uuid4().hex[:8]}"
    url = f"postgresql+psycopg://{role}@127.0.0.1:5432/test"
    with pytest.raises(ConfigError) as caught:
        check_database(url)
    text = str(caught.value)
    if "cannot connect" in text:
        unavailable(f"no PostgreSQL at 127.0.0.1:5432: {text}")
    assert f"the role '{role}' does not exist" in text and "createdb" not in text


def test_an_unreachable_host_says_check_the_host():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = make_url(f"postgresql+psycopg://u@127.0.0.1:{port}/d")
    problem = connection_problem(Exception("connection refused"), url)
    assert "check the host and port" in problem and f":{port}" in problem
