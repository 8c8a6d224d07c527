"""Every package the code imports is declared in pyproject.toml, and constraints.txt pins the
versions this suite runs with (every distribution the declared ones pull in, transitively).

A package that arrives only as another's dependency works until that one drops it; a fresh
machine installing without the constraints gets whatever the registry holds that day.
"""

from __future__ import annotations

import ast
import importlib.metadata as metadata
import re
import sys
import tomllib
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]
PRODUCT = ("domain", "filings", "flows", "tasks", "expectations", "storage")
TOOLING = ("benchmarks", "scripts", "tests")


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def _declared(group: str | None) -> dict[str, Requirement]:
    project = _pyproject()["project"]
    lines = project["dependencies"] if group is None else project["optional-dependencies"][group]
    return {_canonical(r.name): r for r in map(Requirement, lines)}


def _local_modules() -> set[str]:
    """Top-level names the repository itself provides (its packages, scripts' helpers)."""
    names = set(PRODUCT + TOOLING)
    for folder in TOOLING:
        for path in (ROOT / folder).rglob("*.py"):
            names.update(part.removesuffix(".py") for part in path.relative_to(ROOT).parts)
    return names


def _imports(folders: tuple[str, ...]) -> dict[str, str]:
    """Top-level third-party module -> one file importing it (every import, local ones too)."""
    local, found = _local_modules(), {}
    for folder in folders:
        for path in sorted((ROOT / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Import):
                    modules = [alias.name for alias in node.names]
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    modules = [node.module]
                else:
                    continue
                for module in modules:
                    top = module.split(".")[0]
                    if top not in sys.stdlib_module_names and top not in local:
                        found.setdefault(top, str(path.relative_to(ROOT)))
    return found


def _undeclared(folders: tuple[str, ...], declared: set[str]) -> list[str]:
    providers = metadata.packages_distributions()
    missing = []
    for module, where in sorted(_imports(folders).items()):
        dists = {_canonical(d) for d in providers.get(module, [])}
        if not dists & declared:
            missing.append(f"{module} (imported by {where}; provided by {sorted(dists)})")
    return missing


def test_product_imports_are_runtime_dependencies() -> None:
    assert _undeclared(PRODUCT, set(_declared(None))) == []


def test_tooling_imports_are_declared() -> None:
    declared = set(_declared(None)) | set(_declared("dev"))
    assert _undeclared(TOOLING, declared) == []


def test_the_check_sees_an_undeclared_import() -> None:
    # pydantic is imported by tasks/config/settings.py: without its entry the check fails.
    declared = set(_declared(None)) - {"pydantic"}
    assert any(m.startswith("pydantic ") for m in _undeclared(PRODUCT, declared))


def _pins() -> dict[str, str]:
    pins = {}
    for line in (ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines():
        line = line.split("#")[0].strip()
        if line:
            name, _, version = line.partition("==")
            pins[_canonical(name)] = version.strip()
    return pins


def _closure() -> dict[str, str]:
    """Every distribution the declared requirements need here, with its installed version."""
    todo = [*_declared(None).values(), *_declared("dev").values()]
    seen: dict[str, str] = {}
    while todo:
        requirement = todo.pop()
        name = _canonical(requirement.name)
        if name in seen or name == "filings-pipeline":
            continue
        seen[name] = metadata.version(requirement.name)
        for line in metadata.requires(requirement.name) or []:
            needed = Requirement(line)
            extras = requirement.extras or {""}
            if needed.marker is None or any(needed.marker.evaluate({"extra": e}) for e in extras):
                todo.append(needed)
    return seen


def test_constraints_pin_what_the_suite_runs_with() -> None:
    pins, installed = _pins(), _closure()
    assert {n: v for n, v in installed.items() if pins.get(n) != v} == {}


def test_declared_pins_agree_with_the_constraints() -> None:
    pins = _pins()
    for requirement in [*_declared(None).values(), *_declared("dev").values()]:
        version = str(requirement.specifier).removeprefix("==")
        assert pins[_canonical(requirement.name)] == version, requirement


def test_make_install_uses_the_constraints() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "-c constraints.txt" in makefile and "constraints.txt" in makefile.split("$(STAMP):")[1]
