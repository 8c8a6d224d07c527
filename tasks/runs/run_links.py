"""Where an alert points a person for the run that raised it.

A Prefect UI page outlives the run only on a server that outlives it (``PREFECT_API_URL``, the
server of ``filings serve`` or ``make demo-server``). The local API ``filings run`` shares
between its processes stops with them: a link to it would be dead seconds after the run, so an
alert names the run instead (``filings status`` lists it by that id).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

# The URL of the command line's own local API while a command uses it ("" otherwise). A
# context, not the environment: it follows the flow into the threads Prefect starts.
_LOCAL_API: ContextVar[str] = ContextVar("filings_local_api", default="")


@contextmanager
def local_api(url: str) -> Iterator[None]:
    """Within the block, the Prefect API at ``url`` ends with the command: no run links."""
    token = _LOCAL_API.set(url.rstrip("/"))
    try:
        yield
    finally:
        _LOCAL_API.reset(token)


def run_reference(api_url: str | None, ui_url: str | None, run_id: str) -> str:
    """The run's page in the Prefect UI when that UI outlives the run, else a line naming
    the run that ``filings status`` lists; "" without a run."""
    if not run_id:
        return ""
    local = _LOCAL_API.get()
    if ui_url and api_url and not (local and api_url.rstrip("/") == local):
        return f"{ui_url.rstrip('/')}/runs/flow-run/{run_id}"
    kept = "no Prefect server was configured to keep its page"
    return f"{run_id} (`filings status` lists it; {kept})"
