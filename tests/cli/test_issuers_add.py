"""``filings issuers add`` for an HKEx-only issuer asks HKEx only, and a source that does not
answer is one line saying what to do (nothing retries it); docs/operator.md shows an entry to
write by hand, which the pipeline reads."""

from __future__ import annotations

import json
import re
from pathlib import Path

from cli_helpers import filings
from pytest_httpserver import HTTPServer

from domain.records import Issuer
from tasks.config.issuers import read_issuers
from tasks.sources.replay import default_archive_root

ROOT = Path(__file__).resolve().parents[2]
STOCKS = default_archive_root() / "hkex" / "activestock_sehk_e.json"
DEAD = "http://127.0.0.1:9"  # the discard port: nothing answers


def test_an_hkex_only_issuer_is_added_without_asking_sec(user, httpserver: HTTPServer):
    work, env = user
    httpserver.expect_request("/ncms/script/eds/activestock_sehk_e.json").respond_with_json(
        json.loads(STOCKS.read_text(encoding="utf-8"))
    )
    # no SEC User-Agent, and SEC unreachable: neither matters for an HKEx-only issuer
    env = {**env, "FILINGS_HKEX_URL": httpserver.url_for("/").rstrip("/"),
           "FILINGS_SEC_ARCHIVES_URL": DEAD, "FILINGS_SEC_DATA_URL": DEAD}  # fmt: skip
    result = filings(["issuers", "add", "EBH", "--hkex", "1856"], work, env)
    assert result.returncode == 0, (result.stdout, result.stderr)
    assert result.stdout.splitlines() == [
        "EBH: ERNEST BOREL, not on SEC, HKEx 01856 -> data/issuers.toml"
    ]
    issuers = read_issuers(work / "data" / "issuers.toml")
    assert Issuer("EBH", "ERNEST BOREL", "", "01856") in issuers
    # The walk of issue 35: `add` wrote `issuer = [{...}, {...}]`, so an [[issuer]] entry
    # appended by hand, as docs/operator.md shows, broke the file ("Cannot mutate immutable
    # namespace ('issuer',)"). One [[issuer]] table per issuer, and a hand-added one reads.
    path = work / "data" / "issuers.toml"
    written = path.read_text(encoding="utf-8")
    assert written.count("[[issuer]]\n") == len(issuers) and "issuer = [" not in written
    guide = (ROOT / "docs" / "operator.md").read_text(encoding="utf-8")
    bke = re.findall(r"^```toml\n(\[\[issuer\]\]\n.*?)\n\n", guide, re.M | re.S)[0]
    path.write_text(f"{written}\n{bke}\n", encoding="utf-8")
    assert [i.ticker for i in read_issuers(path)][-1] == "BKE"


def test_the_replay_archive_knows_the_real_documents_issuer(user):
    work, env = user
    result = filings(["issuers", "add", "EBH", "--hkex", "1856", "--source", "replay"], work, env)
    assert result.returncode == 0, (result.stdout, result.stderr)
    assert "HKEx 01856" in result.stdout


def test_offline_add_is_one_line_saying_what_to_do_and_writes_nothing(user):
    work, env = user
    env = {**env, "FILINGS_HKEX_URL": DEAD, "FILINGS_SEC_ARCHIVES_URL": DEAD,
           "FILINGS_SEC_USER_AGENT": "Test tests@example.com"}  # fmt: skip
    for args in (["EBH", "--hkex", "1856"], ["BKE"]):
        result = filings(["issuers", "add", *args], work, env)
        lines = result.stderr.strip().splitlines()
        assert result.returncode == 1 and len(lines) == 1, result.stderr
        assert "will retry" not in lines[0]
        assert "no answer" in lines[0] and "by hand (docs/operator.md" in lines[0], lines[0]
    assert not (work / "data" / "issuers.toml").exists()


def test_operator_guide_shows_an_issuers_file_entry_the_pipeline_reads(tmp_path):
    guide = (ROOT / "docs" / "operator.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```toml\n(.*?)^```", guide, re.M | re.S)
    assert blocks, "no issuers.toml example in docs/operator.md"
    path = tmp_path / "issuers.toml"
    path.write_text(blocks[0], encoding="utf-8")
    issuers = {i.ticker: i for i in read_issuers(path)}
    assert issuers["EBH"].hkex_code == "01856" and not issuers["EBH"].cik
    assert issuers["BKE"].cik == "0000885245"
