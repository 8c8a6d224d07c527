"""Publication to alert, with the ``watch`` deployment at its production interval (60 s) on
a real Prefect server and process worker: p50, p95, max.

A generated universe of N issuers (all configured, so every pass filters the listings) starts
empty; QFIN (the universe's first issuer, whose label catalog ships with the package) then
publishes a results release on both sources every ``--every`` seconds, ``--count`` times.
Latency is from the moment the files appear on the replay server to the first alert about the
document received by a loopback webhook (and, for every document, to its row turning
``loaded`` or ``quarantined``). Where the time goes: publication to the start and end of the
watch pass that saw it, to the start of the ``watch-ingest`` run that processed it, to loaded,
to the alert (medians and maxima; runs as Prefect recorded them).
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
from typing import Any

from sqlalchemy import select

from benchmarks.stack import (
    BIN,
    ROOT,
    alert_ids,
    loopback_webhook,
    pipeline_env,
    prefect_server,
    scratch_warehouse,
    start,
    stop,
)
from storage import db
from storage.schema import alert_events, documents
from tasks.sources.replay import ReplayServer
from tasks.sources.replay_universe import Member, build_universe, publish

POOL = "filings-process"
DEPLOYMENTS = ("watch", "watch-ingest")
STEPS = ("pass start", "pass end", "ingest start", "loaded", "alert")


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


def _alerted(url: str, received: list[tuple[float, dict[str, Any]]]) -> dict[str, datetime]:
    """Document -> when the webhook first received an alert about it."""
    engine = db.make_engine(url)
    with engine.connect() as conn:
        rows = conn.execute(select(alert_events.c.alert_id, alert_events.c.document_id)).all()
        owner: dict[str, str | None] = {str(a): d for a, d in rows}
    engine.dispose()
    first: dict[str, datetime] = {}
    for at, body in sorted(received, key=lambda r: r[0]):
        for alert in alert_ids(body):
            doc = owner.get(alert)
            if doc and doc not in first:
                first[doc] = datetime.fromtimestamp(at, UTC)
    return first


def _publish(url: str, universe: Path, args: argparse.Namespace) -> dict[str, datetime]:
    published: dict[str, datetime] = {}
    for q in range(args.count):
        now = datetime.now(UTC)
        for doc in publish(universe, Member(0), q, now):
            published[doc] = now
        time.sleep(args.every * random.uniform(0.5, 1.5))
    deadline = time.monotonic() + args.drain
    while time.monotonic() < deadline and not set(published) <= set(_done(url)):
        time.sleep(2)
    time.sleep(10)  # the last runs' alert deliveries
    missing = sorted(set(published) - set(_done(url)))
    if missing:
        print(f"not loaded within {args.drain:.0f} s of the last publication: {missing}")
    return published


def _runs(api_url: str) -> dict[str, list[Any]]:
    """Deployment name -> its flow runs that started, as Prefect recorded them."""
    from prefect import get_client
    from prefect.client.schemas.filters import DeploymentFilter, DeploymentFilterName
    from prefect.settings import PREFECT_API_URL, temporary_settings

    found: dict[str, list[Any]] = {}
    with temporary_settings({PREFECT_API_URL: api_url}), get_client(sync_client=True) as client:
        for name in DEPLOYMENTS:
            runs: list[Any] = []
            while len(runs) % 200 == 0:  # the API's page is at most 200 runs
                page = client.read_flow_runs(
                    deployment_filter=DeploymentFilter(name=DeploymentFilterName(any_=[name])),
                    limit=200,
                    offset=len(runs),
                )
                runs += page
                if not page:
                    break
            found[name] = sorted((r for r in runs if r.start_time), key=lambda r: r.start_time)
    return found


def _steps(doc: str, at: datetime, runs: dict[str, list[Any]]) -> dict[str, datetime]:
    """When the watch pass that saw the document started and ended, and its ingest started."""
    found: dict[str, datetime] = {}
    seen = next((r for r in runs["watch"] if r.start_time >= at and r.end_time), None)
    if seen is not None:
        found["pass start"], found["pass end"] = seen.start_time, seen.end_time
    source = doc.split(":")[0]
    ingest = next(
        (r for r in runs["watch-ingest"]
         if r.start_time >= at and r.parameters.get("sources") == [source]),
        None,
    )  # fmt: skip
    if ingest is not None:
        found["ingest start"] = ingest.start_time
    return found


def _took(
    step: str, published: dict[str, datetime], steps: dict[str, dict[str, datetime]]
) -> list[float]:
    return sorted(
        (steps[d][step] - at).total_seconds() for d, at in published.items() if step in steps[d]
    )


def _line(label: str, took: list[float]) -> str:
    p95 = took[min(len(took) - 1, round(0.95 * len(took)) - 1)]
    median = statistics.median(took)
    return f"{label}: n={len(took)}, p50 {median:.1f} s, p95 {p95:.1f} s, max {took[-1]:.1f} s"


def _report(
    published: dict[str, datetime],
    steps: dict[str, dict[str, datetime]],
    passes: list[float],
    issuers: int,
) -> None:
    if passes:
        print(
            f"watch passes completed {len(passes)}: fastest {passes[0]:.2f} s, "
            f"median {statistics.median(passes):.2f} s, slowest {passes[-1]:.2f} s (flow-run time)"
        )
    print(f"documents published {len(published)}, issuers configured {issuers}")
    for step in STEPS:
        took = _took(step, published, steps)
        if took:
            print(_line(f"publication -> {step}", took))


def main(argv: list[str] | None = None) -> None:
    """Print p50, p95 and max, and where the time goes."""
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
        with (
            scratch_warehouse(folder) as url,
            ReplayServer(universe) as replay,
            loopback_webhook() as (hook, received),
        ):
            worker_env = pipeline_env(
                env, replay.url, url, folder / "data", universe / "issuers.toml"
            )
            worker_env["FILINGS_WEBHOOK_URL"] = hook
            _prefect(env, "work-pool", "create", POOL, "--type", "process")
            deploy = ["--no-prompt", "deploy", "--prefect-file", "deploy/prefect.yaml"]
            for name in DEPLOYMENTS:
                _prefect(worker_env, *deploy, "--name", name)
            # deploy/prefect.yaml deploys the fetching schedules paused: enable watch's
            _prefect(env, "--no-prompt", "deployment", "schedule", "resume", "--all")
            worker = start(
                [str(BIN / "prefect"), "worker", "start", "--pool", POOL],
                worker_env,
                folder / "worker.log",
            )
            try:
                time.sleep(90)  # the first scheduled passes (nothing published yet)
                published = _publish(url, universe, args)
                runs = _runs(env["PREFECT_API_URL"])
            finally:
                stop(worker)
            loaded, alerted = _done(url), _alerted(url, received)
    steps = {d: _steps(d, at, runs) for d, at in published.items()}
    for doc in published:
        steps[doc] |= {k: v[doc] for k, v in (("loaded", loaded), ("alert", alerted)) if doc in v}
    passes = sorted(
        r.total_run_time.total_seconds()
        for r in runs["watch"]
        if r.state and r.state.is_completed()
    )
    _report(published, steps, passes, args.issuers)


if __name__ == "__main__":
    main()
