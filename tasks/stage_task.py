"""Prefect tasks of the stages, built on first use: importing a stage never imports Prefect.

A process that only reads (``filings status``, a refusal before any flow, a parser benchmark)
imports ``tasks.extract`` or ``tasks.fetch`` for their plain functions and never pays
Prefect's import (2-3 s CPU); a flow calling ``extract_document_task(...)`` builds the
Prefect task then, once per process.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Generic, ParamSpec, TypeVar

if TYPE_CHECKING:
    from prefect import Task

P = ParamSpec("P")
R = TypeVar("R")


class StageTask(Generic[P, R]):
    """``prefect.task(**options)(fn)``, made when first called or asked for an attribute
    (``submit``, ``with_options``, ...); without a cache policy unless one is given."""

    def __init__(self, fn: Callable[P, R], **options: Any) -> None:
        self.fn = fn
        self.options = options
        functools.update_wrapper(self, fn)  # type: ignore[arg-type]

    @functools.cached_property
    def task(self) -> Task[P, R]:
        """The Prefect task itself."""
        # deferred: the point of this class
        from prefect import task
        from prefect.cache_policies import NO_CACHE

        return task(**{"cache_policy": NO_CACHE, **self.options})(self.fn)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        # Any, as Prefect's own overloads: ``return_state=True`` gives a State, not an R
        return self.task(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name in ("fn", "options", "task"):
            raise AttributeError(name)  # copy/pickle probing a half-built object
        return getattr(self.task, name)
