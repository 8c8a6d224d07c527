"""Every command the README and docs/ show, run with bad input: one line on stderr, a
non-zero exit.

The list below is checked against the README and docs/*.md, so a command added there without
a bad-input case here fails this test.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from cli_helpers import filings

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = ROOT / "tests" / "fixtures" / "reference"
FOREIGN_6K = REFERENCE / "sec" / "sec_6k_primary_philips_phg-20230130.htm"
FOREIGN_PDF = REFERENCE / "hkex" / "hkex_00328_2025-06-27_profit_warning_zh.pdf"

# (command line, extra environment, what the one line must say); "{warehouse}" needs a
# migrated empty warehouse in the working folder.
CASES = [
    ("rnu", {}, "No such command"),
    ("run --source replay --issuer NOPE", {}, "unknown issuer NOPE"),
    ("run --source replay --since 2024-02-30", {}, "--since"),
    ("run --source nowhere", {}, "--source"),
    ("run --source live", {}, "FILINGS_SEC_USER_AGENT"),
    ("run --source live", {"FILINGS_HKEX_URL": "www1.hkexnews.hk"}, "FILINGS_HKEX_URL"),
    ("run --source replay", {"FILINGS_ISSUERS_FILE": "missing.toml"}, "FILINGS_ISSUERS_FILE"),
    ("run --source replay --since 2999-01-01", {}, "in the future"),
    ("backfill", {}, "--since"),
    ("backfill --since 01/02/2024", {}, "--since"),
    ("ingest nope.pdf", {}, "no such file"),
    ("ingest notes.docx", {}, "not a .htm/.html, .pdf or .txt"),
    (f"ingest {FOREIGN_6K}", {}, "refused, nothing stored"),
    (f"ingest {FOREIGN_6K} --issuer QFIN", {}, "does not name QFIN"),
    (f"ingest {FOREIGN_PDF}", {}, "refused, nothing stored"),
    (f"ingest {FOREIGN_6K} --issuer QFNI", {}, "unknown issuer QFNI"),
    ("ingest x.htm --published 2024-99-01", {}, "--published"),
    ("serve --cron 'every minute'", {}, "not a cron expression"),
    ("serve --timezone Mars/Olympus", {}, "not a time zone"),
    ("serve --source live", {}, "FILINGS_SEC_USER_AGENT"),
    ("status", {}, "no warehouse at"),
    ("status --last 0", {}, "--last"),
    ("status", {"FILINGS_DATABASE_URL": "postgresql://nobody@127.0.0.1:9/none"}, "9"),
    ("report --issuer NOPE", {}, "unknown issuer NOPE"),
    ("report", {}, "no warehouse at"),
    ("release sec:0001104659-24-032436 --by 'Ana Li'", {}, "no warehouse at"),
    ("release sec:0000000000-00-000000 {warehouse}", {}, "unknown document"),
    ("revalidate sec:0000000000-00-000000 {warehouse}", {}, "unknown document"),
    ("revalidate --issuer NOPE", {}, "unknown issuer NOPE"),
    ("export --format xlsx", {}, "--format"),
    ("export --format csv", {}, "no warehouse at"),
    ("issuers add ZZZZ --source replay", {}, "ZZZZ is not in SEC's company tickers file"),
    ("issuers add BKE --hkex 99999 --source replay", {}, "99999 is not in HKEx's active"),
    ("issuers add BKE", {}, "FILINGS_SEC_USER_AGENT"),
    ("issuers list", {"FILINGS_ISSUERS_FILE": "missing.toml"}, "FILINGS_ISSUERS_FILE"),
    ("demo-server --port 70000", {}, "--port"),
    ("alerts resend", {}, "--in-doubt"),
    ("upgrade", {"FILINGS_DATABASE_URL": "postgresql://nobody@127.0.0.1:9/none"}, "port 9"),
]


def _commands_in_readme() -> set[str]:
    pages = [ROOT / "README.md", *(ROOT / "docs").glob("*.md")]
    text = "\n".join(page.read_text(encoding="utf-8") for page in pages)
    return set(re.findall(r"`filings ([a-z][a-z-]*)", text)) | set(
        re.findall(r"^filings ([a-z][a-z-]*)", text, re.M)
    )


def test_every_readme_command_has_a_bad_input_case():
    covered = {line.split()[0] for line, _, _ in CASES}
    assert _commands_in_readme() <= covered, _commands_in_readme() - covered


@pytest.fixture
def empty_warehouse(user):
    from storage import db

    work, env = user
    engine = db.open_warehouse(f"sqlite:///{work / 'data' / 'warehouse.sqlite'}")
    engine.dispose()
    return work, env


@pytest.mark.parametrize(("line", "extra", "says"), CASES, ids=[c[0] for c in CASES])
def test_bad_input_prints_one_line_and_exits_non_zero(request, user, line, extra, says):
    work, env = request.getfixturevalue("empty_warehouse") if "{warehouse}" in line else user
    (work / "notes.docx").write_text("not a filing")
    (work / "x.htm").write_text("<html></html>")
    import shlex

    args = shlex.split(line.replace(" {warehouse}", "").replace("{warehouse}", "out"))
    result = filings(args, work, {**env, **extra})
    lines = [x for x in result.stderr.splitlines() if x.strip()]
    assert result.returncode != 0, (result.stdout, result.stderr)
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: "), lines
    assert says in lines[0], lines
    assert "Traceback" not in result.stdout + result.stderr
    assert not (work / "data" / "replay").exists(), "a flow started"
