"""The import rules between the project's rooms, checked on every module's imports (ast).

- ``domain``, the kernel, imports only the standard library (and itself);
- ``storage`` and ``expectations`` import nothing from ``tasks``; ``tasks.parsers`` and
  ``tasks.sources`` nothing from ``tasks`` but their own package (all of them import ``domain``);
- the parser rooms import only their own room and the rooms before it (``ROOMS``), but the
  crossings ``ROOM_CROSSINGS`` names;
- nothing outside ``flows`` imports ``flows``;
- ``tasks.parsers`` never imports requests, sqlalchemy or prefect;
- no module name repeats across the product's folders.

Every import counts: top-level, function-local and ``TYPE_CHECKING`` ones alike.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PRODUCT = ("domain", "filings", "flows", "tasks", "expectations", "storage")
# Packages that take nothing from tasks (the kernel is domain, beneath them all).
NOTHING_FROM_TASKS = ("storage", "expectations")
# Packages of tasks that take nothing from the rest of tasks.
SELF_CONTAINED = ("tasks.parsers", "tasks.sources")
# The parser rooms by stage, bottom to top: a room imports only itself and the rooms before it.
ROOMS = ("documents", "tables", "statements", "forms", "prose")
# Known readings that need a later room's rule (importer -> imported module), and no others.
ROOM_CROSSINGS = frozenset(
    {
        ("tasks.parsers.documents.html", "tasks.parsers.tables.headers"),
        ("tasks.parsers.documents.counted_columns", "tasks.parsers.tables.headers"),
        ("tasks.parsers.documents.layout", "tasks.parsers.tables.statement_titles"),
        ("tasks.parsers.documents.plain_text", "tasks.parsers.statements.best_reading"),
    }
)
PARSER_FORBIDDEN = ("requests", "sqlalchemy", "prefect")


def _within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def module_name(root: Path, path: Path) -> str:
    """``domain/records.py`` -> ``domain.records`` (a package's ``__init__`` -> it)."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path, module: str) -> Iterator[tuple[int, str]]:
    """(line, imported name) for every import in the file; ``from a import b`` gives ``a.b``."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: resolve against the importing package
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                yield node.lineno, f"{base}.{alias.name}"


def breach(importer: str, imported: str) -> str:
    """Why ``importer`` may not import ``imported`` ("" when it may)."""
    top = imported.split(".")[0]
    kernel = _within(importer, "domain")
    if kernel and top not in sys.stdlib_module_names and not _within(imported, "domain"):
        return "domain imports only the standard library"
    if _within(imported, "flows") and not _within(importer, "flows"):
        return "nothing imports flows"
    for package in NOTHING_FROM_TASKS:
        if _within(importer, package) and _within(imported, "tasks"):
            return f"{package} imports nothing from tasks"
    for package in SELF_CONTAINED:
        inside = _within(importer, package) and _within(imported, "tasks")
        if inside and not _within(imported, package):
            return f"{package} imports nothing from tasks but its own package"
    upward = _room_upward(importer, imported)
    if upward:
        return upward
    if _within(importer, "tasks.parsers") and top in PARSER_FORBIDDEN:
        return f"parsers never import {top}"
    return ""


def _room(module: str) -> int | None:
    """The parser room's place in ROOMS (None outside the rooms)."""
    parts = module.split(".")
    if parts[:2] != ["tasks", "parsers"] or len(parts) < 3 or parts[2] not in ROOMS:
        return None
    return ROOMS.index(parts[2])


def _room_upward(importer: str, imported: str) -> str:
    below, above = _room(importer), _room(imported)
    if below is None or above is None or above <= below:
        return ""
    if any((importer, name) in ROOM_CROSSINGS for name in (imported, imported.rpartition(".")[0])):
        return ""
    return f"the {ROOMS[below]} room imports nothing from the {ROOMS[above]} room"


def check_tree(root: Path) -> list[str]:
    """Every breach of the import rules under ``root``, as ``path:line: importer -> name``."""
    found = []
    for folder in PRODUCT:
        for path in sorted((root / folder).rglob("*.py")):
            module = module_name(root, path)
            for line, name in imports(path, module):
                why = breach(module, name)
                if why:
                    found.append(f"{path.relative_to(root)}:{line}: {module} -> {name} ({why})")
    return found


def repeated_names(root: Path) -> dict[str, list[str]]:
    """Module names that stand in more than one folder of the product."""
    where: dict[str, list[str]] = defaultdict(list)
    for folder in PRODUCT:
        for path in (root / folder).rglob("*.py"):
            if path.name != "__init__.py" and "versions" not in path.parts:
                where[path.stem].append(str(path.parent.relative_to(root)))
    return {name: sorted(dirs) for name, dirs in where.items() if len(dirs) > 1}


def test_the_product_keeps_the_import_rules() -> None:
    assert check_tree(ROOT) == []


def test_no_module_name_repeats_across_folders() -> None:
    assert repeated_names(ROOT) == {}


def _plant(root: Path, relative: str, text: str) -> None:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def test_the_checker_catches_planted_breaches(tmp_path: Path) -> None:
    _plant(tmp_path, "domain/bad.py", "import requests\n")
    _plant(tmp_path, "storage/bad.py", "def f():\n    from tasks.fetch import utcnow\n")
    _plant(tmp_path, "expectations/bad.py", "from tasks import validate\n")
    _plant(tmp_path, "tasks/sources/bad.py", "from ..config import settings\n")
    _plant(tmp_path, "tasks/parsers/bad.py", "def f():\n    import sqlalchemy\n")
    _plant(tmp_path, "tasks/load.py", "from flows.ingest import ingest\n")
    _plant(tmp_path, "domain/fine.py", "import json\nfrom domain import enums\n")
    _plant(tmp_path, "storage/fine.py", "from domain.records import Fact\nimport sqlalchemy\n")
    _plant(tmp_path, "tasks/sources/fine.py", "from tasks.sources import urls\n")
    _plant(tmp_path, "storage/also_bad.py", "from tasks.parsers.documents import numbers\n")
    _plant(tmp_path, "tasks/parsers/documents/bad.py", "from tasks.parsers.tables import rows\n")
    _plant(tmp_path, "tasks/parsers/forms/bad.py", "from tasks.parsers.prose.x import y\n")
    _plant(tmp_path, "tasks/parsers/prose/fine.py", "from tasks.parsers.forms import f\n")
    _plant(tmp_path, "tasks/parsers/tables/fine.py", "from tasks.parsers.documents.zh import g\n")
    found = check_tree(tmp_path)
    assert sorted(line.split(":")[0] for line in found) == [
        "domain/bad.py",
        "expectations/bad.py",
        "storage/also_bad.py",
        "storage/bad.py",
        "tasks/load.py",
        "tasks/parsers/bad.py",
        "tasks/parsers/documents/bad.py",
        "tasks/parsers/forms/bad.py",
        "tasks/sources/bad.py",
    ]
    assert any("-> tasks.config.settings" in line for line in found)  # relative, resolved


def test_the_checker_catches_a_repeated_module_name(tmp_path: Path) -> None:
    _plant(tmp_path, "flows/quality.py", "")
    _plant(tmp_path, "storage/quality.py", "")
    assert repeated_names(tmp_path) == {"quality": ["flows", "storage"]}


# What a process that reads, parses or refuses imports: Prefect must stay out of it (issue 24,
# point 3). tasks.validate is left out only because Great Expectations takes seconds to import.
WITHOUT_PREFECT = (
    "tasks.parsers.documents.pdf",
    "tasks.parsers.documents.html",
    "tasks.extract",
    "tasks.fetch",
    "tasks.load",
    "tasks.alert",
    "tasks.runs.bookkeeping",
    "tasks.config.wiring",
    "tasks.config.settings_checks",
    "flows.cli",
)
LOADED = "import sys; print(sorted({m.split('.')[0] for m in sys.modules} & {'prefect'}))"


@pytest.mark.parametrize("module", WITHOUT_PREFECT)
def test_importing_a_stage_does_not_import_prefect(module: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", f"import {module}; {LOADED}"],
        capture_output=True, text=True, timeout=120, cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]", f"{module} imports Prefect"


def test_a_stage_task_is_prefects_task_when_used() -> None:
    from prefect import Task

    from tasks import fetch

    assert isinstance(fetch.fetch_task.task, Task) and fetch.fetch_task.name == "fetch"
    assert fetch.fetch_task.retries == 3
