"""Adding an issuer is configuration: `filings issuers add TICKER` resolves it from SEC's company
tickers file and HKEx's stock list (the bundled replay archive answers as SEC and HKEx would)."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest
from typer.testing import CliRunner

from domain.errors import ConfigError
from domain.records import Issuer
from flows.cli import app
from tasks.config.issuers import DEFAULT_ISSUERS, read_issuers, with_issuer, write_issuers
from tasks.sources.directory import hkex_code, names_match, resolve_issuer, sec_company
from tasks.sources.replay import Answer, ReplayServer, default_archive_root

ARCHIVE = default_archive_root()
TICKERS = json.loads((ARCHIVE / "sec" / "company_tickers.json").read_text())
STOCKS = json.loads((ARCHIVE / "hkex" / "activestock_sehk_e.json").read_text())
runner = CliRunner()
DEFAULT_QFIN = DEFAULT_ISSUERS[0]


class Recorded:
    """The two lists as the replay archive records them."""

    def company_tickers(self) -> dict[str, object]:
        return TICKERS

    def active_stocks(self) -> list[dict[str, object]]:
        return STOCKS


def test_a_ticker_resolves_to_its_cik_and_registrant_name() -> None:
    assert sec_company(TICKERS, "bke") == ("0000885245", "BUCKLE INC")
    assert sec_company(TICKERS, "NOPE") is None


def test_an_hkex_short_name_matches_the_registrant_word_by_word() -> None:
    assert names_match("QIFU TECH-S", "Qifu Technology, Inc.")
    assert not names_match("BABA-W", "Alibaba Group Holding Ltd")
    assert not names_match("TENCENT", "Qifu Technology, Inc.")
    assert hkex_code(STOCKS, "Qifu Technology, Inc.") == "03660"
    assert hkex_code(STOCKS, "BUCKLE INC") == ""


def test_an_issuer_on_one_exchange_only_is_resolved_from_that_list() -> None:
    assert resolve_issuer(Recorded(), "BKE") == Issuer("BKE", "BUCKLE INC", "0000885245", "")
    assert resolve_issuer(Recorded(), "QFIN").hkex_code == "03660"
    alco = resolve_issuer(Recorded(), "ALCO", "328")
    assert (alco.cik, alco.hkex_code, alco.name) == ("", "00328", "ALCO HOLDINGS")
    with pytest.raises(ConfigError, match="not in SEC's company tickers file"):
        resolve_issuer(Recorded(), "ZZZZ")
    with pytest.raises(ConfigError, match="not in HKEx's active stock list"):
        resolve_issuer(Recorded(), "ZZZZ", "99999")


def test_the_issuers_file_round_trips_with_either_id_absent(tmp_path: Path) -> None:
    path = tmp_path / "issuers.toml"
    issuers = (Issuer("BKE", "BUCKLE INC", "0000885245", ""), Issuer("ALCO", 'A "B"', "", "00328"))
    write_issuers(path, issuers)
    assert read_issuers(path) == issuers
    replaced = with_issuer(issuers, Issuer("BKE", "Buckle", "0000885245", ""))
    assert [i.name for i in replaced] == ['A "B"', "Buckle"]
    path.write_text('[[issuer]]\nticker = "X"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="give its cik and/or its hkex_code"):
        read_issuers(path)


def test_aliases_round_trip_and_survive_a_refresh(tmp_path: Path) -> None:
    path = tmp_path / "issuers.toml"
    alco = Issuer("ALCO", "ALCO HOLDINGS", "", "00328", ("愛高集團", 'Alco "Holdings"'))
    write_issuers(path, (alco,))
    assert read_issuers(path) == (alco,)
    refreshed = with_issuer((alco,), Issuer("ALCO", "ALCO HOLDINGS LTD", "", "00328"))
    assert refreshed[0].aliases == alco.aliases
    path.write_text('[[issuer]]\nticker = "X"\ncik = "1"\naliases = "X Co"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="aliases must be a list of names"):
        read_issuers(path)


def test_a_fiscal_year_end_round_trips_survives_a_refresh_and_is_checked(tmp_path: Path) -> None:
    path = tmp_path / "issuers.toml"
    bke = Issuer("BKE", "BUCKLE INC", "0000885245", "", fiscal_year_end="0201")
    write_issuers(path, (bke,))
    assert read_issuers(path) == (bke,)
    refreshed = with_issuer((bke,), Issuer("BKE", "BUCKLE INC", "0000885245", ""))
    assert refreshed[0].fiscal_year_end == "0201"
    path.write_text('[[issuer]]\nticker = "X"\ncik = "1"\nfiscal_year_end = "0231"\n', "utf-8")
    with pytest.raises(ConfigError, match="fiscal_year_end '0231' is not a month and day"):
        read_issuers(path)


@pytest.fixture
def cli_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    monkeypatch.setenv("FILINGS_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("FILINGS_ISSUERS_FILE", raising=False)
    for name, value in {
        "PREFECT_HOME": str(tmp_path / "prefect"),
        "DO_NOT_TRACK": "1",
        "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
        "PREFECT_LOGGING_LEVEL": "WARNING",
        "PREFECT_LOGGING_HANDLERS_CONSOLE_LEVEL": "WARNING",
        "PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS": "90",
    }.items():
        monkeypatch.setenv(name, value)
    return tmp_path


def test_issuers_add_writes_the_configuration(cli_env: Path) -> None:
    result = runner.invoke(app, ["issuers", "add", "BKE", "--source", "replay"])
    assert result.exit_code == 0, result.output
    assert "BKE: BUCKLE INC, SEC CIK 0000885245" in result.output
    configured = read_issuers(cli_env / "issuers.toml")
    # The embedded default stays configured beside the new issuer.
    assert [(i.ticker, i.cik, i.hkex_code) for i in configured] == [
        ("QFIN", "0001741530", "03660"),
        ("BKE", "0000885245", ""),
    ]
    listed = runner.invoke(app, ["issuers", "list"])
    assert "BKE  BUCKLE INC  CIK 0000885245  HKEx -" in listed.output


def test_an_unknown_ticker_is_one_line_and_changes_nothing(cli_env: Path) -> None:
    result = runner.invoke(app, ["issuers", "add", "ZZZZ", "--source", "replay"])
    assert result.exit_code == 1
    assert [line for line in result.output.splitlines() if line.strip()] == [
        "error: ZZZZ is not in SEC's company tickers file; pass --hkex CODE"
    ]
    assert not (cli_env / "issuers.toml").exists()


def test_an_unreachable_source_where_nothing_retries_promises_no_retry(
    cli_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        nowhere = f"http://127.0.0.1:{s.getsockname()[1]}"  # nothing listens once it closes
    monkeypatch.setenv("FILINGS_SEC_ARCHIVES_URL", nowhere)
    monkeypatch.setenv("FILINGS_SEC_DATA_URL", nowhere)
    monkeypatch.setenv("FILINGS_SEC_USER_AGENT", "Test Co ops@example.test")
    result = runner.invoke(app, ["issuers", "add", "BKE"])
    assert result.exit_code == 1
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and "ConnectionError" in lines[0], result.output
    assert "retry" not in lines[0].lower() and "tries again" not in lines[0]


HOSTILE_NAMES = ('EVIL "CO"\nINC', "BACK\\SLASH\tTAB", "ctl\x01\x7f end", "# not a comment", "'''")


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_any_name_from_a_directory_round_trips_through_the_issuers_file(
    tmp_path: Path, name: str
) -> None:
    # Found by an outside probe: a company name with a newline from SEC was written raw into
    # issuers.toml and every later command failed with "Illegal character '\n'".
    path = tmp_path / "issuers.toml"
    issuers = (Issuer("EVL", name, "0000000042", "", (name,)), DEFAULT_QFIN)
    write_issuers(path, issuers)
    assert read_issuers(path) == issuers


def test_issuers_add_of_a_name_with_a_newline_leaves_a_file_that_reads(
    cli_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tickers = {"0": {"cik_str": 885245, "ticker": "BKE", "title": 'BUCKLE "INC"\nX = 1'}}
    with ReplayServer(ARCHIVE) as server:
        server.inject("company_tickers", Answer(200, json.dumps(tickers).encode()))
        for name in ("FILINGS_SEC_DATA_URL", "FILINGS_SEC_ARCHIVES_URL", "FILINGS_HKEX_URL"):
            monkeypatch.setenv(name, server.url)
        monkeypatch.setenv("FILINGS_SEC_USER_AGENT", "Test ops@example.test")
        monkeypatch.setenv("FILINGS_HKEX_SECONDS_BETWEEN_REQUESTS", "0")
        result = runner.invoke(app, ["issuers", "add", "BKE", "--source", "live"])
    assert result.exit_code == 0, result.output
    configured = read_issuers(cli_env / "issuers.toml")
    assert [i.name for i in configured] == ["Qifu Technology, Inc.", 'BUCKLE "INC"\nX = 1']
    assert runner.invoke(app, ["issuers", "list"]).exit_code == 0
