"""``filings ingest`` as a new user runs it: Prefect's state under ./data/prefect, no Prefect
log lines on the terminal (only the progress and the summary), then a repeat loads nothing."""

from __future__ import annotations

import re

from cli_helpers import filings

from tasks.sources.replay import default_archive_root

EXHIBIT = default_archive_root() / "sec/0001741530/0001104659-24-032436/tm248123d1_ex99-1.htm"
PREFECT_LOG_LINE = re.compile(r"^\d\d:\d\d:\d\d\.\d{3} \| ")


def test_ingest_keeps_prefect_quiet_and_home_local_then_recognises_the_repeat(user):
    work, env = user
    first = filings(["ingest", str(EXHIBIT)], work, env, timeout=240)
    assert first.returncode == 0, first.stderr
    assert "documents: 1 found, 1 new, 1 ingested" in first.stdout
    noise = [x for x in first.stderr.splitlines() if PREFECT_LOG_LINE.match(x)]
    assert noise == [], first.stderr
    assert first.stderr.splitlines()[0].startswith("starting Prefect's local API server")
    assert (work / "data" / "prefect").is_dir()  # not ~/.prefect

    again = filings(["ingest", str(EXHIBIT)], work, env, timeout=240)
    assert again.returncode == 0, again.stderr
    assert "nothing new to ingest" in again.stdout
    assert "not loaded again: tm248123d1_ex99-1.htm: already in the warehouse as local:" in (
        again.stdout
    )
