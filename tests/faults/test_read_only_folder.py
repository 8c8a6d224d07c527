"""A read-only data folder, and settings a run cannot use, found before Prefect starts (issue
34, items 7 and 9).

An outside probe found ``status`` and ``export`` failing on a read-only data folder with
"unable to open database file" (SQLite's journal files cannot be created beside the file),
``run`` starting Prefect before it noticed, and a User-Agent with CR/LF or an ``sftp://``
archive URL refused only after Prefect had started. The folder is made read-only by a
read-only bind mount in a mount namespace of its own when the tests run as root (root writes
through permission bits), else by its permission bits.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from storage import db
from tests.faults.test_settings_checked_first import _refused
from tests.service_checks import unavailable

READERS = (["status"], ["export", "--out", "{out}"], ["report", "--out", "{out}"])


def _read_only(folder: Path) -> list[str]:
    """The command prefix that runs a command with ``folder`` read-only."""
    if os.geteuid() != 0:
        for path in [folder, *folder.rglob("*")]:
            path.chmod(path.stat().st_mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))
        return []
    if shutil.which("unshare") is None:
        unavailable(
            "running as root without unshare(1) (util-linux): no way to make a folder read-only"
        )
    mount = f'mount --bind -o ro "{folder}" "{folder}" && exec "$@"'
    return ["unshare", "-m", "sh", "-c", mount, "sh"]


def _filings(
    prefix: list[str], args: list[str], env: dict[str, str]
) -> subprocess.CompletedProcess:
    command = [sys.executable, "-c", "from flows.cli import main; main()", *args]
    return subprocess.run(prefix + command, env=env, capture_output=True, text=True, timeout=120)


@pytest.fixture
def read_only_data(tmp_path: Path) -> tuple[list[str], dict[str, str], Path]:
    data = tmp_path / "data"
    engine = db.open_warehouse(f"sqlite:///{data / 'warehouse.sqlite'}")
    engine.dispose()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FILINGS_", "PREFECT_"))}
    env.update(FILINGS_DATA_DIR=str(data), PREFECT_HOME=str(tmp_path / "prefect"))
    env.update(DO_NOT_TRACK="1", PREFECT_SERVER_ANALYTICS_ENABLED="false")
    prefix = _read_only(data)
    probe = subprocess.run([*prefix, "touch", str(data / "probe")], capture_output=True)
    if probe.returncode == 0:
        unavailable(
            "the folder could not be made read-only here (a read-only bind mount needs unshare -rm)"
        )
    return prefix, env, tmp_path


@pytest.mark.parametrize("args", READERS, ids=lambda a: a[0])
def test_a_reading_command_works_on_a_read_only_data_folder(read_only_data, args):
    prefix, env, tmp_path = read_only_data
    args = [a.format(out=tmp_path / "out") for a in args]
    done = _filings(prefix, args, env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "unable to open" not in done.stdout + done.stderr


def test_run_on_a_read_only_data_folder_is_one_line_before_prefect(read_only_data):
    prefix, env, tmp_path = read_only_data
    started = _filings(prefix, ["run", "--source", "replay"], env)
    lines = started.stderr.strip().splitlines()
    assert started.returncode == 1 and len(lines) == 1, started.stdout + started.stderr
    assert lines[0].startswith("error: FILINGS_DATA_DIR: ") and "read-only" in lines[0]
    assert not list((tmp_path / "prefect").rglob("*"))  # Prefect never started


def test_an_sftp_archive_is_refused_before_prefect(replay, tmp_path):
    line, _ = _refused(replay, tmp_path, FILINGS_ARCHIVE_URL="sftp://archive.example/raw")
    assert line.startswith("error: FILINGS_ARCHIVE_URL: sftp:// is not a storage"), line


def test_a_user_agent_with_a_line_break_is_refused_before_prefect(replay, tmp_path):
    agent = "Acme ops@acme.test\r\nX-Injected: 1"
    line, _ = _refused(replay, tmp_path, FILINGS_SEC_USER_AGENT=agent)
    assert line.startswith("error: FILINGS_SEC_USER_AGENT: holds a line break"), line
