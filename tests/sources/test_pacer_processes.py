"""SEC's fair-access limit held by the file pacer across processes and threads, as the replay
server sees it (it blocks like SEC past 10 requests in any second); SEC's and HKEx's pace per
user, whatever the data folder (issue 25, defect 5)."""

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from tasks.config.runtime import server_key, user_folder
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


def _runs(tmp_path, urls, source, count, envs):
    """Two runs of the same user, each with its own URL spelling, environment and data folder
    (as two backfills: a login shell beside cron or systemd)."""
    workers = [
        subprocess.Popen(
            [sys.executable, "-c", RUN, source, url, str(tmp_path / f"data{n}"), str(count)],
            env=env,
        )
        for n, (url, env) in enumerate(zip(urls, envs, strict=True))
    ]
    assert [w.wait(timeout=120) for w in workers] == [0, 0]


def _environments(tmp_path):
    """A login shell's (XDG_RUNTIME_DIR, TMPDIR and the old FILINGS_RUNTIME_DIR set) and
    cron's (none of them)."""
    unset = ("XDG_RUNTIME_DIR", "TMPDIR", "FILINGS_RUNTIME_DIR")
    bare = {k: v for k, v in os.environ.items() if k not in unset}
    for name in ("xdg", "tmp", "runtime"):
        (tmp_path / name).mkdir()
    shell = {
        **bare,
        "XDG_RUNTIME_DIR": str(tmp_path / "xdg"),
        "TMPDIR": str(tmp_path / "tmp"),
        "FILINGS_RUNTIME_DIR": str(tmp_path / "runtime"),
    }
    return [shell, bare]


def _spellings(url):
    """The replay server as ``localhost`` by one run and ``127.0.0.1.`` by the other."""
    port = url.rsplit(":", 1)[1]
    return [f"http://LocalHost:{port}", f"http://127.0.0.1:{port}"]


def test_two_runs_of_two_environments_and_spellings_share_secs_ten_per_second(tmp_path):
    # Found by outside probes: the pacer lived in each data folder (17 requests in one
    # second), then in a folder chosen by XDG_RUNTIME_DIR and keyed by the host as spelled
    # (19 with XDG_RUNTIME_DIR set beside unset, 20 with localhost beside 127.0.0.1).
    with ReplayServer(default_archive_root()) as replay:
        started = time.monotonic()
        _runs(tmp_path, _spellings(replay.url), "sec", 15, _environments(tmp_path))
        took = time.monotonic() - started
        times = sorted(r.at for r in replay.requests("/submissions/"))
    assert len(times) == 30
    assert max(sum(1 for t in times if s <= t < s + 1.0) for s in times) <= 10
    assert took < 60  # 30 requests at 10 per second, with two interpreters starting
    assert list(user_folder().glob(f"sec-loopback-{replay.url.rsplit(':', 1)[1]}.pacer"))


def test_hkex_pace_holds_across_processes_environments_and_spellings(tmp_path):
    # The probe saw two HKEx requests 0.66 s apart, then 0.17 s apart, at a 1 s pace.
    with ReplayServer(default_archive_root()) as replay:
        _runs(tmp_path, _spellings(replay.url), "hkex", 2, _environments(tmp_path))
        times = sorted(r.at for r in replay.requests("/submissions/"))
    assert len(times) == 4
    assert min(b - a for a, b in zip(times, times[1:], strict=False)) >= 1.0


def test_runtime_folder_is_one_per_user_whatever_the_environment(tmp_path, monkeypatch):
    default = user_folder()
    assert default == Path("/tmp") / f"filings-{os.getuid()}"
    assert default.stat().st_mode & 0o077 == 0
    for name in ("XDG_RUNTIME_DIR", "TMPDIR", "FILINGS_RUNTIME_DIR", "HOME"):
        monkeypatch.setenv(name, str(tmp_path))
    assert user_folder() == default


@pytest.mark.parametrize(
    "url",
    [
        "http://localhost:8123",
        "http://LOCALHOST.:8123/x",
        "http://127.0.0.1:8123",
        "http://[::1]:8123",
        "http://127.0.0.2:8123",
        "http://[::ffff:127.0.0.1]:8123",
    ],
)
def test_a_loopback_server_is_one_key_however_spelled(url):
    assert server_key(url) == "loopback-8123"


def test_a_public_host_is_keyed_by_its_name_and_port():
    assert server_key("https://WWW.SEC.GOV./Archives") == "www.sec.gov-443"
    assert server_key("https://www.sec.gov") == "www.sec.gov-443"
    assert server_key("http://192.168.1.5:80/") == server_key("http://192.168.1.5")
