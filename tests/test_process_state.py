"""No process-wide state changed at run time: no ``global`` rebinding a module's name, no
interpreter setting (``sys.setswitchinterval``, ``sys.setrecursionlimit``) turned by a run, no
``os.environ`` written but by the command line's start-up (``flows.startup.prefect_env``, before
Prefect is imported); tests/flows/test_no_environ_writes.py watches a run and ``filings serve``.

One process may hold several runs' work at once (a worker serving tasks, ``filings serve``):
what one of them changes for the whole process changes it under the others.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PRODUCT = ("domain", "filings", "flows", "tasks", "expectations", "storage")
INTERPRETER_SETTERS = {"setswitchinterval", "setrecursionlimit", "setprofile", "settrace"}
ENVIRON_WRITERS = {"update", "setdefault", "pop", "popitem", "clear", "__setitem__", "__delitem__"}
START_UP = {("flows/startup.py", "prefect_env")}  # the CLI's edge, before Prefect is imported


def _offences(source: str, where: str) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Global):
            found.append(f"{where}:{node.lineno}: global {', '.join(node.names)}")
        elif isinstance(node, ast.Attribute) and node.attr in INTERPRETER_SETTERS:
            found.append(f"{where}:{node.lineno}: {node.attr}")
    return found


def test_no_module_rebinds_globals_or_turns_interpreter_settings() -> None:
    offences = []
    for folder in PRODUCT:
        for path in sorted((ROOT / folder).rglob("*.py")):
            offences += _offences(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
    assert offences == []


def test_the_check_sees_both() -> None:
    source = "import sys\n_X = None\ndef f():\n    global _X\n    sys.setswitchinterval(0.001)\n"
    assert len(_offences(source, "x.py")) == 2


def _is_environ(node: ast.AST) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "environ"


def _writes_environ(node: ast.AST) -> bool:
    targets = node.targets if isinstance(node, ast.Assign | ast.Delete) else []
    if isinstance(node, ast.AugAssign):
        targets = [node.target]
    if any(isinstance(t, ast.Subscript) and _is_environ(t.value) for t in targets):
        return True
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        called = node.func
        return (called.attr in ENVIRON_WRITERS and _is_environ(called.value)) or called.attr in (
            "putenv",
            "unsetenv",
        )
    return False


def _environ_writes(source: str, where: str) -> list[str]:
    """``os.environ`` item assignments, deletions and mutating calls, ``os.putenv``/``unsetenv``,
    anywhere but the start-up function (at import time too)."""
    found: list[str] = []

    def visit(node: ast.AST, function: str) -> None:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            function = node.name
        if _writes_environ(node) and (where, function) not in START_UP:
            found.append(f"{where}:{getattr(node, 'lineno', 0)} ({function})")
        for child in ast.iter_child_nodes(node):
            visit(child, function)

    visit(ast.parse(source), "<module>")
    return found


def test_no_module_writes_the_environment_after_start_up() -> None:
    offences = []
    for folder in PRODUCT:
        for path in sorted((ROOT / folder).rglob("*.py")):
            where = path.relative_to(ROOT).as_posix()
            offences += _environ_writes(path.read_text(encoding="utf-8"), where)
    assert offences == []


def test_the_environment_check_sees_every_write() -> None:
    source = (
        "import os\ndef f():\n    os.environ['A'] = '1'\n    os.environ.pop('A')\n"
        "    del os.environ['B']\n    os.environ.update(C='1')\n    os.putenv('D', '1')\n"
        "def prefect_env():\n    os.environ.setdefault('E', '1')\nos.environ['F'] = '1'\n"
    )
    assert len(_environ_writes(source, "x.py")) == 7
    assert _environ_writes(source, "flows/startup.py") == [
        *(f"flows/startup.py:{n} (f)" for n in (3, 4, 5, 6, 7)),
        "flows/startup.py:10 (<module>)",
    ]
