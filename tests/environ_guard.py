"""Who writes ``os.environ``: a guard recording every write made by the product's own code
(``flows``, ``tasks``, ``storage``, ``expectations``, ``filings``) while it is on.

The one write allowed is the command line's start-up, before Prefect is imported
(``flows.startup.prefect_env``); a run or ``filings serve`` takes its settings as a scope,
parameters, or a child process's environment, never by changing this process's.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PRODUCT = ("domain", "filings", "flows", "tasks", "expectations", "storage")
START_UP = {("flows/startup.py", "prefect_env")}
# os and _collections_abc (``setdefault``, ``update``, ``pop`` call ``__setitem__``), frozen or not
_PLUMBING = {"<frozen os>", "<frozen _collections_abc>", os.__file__}
_PLUMBING.add(getattr(sys.modules.get("_collections_abc"), "__file__", None) or "")


def _writer() -> str:
    """``path:line (function)`` of the product code behind the current write, or ""."""
    frame = sys._getframe(3)  # this, _check, the guard's method: then whoever wrote
    while frame is not None and frame.f_code.co_filename in _PLUMBING:
        frame = frame.f_back  # type: ignore[assignment]
    if frame is None:
        return ""
    path = Path(frame.f_code.co_filename).resolve()
    if not path.is_relative_to(ROOT) or path.relative_to(ROOT).parts[0] not in PRODUCT:
        return ""
    where = path.relative_to(ROOT).as_posix()
    if (where, frame.f_code.co_name) in START_UP:
        return ""
    return f"{where}:{frame.f_lineno} ({frame.f_code.co_name})"


@contextmanager
def environ_writes() -> Iterator[list[str]]:
    """The product's writes to ``os.environ`` within the block (each also raises there)."""
    writes: list[str] = []
    environ = type(os.environ)
    real_set, real_del = environ.__setitem__, environ.__delitem__

    def setitem(self: Any, key: str, value: str) -> None:
        _check(writes, key)
        real_set(self, key, value)

    def delitem(self: Any, key: str) -> None:
        _check(writes, key)
        real_del(self, key)

    environ.__setitem__, environ.__delitem__ = setitem, delitem  # type: ignore[method-assign]
    try:
        yield writes
    finally:
        environ.__setitem__, environ.__delitem__ = real_set, real_del  # type: ignore[method-assign]


def _check(writes: list[str], key: str) -> None:
    where = _writer()
    if where:
        writes.append(f"{where}: {key}")
        raise AssertionError(f"os.environ written at run time: {where}: {key}")
