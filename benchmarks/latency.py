"""Publication to loaded, with the ``watch`` deployment at its production interval (60 s) on
a real Prefect server and process worker: p50, p95, max.

A generated universe of N issuers (all configured, so every pass filters the listings) starts
empty; QFIN (the universe's first issuer, whose label catalog ships with the package) then
publishes a results release on both sources every ``--every`` seconds, ``--count`` times.
Latency is from the moment the files appear on the replay server to the document's row
turning ``loaded`` or ``quarantined`` in the warehouse.
``python -m benchmarks.latency --issuers 300 --count 20 --every 20``
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import select

from benchmarks.stack import (
    BIN,
    ROOT,
    pipeline_env,
    prefect_server,
    scratch_warehouse,
    start,
    stop,
)
from storage import db
from storage.schema import documents
from tasks.sources.replay import ReplayServer
from tasks.sources.replay_universe import Member, build_universe, publish

POOL = "filings-process"


def _prefect(env: dict[str, str], *args: str) -> None:
    subprocess.run([str(BIN / "prefect"), *args], cwd=ROOT, env=env, check=True, timeout=300,
                   capture_output=True)  # fmt: skip


def _done(url: str) -> dict[str, datetime]:
    engine = db.make_engine(url)
    d = documents.c
    with engine.connect() as conn:
        rows = conn.execute(
            select(d.document_id, d.updated_at).where(d.status.in_(["loaded", "quarantined"]))
        ).all()
    engine.dispose()
    return {doc: when for doc, when in rows}


def _measure(url: str, universe: Path, args: argparse.Namespace) -> list[float]:
    published: dict[str, datetime] = {}
    for q in range(args.count):
        now = datetime.now(UTC)
        for doc in publish(universe, Member(0), q, now):
            published[doc] = now
        time.sleep(args.every * random.uniform(0.5, 1.5))
    deadline = time.monotonic() + args.drain
    done = _done(url)
    while time.monotonic() < deadline and not set(published) <= set(done):
        time.sleep(2)
        done = _done(url)
    missing = sorted(set(published) - set(done))
    if missing:
        print(f"not loaded within {args.drain:.0f} s of the last publication: {missing}")
    return [(done[d] - published[d]).total_seconds() for d in published if d in done]


def _watch_run_seconds(api_url: str) -> list[float]:
    """Run times of the watch deployment's completed flow runs (no-op passes are the short
    ones), as Prefect recorded them."""
    from prefect import get_client
    from prefect.client.schemas.filters import (
        DeploymentFilter,
        DeploymentFilterName,
        FlowRunFilter,
        FlowRunFilterState,
        FlowRunFilterStateType,
    )
    from prefect.client.schemas.objects import StateType
    from prefect.settings import PREFECT_API_URL, temporary_settings

    with temporary_settings({PREFECT_API_URL: api_url}), get_client(sync_client=True) as client:
        runs = client.read_flow_runs(
            deployment_filter=DeploymentFilter(name=DeploymentFilterName(any_=["watch"])),
            flow_run_filter=FlowRunFilter(
                state=FlowRunFilterState(type=FlowRunFilterStateType(any_=[StateType.COMPLETED]))
            ),
            limit=200,
        )
    return sorted(r.total_run_time.total_seconds() for r in runs)


def main(argv: list[str] | None = None) -> None:
    """Print p50, p95 and max."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--issuers", type=int, default=300)
    parser.add_argument("--count", type=int, default=20, help="publications (2 documents each)")
    parser.add_argument("--every", type=float, default=20.0, help="mean seconds between them")
    parser.add_argument("--drain", type=float, default=300.0)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp, prefect_server(Path(tmp) / "prefect") as env:
        folder = Path(tmp)
        universe = folder / "universe"
        build_universe(universe, args.issuers, 0)
        with scratch_warehouse(folder) as url, ReplayServer(universe) as replay:
            worker_env = pipeline_env(
                env, replay.url, url, folder / "data", universe / "issuers.toml"
            )
            _prefect(env, "work-pool", "create", POOL, "--type", "process")
            deploy = ["--no-prompt", "deploy", "--prefect-file", "deploy/prefect.yaml"]
            _prefect(worker_env, *deploy, "--name", "watch")
            worker = start(
                [str(BIN / "prefect"), "worker", "start", "--pool", POOL],
                worker_env,
                folder / "worker.log",
            )
            try:
                time.sleep(90)  # the first scheduled passes (nothing published yet)
                latencies = sorted(_measure(url, universe, args))
                passes = _watch_run_seconds(env["PREFECT_API_URL"])
            finally:
                stop(worker)
    if passes:
        print(
            f"watch passes completed {len(passes)}: fastest {passes[0]:.2f} s (no-op), "
            f"median {statistics.median(passes):.2f} s, slowest {passes[-1]:.2f} s (flow-run time)"
        )
    if not latencies:
        print("no document was loaded")
        return
    p95 = latencies[min(len(latencies) - 1, round(0.95 * len(latencies)) - 1)]
    print(
        f"documents {len(latencies)}/{2 * args.count}, issuers configured {args.issuers}: "
        f"p50 {statistics.median(latencies):.1f} s, p95 {p95:.1f} s, max {latencies[-1]:.1f} s"
    )


if __name__ == "__main__":
    main()
