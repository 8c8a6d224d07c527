"""``filings demo-server``: the production route on one machine, offline.

A real Prefect server (UI included), the process work pool, the deployments of
``deploy/prefect.yaml`` (their schedules paused), one process worker, the bundled replay archive
served on loopback as SEC and HKEx, and the runs' Data Docs served over http so the UI's links
open. Runs write the demo server's own warehouse, archive and Data Docs
(``DATA_DIR/demo-server``, apart from ``make run``'s ``DATA_DIR/replay``), so its first backfill
has the whole archive to show. Everything stops with the
command (Ctrl-C or SIGTERM).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from types import FrameType

from domain.errors import PipelineError
from flows import preflight, serving, startup
from tasks.config.settings import Settings
from tasks.sources.replay import ReplayServer, default_archive_root

POOL = "filings-process"
PREFECT = Path(sys.executable).with_name("prefect")  # the one installed beside ``filings``
# Deployments a person may start at once from another shell: everything since 2024 (the demo
# archive's documents), then only what is new.
TRY = ("ingest/backfill", "ingest/sec-pass")


def project_root() -> Path:
    """The checkout the worker runs flows from (it holds ``deploy/prefect.yaml``)."""
    root = Path(__file__).resolve().parents[1]
    if not (root / "deploy" / "prefect.yaml").is_file():
        raise PipelineError(
            f"demo-server needs a checkout of the project: no deploy/prefect.yaml under {root}"
        )
    return root


def run_demo_stack(settings: Settings, port: int, say: Callable[[str], None]) -> None:
    """Start everything, say how to use it, and wait until interrupted."""
    root = project_root()
    replay = preflight.replay_paths(settings, preflight.DEMO_SERVER_FOLDER)
    docs = Path(replay["FILINGS_DATA_DOCS_DIR"])
    docs.mkdir(parents=True, exist_ok=True)
    logs = startup.prefect_home()
    with ExitStack() as stack:
        api = stack.enter_context(startup.local_server(port, say))
        source = stack.enter_context(ReplayServer(default_archive_root()))
        docs_url = stack.enter_context(serving.static_files(docs))
        env = worker_env(root, api, source.url, docs_url, replay)
        say("creating the work pool and the deployments (schedules paused)...")
        _prefect(env, root, "work-pool", "create", POOL, "--type", "process", "--overwrite")
        _prefect(env, root, "--no-prompt", "deploy", "--all", "--prefect-file",
                 "deploy/prefect.yaml")  # fmt: skip
        stack.enter_context(_worker(env, root, logs / "worker.log"))
        for line in instructions(api, port, docs_url, replay["FILINGS_DATABASE_URL"]):
            say(line)
        _wait_for_stop()


def worker_env(
    root: Path, api: str, source_url: str, docs_url: str, replay: dict[str, str]
) -> dict[str, str]:
    """The worker's environment (its flow runs inherit it): the server, the replay source,
    the demo's own warehouse and Data Docs, and where the checkout is."""
    return {
        **os.environ,
        **replay,
        "PREFECT_API_URL": api,
        "FILINGS_PROJECT_DIR": str(root),
        "FILINGS_SEC_DATA_URL": source_url,
        "FILINGS_SEC_ARCHIVES_URL": source_url,
        "FILINGS_HKEX_URL": source_url,
        "FILINGS_HKEX_SECONDS_BETWEEN_REQUESTS": "0",  # loopback: no pace needed
        "FILINGS_DATA_DOCS_URL": docs_url,
    }


def instructions(api: str, port: int, docs_url: str, warehouse: str) -> list[str]:
    """What the person can do now, as commands that work pasted into another shell."""
    prefect = f"PREFECT_API_URL={api} {serving.prefect_command()}"
    return [
        f"ready: Prefect UI at http://127.0.0.1:{port}, Data Docs at {docs_url}",
        f"warehouse: {warehouse}, the demo server's own (apart from `make run`'s"
        " data/replay: a first backfill here ingests the whole archive)",
        f"  FILINGS_DATABASE_URL={warehouse} filings status   # what its runs did",
        "deployments are paused: nothing runs until you start or enable one. From another shell:",
        *(f"  {prefect} deployment run '{name}'" for name in TRY),
        f"  {prefect} --no-prompt deployment schedule resume --all   # enable every schedule",
        "or in the UI: Deployments -> a deployment -> Run, or its schedule's toggle.",
        "Ctrl-C stops the worker, the server and the replay source.",
    ]


def _prefect(env: dict[str, str], root: Path, *args: str) -> None:
    result = subprocess.run(
        [str(PREFECT), *args], cwd=root, env=env, capture_output=True, text=True, timeout=600
    )
    if result.returncode != 0:
        tail = (result.stderr.strip() or result.stdout.strip()).splitlines()[-1:] or ["?"]
        raise PipelineError(f"`prefect {' '.join(args[:3])}` failed: {tail[0][:200]}")


@contextmanager
def _worker(env: dict[str, str], root: Path, log: Path) -> Iterator[None]:
    """A process worker on the pool, in its own session (its flow runs end with it)."""
    with log.open("w", encoding="utf-8") as out:
        process = subprocess.Popen(
            [str(PREFECT), "worker", "start", "--pool", POOL], cwd=root, env=env,
            stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
    try:
        yield
    finally:
        _stop_group(process)


def _stop_group(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is not None:
        return
    os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)


def _wait_for_stop() -> None:
    """Block until Ctrl-C or SIGTERM (both end the command normally)."""
    stop = threading.Event()

    def _on_term(signum: int, frame: FrameType | None) -> None:
        stop.set()

    previous = signal.signal(signal.SIGTERM, _on_term)
    try:
        while not stop.wait(0.5):
            pass
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
