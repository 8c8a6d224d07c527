"""SEC's fair-access limit held by the file pacer across processes and threads, as the replay
server sees it (it blocks like SEC past 10 requests in any second); SEC's and HKEx's pace per
user, whatever the data folder (issue 25, defect 5)."""

import os
import subprocess
import sys
import textwrap

import pytest

from tasks.config.runtime import user_folder
from tasks.config.settings import load_settings
from tasks.core.errors import ConfigError
from tasks.sources.replay import ReplayServer, default_archive_root

WORKER = textwrap.dedent(
    """
    import sys
    from concurrent.futures import ThreadPoolExecutor
    from pathlib import Path
    from tasks.sources.http import HttpClient
    from tasks.sources.pacer import FilePacer

    url, pacer_file = sys.argv[1], Path(sys.argv[2])
    client = HttpClient(user_agent="test t@example.com", limiter=FilePacer(pacer_file, 10))
    with ThreadPoolExecutor(3) as pool:
        list(pool.map(lambda _: client.get(url), range(12)))
    """
)


def test_two_processes_of_three_threads_never_exceed_ten_per_second(tmp_path):
    with ReplayServer(default_archive_root(), sec_rate_limit=10) as replay:
        url = f"{replay.url}/submissions/CIK0001741530.json"
        workers = [
            subprocess.Popen([sys.executable, "-c", WORKER, url, str(tmp_path / "sec.pacer")])
            for _ in range(2)
        ]
        assert [w.wait(timeout=120) for w in workers] == [0, 0]
        log = replay.requests("/submissions/")
    assert len(log) == 24 and {r.status for r in log} == {200}  # never blocked
    times = sorted(r.at for r in log)
    assert max(sum(1 for t in times if s <= t < s + 1.0) for s in times) <= 10
    assert replay.throttle is not None and replay.throttle.blocks == 0


RUN = textwrap.dedent(
    """
    import sys
    from tasks.config import wiring
    from tasks.config.settings import load_settings
    from tasks.sources.http import HttpClient

    source, url, data_dir = sys.argv[1], sys.argv[2], sys.argv[3]
    settings = load_settings(
        data_dir=data_dir, sec_archives_url=url, sec_data_url=url, hkex_url=url,
        sec_limiter="local", hkex_seconds_between_requests=1,
    )
    limiter = wiring.sec_limiter(settings) if source == "sec" else wiring.hkex_limiter(settings)
    client = HttpClient(user_agent="test t@example.com", limiter=limiter)
    for _ in range(int(sys.argv[4])):
        client.get(url + "/submissions/CIK0001741530.json")
    """
)


def _runs(tmp_path, url, source, count, env):
    """Two runs of the same user from two data folders (as two backfills from two shells)."""
    workers = [
        subprocess.Popen(
            [sys.executable, "-c", RUN, source, url, str(tmp_path / f"data{n}"), str(count)],
            env=env,
        )
        for n in range(2)
    ]
    assert [w.wait(timeout=120) for w in workers] == [0, 0]


def test_two_runs_from_two_data_folders_share_secs_ten_per_second(tmp_path, monkeypatch):
    # Found by an outside probe: the pacer lived in each data folder, so two backfills started
    # from two folders sent 17 requests in one second.
    env = {**os.environ, "FILINGS_RUNTIME_DIR": str(tmp_path / "runtime")}
    with ReplayServer(default_archive_root()) as replay:
        _runs(tmp_path, replay.url, "sec", 15, env)
        times = sorted(r.at for r in replay.requests("/submissions/"))
    assert len(times) == 30
    assert max(sum(1 for t in times if s <= t < s + 1.0) for s in times) <= 10
    assert list((tmp_path / "runtime").glob("sec-*.pacer"))


def test_hkex_pace_holds_across_processes_and_clients(tmp_path):
    # The probe saw two HKEx requests 0.66 s apart at a 1 s pace.
    env = {**os.environ, "FILINGS_RUNTIME_DIR": str(tmp_path / "runtime")}
    with ReplayServer(default_archive_root()) as replay:
        _runs(tmp_path, replay.url, "hkex", 2, env)
        times = sorted(r.at for r in replay.requests("/submissions/"))
    assert len(times) == 4
    assert min(b - a for a, b in zip(times, times[1:], strict=False)) >= 1.0


def test_runtime_folder_is_per_user_whatever_the_data_folder(tmp_path, monkeypatch):
    for name in ("FILINGS_RUNTIME_DIR", "XDG_RUNTIME_DIR"):
        monkeypatch.delenv(name, raising=False)
    default = user_folder(load_settings(data_dir=tmp_path / "a"))
    assert default == user_folder(load_settings(data_dir=tmp_path / "b"))
    assert default.name == f"filings-{os.getuid()}" and default.stat().st_mode & 0o077 == 0
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    assert user_folder(load_settings()) == (tmp_path / "filings").resolve()


def test_runtime_folder_of_another_kind_is_refused(tmp_path):
    (tmp_path / "file").write_text("")
    with pytest.raises(ConfigError, match="FILINGS_RUNTIME_DIR"):
        user_folder(load_settings(runtime_dir=tmp_path / "file"))
