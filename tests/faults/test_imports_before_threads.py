"""Nothing is imported lazily by a run's worker threads (issue 34, item 6).

An outside probe's two concurrent runs lost one of 72 documents to ``AttributeError:
partially initialized module 'sqlalchemy.orm.exc'``: two threads importing one package at
once can see it half-initialised. A real ``filings run`` (SQLite and PostgreSQL warehouses)
with an import hook that records every module imported outside the main thread: only
Prefect's own event-loop thread imports anything there (its anyio streams, before the flow).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

pytestmark = pytest.mark.timeout(900)

PROBE = textwrap.dedent(
    """
    import json, sys, threading
    seen = []
    class Recorder:
        def find_spec(self, name, path=None, target=None):
            thread = threading.current_thread()
            if thread is not threading.main_thread():
                seen.append([name, thread.name])
    sys.meta_path.insert(0, Recorder())
    record = sys.argv.pop()
    from flows.cli import main
    try:
        main()
    except SystemExit as end:
        code = end.code
    with open(record, "w") as out:
        json.dump({"code": code, "seen": seen}, out)
    """
)


def test_a_runs_threads_import_nothing_of_their_own(db_url, tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FILINGS_", "PREFECT_"))}
    env.update(
        FILINGS_DATA_DIR=str(tmp_path / "data"),
        FILINGS_REPLAY_DATABASE_URL=db_url,
        PREFECT_HOME=str(tmp_path / "prefect"),
        DO_NOT_TRACK="1",
        PREFECT_SERVER_ANALYTICS_ENABLED="false",
    )
    record = tmp_path / "imports.json"
    done = subprocess.run(
        [sys.executable, "-c", PROBE, "run", "--source", "replay", str(record)],
        env=env,
        capture_output=True,
        text=True,
        timeout=800,
    )
    found = json.loads(record.read_text())
    assert found["code"] in (0, None), done.stdout + done.stderr
    assert "ingested" in done.stdout
    lazy = sorted(
        {f"{name} ({thread})" for name, thread in found["seen"]}
        - {
            f"{name} (GlobalEventLoopThread)"
            for name, _ in found["seen"]
            if name.startswith("anyio")
        }
    )
    assert lazy == []
