"""The fault suite at full size: lost / duplicated / unhandled counts on SQLite and PostgreSQL.

``python -m benchmarks.faults`` (full size: 10 kills per database during the run and 2 during
alert delivery, 2 and 4 concurrent runs, 1,000 fuzzed inputs per format); ``--seeds N
--concurrency 2,4 --databases sqlite,postgresql --fuzz N`` to choose. Every run is a real
``filings run`` process (:mod:`benchmarks.fault_runs`) against one Prefect API and one replay
server. Kills land after a seeded number of progress lines plus a seeded delay, so they spread
over listing, fetch, extraction, validation and load; two more land while a real SMTP server,
then a real HTTP endpoint, holds a message (:mod:`benchmarks.receivers`). After each kill the
warehouse is checked for documents stored half-way, then a rerun must end with exactly the
rows of an uninterrupted run: rows missing are "lost", rows beyond it "duplicated" (and an
alert a receiver got twice, or neither got nor recorded in doubt); a run that prints a
traceback, or fails without a one-line reason, is "unhandled"; a run left ``running`` in
``runs`` after the rerun, "stuck". Before those, one line per case of the outside probe
(issue 25, :mod:`benchmarks.fault_cases`): secrets, delivery, injection, relisted, limits.
"""

from __future__ import annotations

import argparse
import logging
import os
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path

from benchmarks import fault_cases
from benchmarks import fault_runs as fr
from benchmarks import receivers as rc
from benchmarks.warehouse_dump import (
    lost_and_duplicated,
    order_dependent,
    row_differences,
    without_failure_alerts,
)

os.environ.setdefault("DO_NOT_TRACK", "1")
os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")

Make = Callable[[Path], AbstractContextManager[fr.Warehouse]]
FACTORIES: dict[str, Make] = {
    "sqlite": fr.sqlite_warehouse,
    "postgresql": fr.postgres_warehouse,
}


@dataclass
class Tally:
    """What one database went through."""

    runs: int = 0
    kills: int = 0
    partial: int = 0
    lost: int = 0
    duplicated: int = 0
    unhandled: int = 0
    stuck: int = 0  # runs left "running" in the runs table after the rerun
    in_doubt: int = 0  # alert sends a kill left in doubt (never resent)
    order_dependent: int = 0  # cross-period checks passed on other stored figures
    concurrent: str = ""
    seconds: float = 0.0


def _kills(make: Make, root: Path, services: fr.Services, seeds: int, tally: Tally) -> fr.Dump:
    with make(root / "reference") as reference:
        started = time.monotonic()
        clean = fr.run(reference, services)
        took = time.monotonic() - started
        tally.runs += 1
        tally.unhandled += _failed("reference", clean)
        want, want_docs = fr.warehouse_dump(reference), fr.per_document(reference)
    lines = len(want_docs[0]) + 1
    for seed in range(seeds):
        after, extra = fr.kill_points(seed, lines, took / lines)
        with make(root / f"killed-{seed}") as warehouse:
            killed = fr.run_killed(warehouse, services, after, extra)
            tally.kills += killed.killed
            partial = fr.partial_documents(fr.per_document(warehouse), want_docs)
            tally.partial += len(partial)
            for line in partial[:3]:
                print(f"    kill {seed}: stored half-way: {line[:600]}", flush=True)
            rerun = fr.run(warehouse, services)
            tally.runs += 2
            tally.unhandled += _failed(f"kill {seed} rerun", rerun)
            tally.stuck += fr.run_statuses(warehouse).count("running")
            _compare(f"kill {seed} ({after} lines + {extra:.1f} s)", warehouse, want, tally)
    return want


def _failed(case: str, outcome: fr.Outcome) -> bool:
    """A run that printed a traceback or failed without its one-line reason (shown)."""
    bad = outcome.unhandled or outcome.returncode != 0
    if bad:
        print(f"    {case}: exit {outcome.returncode}: {outcome.stderr.strip()[-600:]}")
    return bad


def _compare(
    case: str, warehouse: fr.Warehouse, want: fr.Dump, tally: Tally, failed_runs: int = 0
) -> None:
    """Count rows lost and duplicated against the reference (cross-period evidence that
    depends on the validation order counted apart), and show what differs."""
    got, extra_failures = without_failure_alerts(fr.warehouse_dump(warehouse), failed_runs)
    tally.duplicated += extra_failures
    got, want, order = order_dependent(got, want)
    tally.order_dependent += order
    if order:
        print(f"    {case}: {order} cross-period check(s) with other evidence", flush=True)
    lost, duplicated = lost_and_duplicated(got, want)
    tally.lost += lost
    tally.duplicated += duplicated
    for line in row_differences(got, want)[:6]:
        print(f"    {case}: {line[:900]}", flush=True)


def _together(
    make: Make, root: Path, services: fr.Services, sizes: list[int], want: fr.Dump, tally: Tally
) -> None:
    notes = []
    for count in sizes:
        with make(root / f"together-{count}") as warehouse:
            outcomes = fr.run_together(warehouse, services, count)
            tally.runs += count
            tally.unhandled += sum(_failed(f"{count} together", o) for o in outcomes if o.unhandled)
            failed = sum(1 for o in outcomes if o.returncode)
            if failed:
                settle = fr.run(warehouse, services)
                tally.runs += 1
                tally.unhandled += _failed(f"{count} together, settling run", settle)
            _compare(f"{count} together", warehouse, want, tally, failed)
            exits = ",".join(str(o.returncode) for o in outcomes)
            notes.append(f"{count} runs exit {exits}")
    tally.concurrent = "; ".join(notes)


def _delivery_kills(
    make: Make, root: Path, services: fr.Services, want: fr.Dump, tally: Tally
) -> None:
    """Killed while the SMTP server holds the 2nd e-mail, then while the webhook holds the 3rd
    POST, then a rerun: receivers must get every alert once (twice: duplicated; neither
    received nor in doubt: lost)."""
    with rc.receivers() as (got, smtp_url, hook_url), make(root / "delivery") as warehouse:
        warehouse.env.update(
            FILINGS_SMTP_URL=smtp_url,
            FILINGS_ALERT_EMAIL_TO="ops@example.test",
            FILINGS_WEBHOOK_URL=hook_url,
            FILINGS_ALERT_DIGEST="false",
        )
        for holds in ((2, 0), (0, 3)):
            got.hold_mail, got.hold_post = holds
            got.reached.clear()
            tally.kills += fr.run_killed_when(warehouse, services, got.reached).killed
        got.hold_mail = got.hold_post = 0
        got.release.set()
        last = fr.run(warehouse, services)
        tally.runs += 3
        tally.unhandled += _failed("delivery rerun", last)
        received = rc.tally(got, warehouse)
        tally.duplicated += received.twice
        tally.lost += received.missing
        tally.in_doubt += received.in_doubt
        tally.stuck += fr.run_statuses(warehouse).count("running")
        got_dump = fr.warehouse_dump(warehouse)
    got_dump.pop("alert_deliveries", None)
    reference = {k: v for k, v in want.items() if k != "alert_deliveries"}
    got_dump, reference, order = order_dependent(got_dump, reference)
    tally.order_dependent += order
    lost, duplicated = lost_and_duplicated(got_dump, reference)
    tally.lost += lost
    tally.duplicated += duplicated
    for line in row_differences(got_dump, reference)[:6]:
        print(f"    delivery kills: {line[:900]}", flush=True)


def measure(name: str, services: fr.Services, seeds: int, sizes: list[int]) -> Tally:
    """Kills (during the run and during alert delivery) and concurrent runs on one database."""
    tally = Tally()
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix=f"faults-{name}-") as folder:
        want = _kills(FACTORIES[name], Path(folder), services, seeds, tally)
        _delivery_kills(FACTORIES[name], Path(folder), services, want, tally)
        _together(FACTORIES[name], Path(folder), services, sizes, want, tally)
    tally.seconds = time.monotonic() - started
    return tally


def _services() -> Iterator[fr.Services]:
    from prefect.settings import PREFECT_API_URL
    from prefect.testing.utilities import prefect_test_harness

    from tasks.sources.replay import ReplayServer, default_archive_root

    with (
        prefect_test_harness(server_startup_timeout=90),
        ReplayServer(default_archive_root()) as replay,
    ):
        yield fr.Services(str(PREFECT_API_URL.value()), replay.url)


def _fuzz(cases: int) -> int:
    from benchmarks import fuzz

    logging.getLogger("pdfminer").setLevel(logging.ERROR)  # its warnings on broken PDFs
    print("format  cases  read  refused  unhandled  seconds")
    unhandled = 0
    for fmt in fuzz.TARGETS:
        started = time.monotonic()
        tally = fuzz.fuzz(fmt, cases)
        took = time.monotonic() - started
        print(
            f"{fmt:<6} {tally.cases:>6} {tally.read:>5} {tally.refused:>8} "
            f"{len(tally.unhandled):>10} {took:>8.0f}",
            flush=True,
        )
        for line in tally.unhandled[:5]:
            print(f"    {line}")
        unhandled += len(tally.unhandled)
    return unhandled


def main(argv: list[str] | None = None) -> int:
    """Print the figures; exit 1 when anything was lost, duplicated, partial or unhandled."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=10, help="kills per database")
    parser.add_argument("--concurrency", default="2,4", help="concurrent runs, e.g. 2,4")
    parser.add_argument("--databases", default="sqlite,postgresql")
    parser.add_argument("--fuzz", type=int, default=1000, help="fuzzed cases per format")
    parser.add_argument(
        "--only-cases", action="store_true", help="only the outside probe's cases (issue 25)"
    )
    args = parser.parse_args(argv)
    sizes = [int(n) for n in args.concurrency.split(",") if n]
    if args.only_cases:
        for services in _services():
            fault_cases.report(services)
        return 0
    bad = _fuzz(args.fuzz)
    print(
        "database    runs kills partial lost duplicated unhandled stuck in-doubt order-dep "
        "seconds  concurrent"
    )
    for services in _services():
        fault_cases.report(services)
        for name in args.databases.split(","):
            t = measure(name, services, args.seeds, sizes)
            print(
                f"{name:<11} {t.runs:>4} {t.kills:>5} {t.partial:>7} {t.lost:>4} "
                f"{t.duplicated:>10} {t.unhandled:>9} {t.stuck:>5} {t.in_doubt:>8} "
                f"{t.order_dependent:>9} "
                f"{t.seconds:>7.0f}  "
                f"{t.concurrent}",
                flush=True,
            )
            bad += t.partial + t.lost + t.duplicated + t.unhandled + t.stuck
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
