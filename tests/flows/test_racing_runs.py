"""Two runs in two processes racing on the same new documents, on one warehouse (SQLite and
PostgreSQL) and one raw archive: each document is processed by one of them, one set of rows,
one alert per finding, each alert delivered once."""

import json
import os
import subprocess
import sys
import textwrap
from collections import Counter
from contextlib import ExitStack

from prefect.settings import PREFECT_API_URL
from sqlalchemy import func, select

from storage import db
from storage.schema import alert_events, document_claims, documents, facts
from tasks.runs.bookkeeping import warehouse_status
from tasks.runs.summary import count_lines
from tasks.sources.replay import ReplayServer, default_archive_root

RUN = textwrap.dedent(
    """
    import json, sys, time
    from pathlib import Path
    from flows.ingest import ingest

    barrier = Path(sys.argv[1])
    (barrier / sys.argv[2]).touch()
    while len(list(barrier.iterdir())) < 2:  # start together
        time.sleep(0.02)
    s = ingest()
    print(json.dumps({"ingested": s.ingested, "facts": s.facts_loaded, "failed": s.failed,
                      "elsewhere": len(s.elsewhere), "new": s.new, "found": s.found,
                      "unchanged": s.unchanged, "waiting": s.waiting,
                      "raised": s.alerts_raised, "delivered": s.alerts_delivered,
                      "others": s.delivered_for_others, "lines": s.render().splitlines()}))
    """
)


def _count(url, table, *where):
    engine = db.make_engine(url)
    with engine.connect() as conn:
        found = conn.execute(select(func.count()).select_from(table).where(*where)).scalar_one()
    engine.dispose()
    return found


def test_two_processes_racing_process_each_document_once(db_url, tmp_path, httpserver):
    httpserver.expect_request("/hook", method="POST").respond_with_data("ok")
    (tmp_path / "barrier").mkdir()
    with ReplayServer(default_archive_root()) as replay, ExitStack() as files:
        env = {
            **os.environ,
            "PREFECT_API_URL": PREFECT_API_URL.value(),
            "FILINGS_DATABASE_URL": db_url,
            "FILINGS_DATA_DIR": str(tmp_path / "data"),
            "FILINGS_ARCHIVE_URL": str(tmp_path / "archive"),
            "FILINGS_SEC_DATA_URL": replay.url,
            "FILINGS_SEC_ARCHIVES_URL": replay.url,
            "FILINGS_HKEX_URL": replay.url,
            "FILINGS_HKEX_SECONDS_BETWEEN_REQUESTS": "0",
            "FILINGS_SEC_LIMITER": "local",
            "FILINGS_WEBHOOK_URL": httpserver.url_for("/hook"),
            "FILINGS_ALERT_DIGEST": "false",
        }
        logs = [tmp_path / f"{name}.log" for name in ("a", "b")]
        runs = [
            subprocess.Popen(
                [sys.executable, "-c", RUN, str(tmp_path / "barrier"), log.stem],
                env=env,
                stdout=subprocess.PIPE,
                stderr=files.enter_context(log.open("w")),
                text=True,
            )
            for log in logs
        ]
        outputs = [run.communicate(timeout=600)[0] for run in runs]
    # a failure shows what each run printed last (its log lines, a traceback)
    said = "\n".join(f"--- {log.stem}:\n{log.read_text()[-3000:]}" for log in logs)
    assert [run.returncode for run in runs] == [0, 0], said
    a, b = (json.loads(out.strip().splitlines()[-1]) for out in outputs)
    assert a["failed"] == b["failed"] == [], said
    assert a["elsewhere"] + b["elsewhere"] > 0, said  # they raced: one found documents claimed
    listed = documents.c.source != "xbrl"  # audited filings (XBRL company facts) are not listed
    processed = _count(db_url, documents, listed, documents.c.status.in_(["loaded", "quarantined"]))
    assert processed == _count(db_url, documents, listed) == a["new"] + b["new"] > 0
    assert a["ingested"] + b["ingested"] == processed  # nobody processed a document twice
    assert a["facts"] + b["facts"] == _count(db_url, facts) > 0
    assert _count(db_url, document_claims) == 0  # every claim released
    alerts = _count(db_url, alert_events)
    keys = Counter(r.headers["Idempotency-Key"] for r, _ in httpserver.log)
    assert alerts > 0 and len(keys) == alerts and set(keys.values()) == {1}
    # Their counts add up, each by the one definition (tests/flows/test_run_counts.py): every
    # alert raised by one of them, none delivered for a run beyond what it raised.
    for run in (a, b):
        rest = run["elsewhere"] + len(run["failed"]) + run["waiting"] + run["unchanged"]
        assert run["found"] == run["ingested"] + rest, said
        assert run["delivered"] <= run["raised"], said
    assert a["raised"] + b["raised"] == alerts, said
    assert a["delivered"] + b["delivered"] + a["others"] + b["others"] >= alerts, said
    # and `filings status` says what each run printed
    engine = db.make_engine(db_url)
    stored = [count_lines(r.summary) for r in warehouse_status(engine).runs]
    engine.dispose()
    for run in (a, b):
        assert any(all(x in run["lines"] for x in lines) for lines in stored), (stored, said)
