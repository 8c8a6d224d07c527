"""Retry policy shared by the Prefect task wrappers: retry only what can succeed later.

429, 5xx, timeouts and truncated bodies back off (growing delays with jitter); SEC's rate-limit
block (RateLimitedError) and not-found are never retried: retrying inside the block extends it.
Whether an error is retriable is its type (``retriable``); Prefect's task engine, the layer that
retries, says so ("Retry 1/3 will start ..."): no error message promises a retry itself.
"""

from __future__ import annotations

from typing import Any

from domain.errors import is_retriable

RETRY_DELAYS: list[float] = [2, 5, 15]
# Each delay varies by up to this factor, so clients that failed together do not retry together.
RETRY_JITTER = 0.5


def only_transient(task: Any, task_run: Any, state: Any) -> bool:
    """Prefect ``retry_condition_fn``: True only for retriable transport errors."""
    try:
        exc = state.result(raise_on_failure=False)
    except Exception:  # noqa: BLE001 - an unreadable state is not worth retrying
        return False
    return isinstance(exc, BaseException) and is_retriable(exc)
