"""Backfill of a generated universe with 1 and 2 worker processes: documents per minute, SEC
requests per second as the replay server saw them, peak memory per worker.

Two stages, two bounds: downloads (the fetch stage, running ahead into the raw archive) go at
SEC's pace; extraction, validation and loading follow from the archive at the pace of the CPU.
``downloaded`` counts documents whose files are archived, ``documents``/``docs_per_min`` the
processed ones; ``sec_req_per_s`` is over the span of SEC requests (while documents remain to
download, unless the run ends first), ``sec_req_per_s_by_minute`` the same for each whole
minute of that span (the first ones list the issuers, the others download).

Each worker process runs the ``ingest`` flow (a backfill from 2024-01-01) against one Prefect
server, one scratch PostgreSQL warehouse and one raw archive; the replay server (in this
process, blocking like SEC past 10 requests in a second) serves the universe
(``tasks.sources.replay_universe``). Workers racing on the same backfill split it by claims.
With ``--warm`` one ingest run downloads and hands its documents to N warm task workers
(``python -m flows.warm``, FILINGS_WARM_WORKERS=true) instead; ``cpu_s_per_doc`` is then the
workers' CPU seconds per processed document (their start-up excluded), printed beside the
documents per minute SEC's pace would allow at the measured requests per document.
``python -m benchmarks.universe --issuers 300 --quarters 8 --workers 1 2 [--minutes M] [--warm]``
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sqlalchemy import func, select

from benchmarks.stack import (
    cpu_seconds,
    peak_rss_mb,
    pipeline_env,
    prefect_server,
    scratch_warehouse,
    sliding_max,
    start,
    stop,
)
from storage import db
from storage.schema import document_files, documents
from tasks.sources.replay import ReplayServer
from tasks.sources.replay_throttle import SEC_PREFIXES
from tasks.sources.replay_universe import build_universe

WORKER = (
    "import datetime\nfrom flows.ingest import ingest\ningest(since=datetime.date(2024, 1, 1))\n"
)


def _statuses(url: str) -> dict[str, int]:
    engine = db.make_engine(url)
    with engine.connect() as conn:
        rows = conn.execute(select(documents.c.status, func.count()).group_by(documents.c.status))
        found = {str(status): int(n) for status, n in rows}
        downloaded = select(func.count(func.distinct(document_files.c.document_id)))
        found["downloaded"] = int(conn.execute(downloaded).scalar_one())
    engine.dispose()
    return found


def _run(folder: Path, base_env: dict[str, str], args: argparse.Namespace, workers: int) -> dict:
    universe = folder / "universe"
    build_universe(universe, args.issuers, args.quarters)
    expected = 2 * args.issuers * args.quarters
    with scratch_warehouse(folder) as url, ReplayServer(universe, sec_rate_limit=10) as replay:
        env = pipeline_env(base_env, replay.url, url, folder / "data", universe / "issuers.toml")
        procs, runs = _start(folder, env, workers, args.warm)
        began = time.monotonic()
        idle = [cpu_seconds(p.pid) for p in procs]  # warm workers' start-up, not their work
        peaks, used = [0.0] * len(procs), list(idle)
        done: dict[str, int] = {}
        while any(p.poll() is None for p in runs) and time.monotonic() - began < args.minutes * 60:
            time.sleep(2)
            peaks = [max(m, peak_rss_mb(p.pid)) for m, p in zip(peaks, procs, strict=True)]
            used = [max(c, cpu_seconds(p.pid)) for c, p in zip(used, procs, strict=True)]
            done = _statuses(url)
        wall = time.monotonic() - began
        for p in procs:
            stop(p)
        done = _statuses(url)
        sec = [r.at for r in replay.log if r.path.startswith(SEC_PREFIXES)]
        blocks = replay.throttle.blocks if replay.throttle else 0
    processed = done.get("loaded", 0) + done.get("quarantined", 0) + done.get("failed", 0)
    span = (max(sec) - min(sec)) if len(sec) > 1 else 1.0
    work = [round(u - i, 1) for u, i in zip(used, idle, strict=True)]
    per_doc = done.get("downloaded", 0) and len(sec) / done["downloaded"]
    return {
        "workers": workers,
        "warm": args.warm,
        "cpu_s_by_process": work,  # warm: the ingest run first, then each task worker
        "cpu_s_per_doc": round(sum(work[1:] if args.warm else work) / max(processed, 1), 2),
        "sec_allows_docs_per_min": round(len(sec) / span * 60 / per_doc, 1) if per_doc else 0,
        "downloaded": f"{done.get('downloaded', 0)}/{expected}",
        "documents": f"{processed}/{expected}",
        "loaded": done.get("loaded", 0) + done.get("quarantined", 0),
        "failed": done.get("failed", 0),
        "wall_s": round(wall, 1),
        "docs_per_min": round(processed / wall * 60, 1),
        "sec_requests": len(sec),
        "sec_req_per_s": round(len(sec) / span, 2),
        "sec_req_per_s_by_minute": _by_minute(sec),
        "sec_max_in_1s": sliding_max(sec),
        "sec_blocks": blocks,
        "peak_mb_per_worker": [round(m) for m in peaks],
    }


def _start(
    folder: Path, env: dict[str, str], workers: int, warm: bool
) -> tuple[list[subprocess.Popen[bytes]], list[subprocess.Popen[bytes]]]:
    """(every process, the ingest runs among them): N runs, or one run and N warm workers."""
    if not warm:
        runs = [
            start([sys.executable, "-c", WORKER], env, folder / f"worker-{i}.log")
            for i in range(workers)
        ]
        return runs, runs
    env = {**env, "FILINGS_WARM_WORKERS": "true"}
    serving = []
    for i in range(workers):
        log = folder / f"warm-{i}.log"
        serving.append(start([sys.executable, "-m", "flows.warm"], env, log))
    for i, worker in enumerate(serving):  # ready: imports, GX and the warehouse loaded
        log = folder / f"warm-{i}.log"
        while b"warm task worker ready" not in log.read_bytes() and worker.poll() is None:
            time.sleep(0.5)
    run = start([sys.executable, "-c", WORKER], env, folder / "run.log")
    return [run, *serving], [run]


def _by_minute(times: list[float]) -> list[float]:
    """Requests per second in each whole minute from the first request."""
    if not times:
        return []
    first = min(times)
    whole = int((max(times) - first) // 60)
    counts = [0] * whole
    for t in times:
        minute = int((t - first) // 60)
        if minute < whole:
            counts[minute] += 1
    return [round(c / 60, 2) for c in counts]


def main(argv: list[str] | None = None) -> None:
    """Print one line per worker count."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--issuers", type=int, default=300)
    parser.add_argument("--quarters", type=int, default=8)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--minutes", type=float, default=30.0, help="stop the workers after")
    parser.add_argument("--warm", action="store_true", help="one run, N warm task workers")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp, prefect_server(Path(tmp) / "prefect") as env:
        print(f"load average {os.getloadavg()}, {os.cpu_count()} CPUs", flush=True)
        for workers in args.workers:
            folder = Path(tmp) / f"w{workers}"
            folder.mkdir()
            print(_run(folder, env, args, workers), flush=True)


if __name__ == "__main__":
    main()
