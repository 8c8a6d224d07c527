"""The README and docs/ stay in step with the command line.

Every ``filings ...`` line of their code blocks must parse with the real Typer app (a real
command, real options, values of the right type), every ``filings ...`` in running text must
name a real command and real options, and the read-only commands and the SQL queries they
show are run against the demo warehouse ``make run`` leaves.
"""

from __future__ import annotations

import re
import shlex
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import typer
from cli_helpers import filings

from flows.cli import app

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
READ_ONLY = {("status",), ("report",), ("export",), ("issuers", "list")}


def _blocks(text: str) -> list[str]:
    """Shell lines of the fenced code blocks (continuations joined, comments dropped)."""
    lines: list[str] = []
    for block in re.findall(r"^```[a-z]*\n(.*?)^```", text, re.M | re.S):
        pending = ""
        for part in re.sub(r"\\\n\s*", " ", block).splitlines():
            pending = f"{pending} {part.strip()}".strip()
            if pending and pending.count('"') % 2 == 0:  # a quoted SQL may span lines
                lines.append(pending)
                pending = ""
    return lines


def documented_lines() -> list[tuple[str, str]]:
    """(page, line) for every ``filings ...`` command line of a code block."""
    found = []
    for page in PAGES:
        for text in _blocks(page.read_text(encoding="utf-8")):
            if text.startswith("filings "):
                found.append((page.name, text))
    return found


def inline_mentions() -> list[tuple[str, str]]:
    """(page, span) for every ``filings ...`` code span in running text."""
    found = []
    for page in PAGES:
        text = re.sub(r"^```.*?^```", "", page.read_text(encoding="utf-8"), flags=re.M | re.S)
        found += [(page.name, span) for span in re.findall(r"`(filings [^`]+)`", text)]
    return found


def _split(line: str) -> list[str]:
    return shlex.split(line, comments=True)[1:]


def _resolve(args: list[str]) -> tuple[Any, tuple[str, ...], list[str]]:
    """The (click) command the arguments name, its path, and the arguments left for it."""
    command = typer.main.get_command(app)  # Typer's own click: typed by duck, not by class
    path: list[str] = []
    while hasattr(command, "commands") and args and not args[0].startswith("-"):
        sub = command.commands.get(args[0])
        assert sub is not None, f"no command {' '.join([*path, args[0]])}"
        command, path, args = sub, [*path, args[0]], args[1:]
    return command, tuple(path), args


def _options(command: Any) -> set[str]:
    names = {"--help"}
    for param in command.params:
        names |= set(param.opts) | set(param.secondary_opts)
    return names


@pytest.mark.parametrize(("page", "line"), documented_lines(), ids=lambda x: str(x)[:60])
def test_every_documented_command_line_parses(page, line):
    command, path, args = _resolve(_split(line))
    assert path, f"{page}: `{line}` names no command"
    # click parses it as the real command would: unknown options and bad values raise
    command.make_context(" ".join(["filings", *path]), list(args))


@pytest.mark.parametrize(("page", "span"), inline_mentions(), ids=lambda x: str(x)[:60])
def test_every_command_named_in_text_exists_with_its_options(page, span):
    words = [w for w in re.split(r"[\s\[\]|]+", span)[1:] if w]
    words = [w for w in words if re.match(r"-|[a-z]", w)]  # placeholders: TICKER, DOC..., ...
    command, _, rest = _resolve(words)
    unknown = {w.split("=")[0] for w in rest if w.startswith("--")} - _options(command)
    assert not unknown, f"{page}: `{span}`: {unknown} is not an option of {command.name}"


def test_docs_show_each_command():
    shown = {_resolve(_split(line))[1] for _, line in documented_lines()}
    commands = typer.main.get_command(app)
    groups = ("issuers", "alerts")
    every = {(name,) for name in commands.commands if name not in groups}  # type: ignore[attr-defined]
    every |= {("issuers", "add"), ("issuers", "list"), ("alerts", "resend")}
    assert every <= shown, every - shown


def _module_names() -> set[str]:
    folders = [
        "domain",
        "filings",
        "flows",
        "tasks",
        "expectations",
        "storage",
        "benchmarks",
        "scripts",
    ]
    names = set()
    for folder in folders:
        for path in (ROOT / folder).rglob("*.py"):
            nested_script = folder == "scripts" and path.parent != ROOT / "scripts"
            if path.name != "__init__.py" and "migrations" not in path.parts and not nested_script:
                names.add(path.stem)
    return names


def test_design_page_lists_every_module():
    design = (ROOT / "docs" / "design.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^\| `([a-z_]+)` \|", design, re.M))
    assert _module_names() <= listed, sorted(_module_names() - listed)


def test_every_code_fence_stands_on_its_own_line():
    for page in PAGES:
        for number, text in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
            if "```" in text:
                assert re.fullmatch(r"\s*```[a-z]*", text), f"{page.name}:{number}: {text!r}"


def test_analyst_guide_names_every_exported_view_and_their_number():
    import filings

    guide = (ROOT / "docs" / "analyst.md").read_text(encoding="utf-8")
    said = re.search(r"`filings export --format csv\|parquet` writes (\w+) views", guide)
    words = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
             "eleven", "twelve", "thirteen"]  # fmt: skip
    assert said and said[1] == words[len(filings.EXPORTED) - 1], said
    listing = guide[said.end() : guide.index("filings.EXPORTED", said.end())]
    assert set(re.findall(r"`(\w+)`", listing)) == set(filings.EXPORTED)


def test_readme_says_the_local_apis_wait_as_the_command_line_does():
    from flows.startup import STARTUP_TIMEOUT_SECONDS

    text = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    said = re.search(r"starting Prefect's local API server \(up to (\d+) s", text)
    assert said and int(said[1]) == STARTUP_TIMEOUT_SECONDS, said


def test_readme_is_a_first_screen():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 150
    assert "make run" in text and "make test" in text
    for page in sorted((ROOT / "docs").glob("*.md")):
        assert f"docs/{page.name}" in text, f"README does not point to docs/{page.name}"


@pytest.fixture(scope="module")
def demo(tmp_path_factory):  # a real demo run: minutes on a loaded machine (marks below)
    """A fresh folder after the demo run (``make run``)."""
    from cli_helpers import clean_env

    home = tmp_path_factory.mktemp("demo")
    work = home / "work"
    work.mkdir()
    env = clean_env(home)
    result = filings(["run", "--source", "replay"], work, env, timeout=800)
    assert result.returncode == 0, (result.stdout, result.stderr)
    return work, env


@pytest.mark.timeout(900)
def test_read_only_documented_commands_run_after_the_demo(demo):
    work, env = demo
    ran = []
    for page, line in documented_lines():
        args = _split(line)
        path = _resolve(args)[1]
        if path not in READ_ONLY or (path != ("issuers", "list") and "--replay" not in args):
            continue
        result = filings(args, work, env)
        assert result.returncode == 0, (page, line, result.stdout, result.stderr)
        assert "Traceback" not in result.stdout + result.stderr
        ran.append(path)
    assert {("status",), ("report",), ("export",)} <= set(ran), ran


@pytest.mark.timeout(900)
def test_make_report_after_the_demo_writes_the_chart(demo):
    work, env = demo
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = re.search(r"^report:.*\n\t\$\(BIN\)/filings (.*)$", makefile, re.M)
    assert recipe, "no report target"
    result = filings(shlex.split(recipe.group(1)), work, env)
    assert result.returncode == 0, (result.stdout, result.stderr)
    assert (work / "data" / "replay" / "reports" / "guidance.png").is_file()
    assert "data/replay/reports/guidance.png" in makefile + (ROOT / "README.md").read_text()


@pytest.mark.timeout(900)
def test_documented_queries_run_on_the_demo_warehouse(demo):
    work, _ = demo
    queries = []
    for page in PAGES:
        for text in _blocks(page.read_text(encoding="utf-8")):
            if text.startswith("sqlite3 data/replay/warehouse.sqlite "):
                queries.append((page.name, shlex.split(text)[2]))
    assert queries
    with sqlite3.connect(work / "data" / "replay" / "warehouse.sqlite") as conn:
        for page, sql in queries:
            rows = conn.execute(sql).fetchall()
            assert rows, f"{page}: no rows from {sql}"


@pytest.mark.timeout(900)
@pytest.mark.parametrize("page", ["README.md", "docs/analyst.md"])
def test_documented_python_runs_on_the_demo_warehouse(demo, page):
    # The walk of issue 35: analyst.md's reads, copied after `make run`, stopped at
    # "no warehouse at .../data/warehouse.sqlite" (they read the live warehouse).
    work, env = demo
    text = (ROOT / page).read_text(encoding="utf-8")
    code = "\n".join(re.findall(r"^```python\n(.*?)^```", text, re.M | re.S))
    assert "filings.read_facts" in code
    result = subprocess.run(
        [sys.executable, "-c", code + "\nassert len(facts) > 0, facts"],
        cwd=work, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
