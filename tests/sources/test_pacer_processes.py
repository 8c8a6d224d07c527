"""SEC's fair-access limit held by the file pacer across processes and threads, as the replay
server sees it (it blocks like SEC past 10 requests in any second)."""

import subprocess
import sys
import textwrap

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
