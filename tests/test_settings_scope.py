"""A replay run's settings reach its flows as a settings scope, not through the environment
(issue 24 point 4: no environment variables as an internal channel)."""

from __future__ import annotations

import contextvars
import os
import threading

from flows.cli_common import SourceMode, source_urls
from tasks.config.settings import load_settings


def test_replay_settings_are_a_scope_that_follows_threads(tmp_path, monkeypatch):
    monkeypatch.setenv("FILINGS_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("FILINGS_DATABASE_URL", raising=False)
    before = dict(os.environ)
    seen: list[str] = []
    with source_urls(SourceMode.replay, load_settings()):
        assert dict(os.environ) == before  # nothing written to the environment
        inside = load_settings()
        context = contextvars.copy_context()  # as Prefect's task runner and the fetch stage do
        thread = threading.Thread(target=context.run, args=(lambda: seen.append(
            load_settings().warehouse_url),))  # fmt: skip
        thread.start()
        thread.join()
    assert inside.warehouse_url.endswith("/replay/warehouse.sqlite")
    assert inside.sec_data_url.startswith("http://127.0.0.1:")
    assert inside.hkex_seconds_between_requests == 0
    assert seen == [inside.warehouse_url]
    assert not load_settings().warehouse_url.endswith("/replay/warehouse.sqlite")
