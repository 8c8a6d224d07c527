"""What a command costs from a cold shell, in CPU seconds (its whole process tree) beside wall.

``python -m benchmarks.cold [--repeat N]`` times, each in a fresh process:
- floors: the interpreter doing nothing, and ``import prefect`` (what any flow pays first);
- ``filings ingest`` of one 13-page HKEx results PDF into a fresh data folder;
- a no-op pass, ``filings run --source replay`` after a first run found everything, with
  Prefect's local API started by the command, and against a running server
  (``PREFECT_API_URL`` set).
Targets (#24): ingest <= 8 s CPU, no-op pass <= 2 s CPU against a running server. CPU seconds
are user + system of the command and every child it waited for; the load average is printed
(wall seconds move with it).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.stack import prefect_server
from tasks.sources.replay import default_archive_root

PDF = default_archive_root() / "hkex" / "03660" / "11480512.pdf"
FILINGS = str(Path(sys.executable).parent / "filings")


def _cost(args: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float, int]:
    """(CPU s of the process tree, wall s, exit code) of one command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    done = subprocess.run(args, env=env, cwd=cwd, capture_output=True, timeout=900)
    wall = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall, done.returncode


def _line(label: str, runs: list[tuple[float, float, int]], target: str = "") -> None:
    cpu = statistics.median(r[0] for r in runs)
    wall = statistics.median(r[1] for r in runs)
    codes = sorted({r[2] for r in runs})
    print(f"{label:<52} {cpu:6.2f} s CPU {wall:7.2f} s wall  exit {codes} {target}", flush=True)


def _env(home: Path, extra: dict[str, str] | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FILINGS_", "PREFECT_"))}
    env.update({"HOME": str(home), "DO_NOT_TRACK": "1", **(extra or {})})
    return env


def main(argv: list[str] | None = None) -> int:
    """Print one line per command: median CPU and wall seconds over ``--repeat`` runs."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.cold")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    print(f"before: load average {os.getloadavg()[0]:.2f}, {os.cpu_count()} CPUs")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        env = _env(root)
        py = [sys.executable, "-c"]
        _line("floor: python -c pass", [_cost([*py, "pass"], env, root)])
        _line("floor: import prefect", [_cost([*py, "import prefect"], env, root)])
        ingests = []
        for n in range(args.repeat):
            work = root / f"ingest-{n}"
            work.mkdir()
            ingests.append(_cost([FILINGS, "ingest", str(PDF), "--issuer", "QFIN"], env, work))
        _line("filings ingest (13-page PDF, fresh folder)", ingests, "target <= 8 s CPU")
        work = root / "noop"
        work.mkdir()
        first = _cost([FILINGS, "run", "--source", "replay"], env, work)
        _line("filings run --source replay (first, 10 documents)", [first])
        replay = [FILINGS, "run", "--source", "replay"]
        noop = [_cost(replay, env, work) for _ in range(args.repeat)]
        _line("no-op pass, local API started by the command", noop)
        with prefect_server(root / "server") as served:
            api = {"PREFECT_API_URL": served["PREFECT_API_URL"]}
            env_api = _env(root, api)
            noop = [_cost([FILINGS, "run", "--source", "replay"], env_api, work)]
            noop += [_cost([FILINGS, "run", "--source", "replay"], env_api, work)]
            _line("no-op pass against a running server", noop, "target <= 2 s CPU")
    print(f"after: load average {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
