"""An alert's "Prefect run:" line points at something that outlives the run.

``filings run``/``ingest`` without ``PREFECT_API_URL`` use a local API that stops with them:
the alert names the run (its id, which ``filings status`` lists) instead of a dead link.
"""

from __future__ import annotations

import re
import sqlite3

from cli_helpers import filings

from tasks.sources.replay import default_archive_root

# a release with two damaged narrative figures: one data-quality alert of its own
RELEASE = default_archive_root() / "sec/0001741530/0001104659-24-088431/tm2421456d1_ex99-1.htm"


def test_alert_names_the_run_instead_of_the_local_apis_port(user):
    work, env = user
    result = filings(["ingest", str(RELEASE)], work, env, timeout=300)
    assert result.returncode == 0, (result.stdout, result.stderr)
    with sqlite3.connect(work / "data" / "warehouse.sqlite") as conn:
        [message] = [m for (m,) in conn.execute("select message from alerts")]
    assert "127.0.0.1" not in message and "/runs/flow-run/" not in message, message
    found = re.search(r"^Prefect run: ([0-9a-f-]{36}) \(`filings status` lists it", message, re.M)
    assert found, message
    status = filings(["status"], work, env)
    assert f"run {found[1]}" in status.stdout, status.stdout
