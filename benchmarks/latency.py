"""Publication to alert, with the ``watch`` deployment as deployed (watching runs of 600 s
reading the listings every 5 s) on a real Prefect server and process worker: p50, p95, max.

A generated universe of N issuers (all configured, so every pass filters the listings) starts
empty; QFIN (the universe's first issuer, whose label catalog ships with the package) then
publishes a results release on both sources every ``--every`` seconds, ``--count`` times.
Latency is from the moment the files appear on the replay server to the first alert about the
document received by a loopback webhook (and, for every document, to its row turning
``loaded`` or ``quarantined``). Where the time goes: publication to the start and end of the
watch pass that saw it, to the start of the ``watch-ingest`` run that processed it, to loaded,
to the alert (medians and maxima; runs as Prefect recorded them). The floor is printed beside
them: the listings are read every ``every_seconds`` (the deployment's), so a publication waits
for its reading half that interval at the median and the whole at most, before any work.
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

import yaml
from sqlalchemy import func, select

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
from storage.schema import alert_events, documents, validation_results
from tasks.sources.replay import ReplayServer
from tasks.sources.replay_universe import Member, build_universe, publish

POOL = "filings-process"
DEPLOYMENTS = ("watch", "watch-ingest")
STEPS = ("ingest start", "validated", "alert")


def _prefect(env: dict[str, str], *args: str) -> None:
    subprocess.run([str(BIN / "prefect"), *args], cwd=ROOT, env=env, check=True, timeout=300,
                   capture_output=True)  # fmt: skip


def _done(url: str) -> set[str]:
    """The documents processed to the end (loaded or quarantined)."""
    engine = db.make_engine(url)
    d = documents.c
    with engine.connect() as conn:
        rows = conn.execute(
            select(d.document_id).where(d.status.in_(["loaded", "quarantined"]))
        ).all()
    engine.dispose()
    return {doc for (doc,) in rows}


def _validated(url: str) -> dict[str, datetime]:
    """Document -> when its first validation result was stored (it is loaded with them)."""
    engine = db.make_engine(url)
    v = validation_results.c
    with engine.connect() as conn:
        rows = conn.execute(
            select(v.document_id, func.min(v.validated_at)).group_by(v.document_id)
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


def _publish(
    url: str, universe: Path, args: argparse.Namespace
) -> tuple[dict[str, datetime], list[tuple[str, ...]]]:
    """Publish; return each document's publication time, and the documents of each release."""
    published: dict[str, datetime] = {}
    releases: list[tuple[str, ...]] = []
    for q in range(args.count):
        now = datetime.now(UTC)
        releases.append(tuple(publish(universe, Member(0), q, now)))
        published |= dict.fromkeys(releases[-1], now)
        time.sleep(args.every * random.uniform(0.5, 1.5))
    deadline = time.monotonic() + args.drain
    while time.monotonic() < deadline and not set(published) <= _done(url):
        time.sleep(2)
    time.sleep(10)  # the last runs' alert deliveries
    missing = sorted(set(published) - _done(url))
    if missing:
        print(f"not loaded within {args.drain:.0f} s of the last publication: {missing}")
    return published, releases


def _runs(api_url: str) -> dict[str, list[Any]]:
    """Deployment name -> its flow runs that started, as Prefect recorded them."""
    from prefect import get_client
    from prefect.client.schemas.filters import DeploymentFilter, DeploymentFilterName
    from prefect.settings import PREFECT_API_URL, temporary_settings

    found: dict[str, list[Any]] = {}
    with temporary_settings({PREFECT_API_URL: api_url}), get_client(sync_client=True) as client:
        for name in (*DEPLOYMENTS, None):  # None: the subflows (no deployment)
            runs: list[Any] = []
            while len(runs) % 200 == 0:  # the API's page is at most 200 runs
                page = client.read_flow_runs(
                    deployment_filter=DeploymentFilter(name=DeploymentFilterName(any_=[name]))
                    if name
                    else None,
                    limit=200,
                    offset=len(runs),
                )
                runs += page
                if not page:
                    break
            started = (r for r in runs if r.start_time)
            found[name or ""] = sorted(started, key=lambda r: r.start_time)
    return found


def _steps(doc: str, at: datetime, runs: dict[str, list[Any]]) -> dict[str, datetime]:
    """When the ingest run that processed the document started (a watching run's subflow, or
    a ``watch-ingest`` run a one-pass run started)."""
    found: dict[str, datetime] = {}
    source = doc.split(":")[0]
    ingest = next(
        (r for r in sorted(runs[""] + runs["watch-ingest"], key=lambda r: r.start_time)
         if r.start_time >= at and source in (r.parameters.get("sources") or [])),
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
    watching: list[Any],
    releases: list[tuple[str, ...]],
    issuers: int,
    every: float,
) -> None:
    print(f"watching runs: {len(watching)} (UTC)")
    for r in watching:
        end = r.end_time.strftime("%H:%M:%S") if r.end_time else "..."
        print(f"  {r.name}: {r.start_time:%H:%M:%S} to {end}, {r.state_name}")
    print("published (UTC): " + ", ".join(f"{at:%H:%M:%S}" for at in sorted(published.values())))
    print(f"documents published {len(published)}, issuers configured {issuers}")
    for step in STEPS:
        took = _took(step, published, steps)
        if took:
            print(_line(f"publication -> {step} (per document)", took))
    first = sorted(
        min(alerted)
        for docs in releases
        if (alerted := [(steps[d]["alert"] - published[d]).total_seconds()
                        for d in docs if "alert" in steps[d]])
    )  # fmt: skip
    if first:
        print(_line("publication -> first alert about the release (its 6-K or PDF)", first))
    print(f"floor (the listings read every {every:g} s): p50 {every / 2:.1f} s, "
          f"max {every:.1f} s from publication to the reading that sees it")  # fmt: skip


def main(argv: list[str] | None = None) -> None:
    """Print p50, p95 and max, and where the time goes."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--issuers", type=int, default=300)
    parser.add_argument("--count", type=int, default=20, help="publications (2 documents each)")
    parser.add_argument("--every", type=float, default=20.0, help="mean seconds between them")
    parser.add_argument("--drain", type=float, default=300.0)
    parser.add_argument("--watch-seconds", type=int, help="watching runs' length and interval")
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
            config = _deployments_file(folder, args.watch_seconds)
            deploy = ["--no-prompt", "deploy", "--prefect-file", str(config)]
            for name in DEPLOYMENTS:
                _prefect(worker_env, *deploy, "--name", name)
            # deploy/prefect.yaml deploys the fetching schedules paused: enable watch's, and
            # watch at once by hand until the schedule's first run takes over (docs/operator.md)
            _prefect(env, "--no-prompt", "deployment", "schedule", "resume", "--all")
            _prefect(env, "deployment", "run", "watch/watch")
            worker = start(
                [str(BIN / "prefect"), "worker", "start", "--pool", POOL],
                worker_env,
                folder / "worker.log",
            )
            try:
                time.sleep(60)  # the first readings (nothing published yet)
                published, releases = _publish(url, universe, args)
                runs = _runs(env["PREFECT_API_URL"])
            finally:
                stop(worker)
            validated, alerted = _validated(url), _alerted(url, received)
    steps = {d: _steps(d, at, runs) for d, at in published.items()}
    for doc in published:
        pairs = (("validated", validated), ("alert", alerted))
        steps[doc] |= {k: v[doc] for k, v in pairs if doc in v}
    every = _every_seconds(ROOT / "deploy" / "prefect.yaml")  # a copy keeps its every_seconds
    _report(published, steps, runs["watch"], releases, args.issuers, every)


def _every_seconds(config: Path) -> float:
    """How often the ``watch`` deployment's runs read the listings."""
    deployments = yaml.safe_load(config.read_text())["deployments"]
    (watch,) = [d for d in deployments if d["name"] == "watch"]
    return float(watch["parameters"]["every_seconds"])


def _deployments_file(folder: Path, seconds: int | None) -> Path:
    """deploy/prefect.yaml, or a copy whose watching runs last ``seconds`` (interval too)."""
    if not seconds:
        return ROOT / "deploy" / "prefect.yaml"
    config = yaml.safe_load((ROOT / "deploy" / "prefect.yaml").read_text())
    (watch,) = [d for d in config["deployments"] if d["name"] == "watch"]
    watch["schedules"][0]["interval"] = watch["parameters"]["watch_seconds"] = seconds
    copy = folder / "prefect.yaml"
    copy.write_text(yaml.safe_dump(config))
    return copy


if __name__ == "__main__":
    main()
