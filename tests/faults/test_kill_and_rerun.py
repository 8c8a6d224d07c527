"""kill -9: a real ``filings run`` process killed at seeded points leaves no document stored
half-way (facts, validations, guidance, dividends and status: all or nothing), and a rerun ends
with exactly the rows of an uninterrupted run, on SQLite and PostgreSQL.

The size is small here (``FILINGS_FAULT_SEEDS``, default 1 kill per database);
``python -m benchmarks.faults`` runs many more and prints the figures.
"""

from __future__ import annotations

import os

import pytest
from prefect.settings import PREFECT_API_URL

from benchmarks import fault_runs as fr
from benchmarks.warehouse_dump import differences

# Several whole runs in one test: more than the suite's default per-test limit on a busy machine.
pytestmark = [pytest.mark.usefixtures("prefect_api"), pytest.mark.timeout(1200)]
# CI: one kill per database, each database its own seed (so the two kills land at different
# points); python -m benchmarks.faults runs 10 per database.
SEEDS = int(os.environ.get("FILINGS_FAULT_SEEDS", "1"))
FIRST_SEED = {"sqlite": 0, "postgresql": 1}


class TestKillNineThenRerun:
    """Seeded SIGKILLs spread over a run (listing, fetch, extraction, validation, load)."""

    def test_no_partial_document_and_the_rerun_equals_an_uninterrupted_run(
        self, warehouse_at, replay, tmp_path
    ):
        services = fr.Services(str(PREFECT_API_URL.value()), replay.url)
        want, want_docs, took = warehouse_at.reference(tmp_path / "reference", services)
        lines = len(want_docs[0]) + 1  # a line per document, and the batch's first line
        first = FIRST_SEED[warehouse_at.kind]
        for seed in range(first, first + SEEDS):
            after, extra = fr.kill_points(seed, lines, took / lines)
            with warehouse_at(tmp_path / f"killed-{seed}") as warehouse:
                killed = fr.run_killed(warehouse, services, after, extra)
                assert fr.partial_documents(fr.per_document(warehouse), want_docs) == []
                rerun = fr.run(warehouse, services)
                assert rerun.returncode == 0 and not rerun.unhandled, rerun.stderr
                got = fr.warehouse_dump(warehouse)
                assert differences(got, want) == [], (seed, after, extra, killed.killed)
                # the killed run's row does not stay "running": the rerun marked it crashed
                statuses = fr.run_statuses(warehouse)
                assert statuses[-1] == "completed" and "running" not in statuses, statuses
