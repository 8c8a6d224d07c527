"""Ctrl-C before a run begins (while Prefect's local API server starts): one line, exit 130.

Typer turns a KeyboardInterrupt outside the run into a silent exit 130; a person saw the
start-up line and then nothing.
"""

from contextlib import contextmanager

from typer.testing import CliRunner

from flows import cli


@contextmanager
def _interrupted_start():
    raise KeyboardInterrupt  # as SIGINT does while the server starts
    yield


def test_ctrl_c_while_prefect_starts_says_so_in_one_line(monkeypatch, tmp_path):
    monkeypatch.setenv("FILINGS_DATA_DIR", str(tmp_path))
    monkeypatch.setattr(cli, "begin_prefect", _interrupted_start)
    result = CliRunner().invoke(cli.app, ["run", "--source", "replay"])
    assert result.exit_code == 130
    assert result.stderr.strip().splitlines() == ["error: interrupted; rerun to finish"]
