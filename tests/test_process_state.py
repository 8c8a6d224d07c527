"""No process-wide state changed at run time: no ``global`` rebinding a module's name, no
interpreter setting (``sys.setswitchinterval``, ``sys.setrecursionlimit``) turned by a run.

One process may hold several runs' work at once (a worker serving tasks, ``filings serve``):
what one of them changes for the whole process changes it under the others.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PRODUCT = ("filings", "flows", "tasks", "expectations", "storage")
INTERPRETER_SETTERS = {"setswitchinterval", "setrecursionlimit", "setprofile", "settrace"}


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
