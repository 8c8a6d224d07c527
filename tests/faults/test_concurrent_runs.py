"""Concurrent runs: 2 and 4 ``filings run`` processes started together on one warehouse leave
one set of rows and one alert per finding; each exits 0, or 1 with a one-line reason (never a
traceback). ``FILINGS_FAULT_CONCURRENCY`` picks the sizes (CI: 2)."""

from __future__ import annotations

import os

import pytest
from prefect.settings import PREFECT_API_URL

from benchmarks import fault_runs as fr
from benchmarks.warehouse_dump import differences, without_failure_alerts

# Several whole runs in one test: more than the suite's default per-test limit on a busy machine.
pytestmark = [pytest.mark.usefixtures("prefect_api"), pytest.mark.timeout(1200)]
SIZES = [int(n) for n in os.environ.get("FILINGS_FAULT_CONCURRENCY", "2").split(",")]


class TestConcurrentRuns:
    """Runs side by side on the same documents."""

    @pytest.mark.parametrize("count", SIZES)
    def test_one_set_of_rows_and_one_line_outcomes(self, warehouse_at, replay, tmp_path, count):
        services = fr.Services(str(PREFECT_API_URL.value()), replay.url)
        want, _, _ = warehouse_at.reference(tmp_path / "reference", services)
        with warehouse_at(tmp_path / "together") as warehouse:
            outcomes = fr.run_together(warehouse, services, count)
            assert [o for o in outcomes if o.unhandled] == []
            assert any(o.returncode == 0 for o in outcomes), [o.stderr[-500:] for o in outcomes]
            failed = sum(1 for o in outcomes if o.returncode)
            if failed:  # what a failed one left: the next run takes
                settle = fr.run(warehouse, services)
                assert settle.returncode == 0 and not settle.unhandled, settle.stderr
            # a failed run's hook raised its pipeline_failure alert: one per failed run at most
            got, alerted_twice = without_failure_alerts(fr.warehouse_dump(warehouse), failed)
            assert alerted_twice == 0
            assert differences(got, want) == []
