"""Runs the JSON suites with Great Expectations (one ephemeral context per process).

GX is imported inside functions: ``import great_expectations`` costs seconds, and callers
such as the CLI import this module without validating anything.

Results are held in the context only as long as needed: a validation without Data Docs
forgets its results at once; one recorded for a run's Data Docs site (``docs_site``) is
kept until :func:`build_docs` renders that site, once, at the end of the run.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from expectations.builders import (
    CHECKS_FRAME,
    FACTS_FRAME,
    SUITES_DIR,
    SuiteSpec,
    load_suite_specs,
)
from expectations.context import (
    Runtime,
    build_runtime,
    carry_pending,
    checkpoint,
    fingerprint,
    site_config,
)
from expectations.outcomes import Outcome, from_suite_result, share

if TYPE_CHECKING:
    import pandas as pd

# The first run of a frame computes only what a passing expectation's record reads: nothing
# on check rows, counts and observed values on facts. Indices of failing rows (COMPLETE)
# cost a third of the run, so only a suite that failed is run again for them.
FIRST_PASS = {CHECKS_FRAME: "BOOLEAN_ONLY", FACTS_FRAME: "BASIC"}
# Data Docs print every check's "% unexpected": BASIC keeps those pages as they were.
DOCS_FIRST_PASS = {CHECKS_FRAME: "BASIC", FACTS_FRAME: "BASIC"}
DETAIL = "COMPLETE"


@dataclass
class _Loaded:
    """The process's one GX runtime, built on first use and rebuilt when a suite changes."""

    runtime: Runtime | None = None


_LOCK = threading.RLock()  # re-entered: run_suites holds it while building the runtime
_LOADED = _Loaded()  # the binding never changes; its runtime is replaced under _LOCK
suites_dir: Path = SUITES_DIR  # where the suites are read from (tests point it elsewhere)


def suite_specs() -> list[SuiteSpec]:
    """The suites as the running context loaded them."""
    return _runtime().specs


def loaded_expectation_counts() -> dict[str, int]:
    """suite name -> expectations GX actually holds (a dropped one would show here)."""
    context = _runtime().context
    return {spec.name: len(context.suites.get(spec.name).expectations) for spec in suite_specs()}


def run_suites(
    run_name: str,
    frames: Mapping[str, pd.DataFrame],
    docs_site: Path | None = None,
    suites: tuple[str, ...] = (),
) -> list[Outcome]:
    """Run every suite (or only ``suites``) on its frame; keep the results for ``docs_site``'s
    build when given."""
    # deferred heavy import: GX costs seconds (see the module docstring)
    from great_expectations.core.run_identifier import RunIdentifier

    # Data Docs file keys may not hold path separators (local file names do).
    run_id = RunIdentifier(run_name=run_name.replace("/", "_").replace("\\", "_"))
    with _LOCK:  # a GX context is not safe to share between threads
        runtime = _runtime()
        formats = DOCS_FIRST_PASS if docs_site else FIRST_PASS
        results: dict[Any, Any] = {}  # validation result identifier -> suite result
        # a frame none of the asked suites reads is not run (GX refuses an empty checkpoint)
        read = {spec.frame for spec in runtime.specs if not suites or spec.name in suites}
        for name, frame in frames.items():
            if name not in read:
                continue
            results.update(_run_frame(runtime, name, frame, formats[name], run_id, suites))
        if docs_site:
            runtime.pending_docs.setdefault(docs_site.resolve(), []).extend(results)
        else:
            _forget(runtime, results)
    return _in_order(
        [outcome for result in results.values() for outcome in from_suite_result(result)]
    )


def run_batch(
    run_names: Sequence[str],
    frames: Sequence[Mapping[str, pd.DataFrame]],
    docs_site: Path | None = None,
    suites: tuple[str, ...] = (),
) -> list[list[Outcome]]:
    """Run every suite (or only ``suites``) on many documents' frames; each document's
    outcomes, in order.

    The check-frame suites run once on the documents' check rows together (one batch: GX's
    cost is mostly per suite run, not per row), and each expectation's outcome is split back
    per document from the failing rows' indices: a document fails only on its own rows. The
    facts frame is run per document: its uniqueness and column-set expectations are about one
    document's table, which rows of other documents would change.
    """
    # deferred heavy import: GX costs seconds (see the module docstring)
    import pandas as pd

    if not run_names:
        return []
    checks = [f[CHECKS_FRAME] for f in frames if CHECKS_FRAME in f]
    if len(run_names) == 1 or len(checks) != len(run_names):
        return [run_suites(n, f, docs_site, suites) for n, f in zip(run_names, frames, strict=True)]
    bounds, start = [], 0
    for frame in checks:
        bounds.append((start, start + len(frame)))
        start += len(frame)
    batch = pd.concat(checks, ignore_index=True)
    name = f"{run_names[0]} and {len(run_names) - 1} more"
    together = run_suites(name, {CHECKS_FRAME: batch}, docs_site, suites)
    alone = [{k: v for k, v in f.items() if k != CHECKS_FRAME} for f in frames]
    return [
        _in_order([*run_suites(n, f, docs_site, suites), *(share(o, lo, hi) for o in together)])
        for n, f, (lo, hi) in zip(run_names, alone, bounds, strict=True)
    ]


def _in_order(outcomes: list[Outcome]) -> list[Outcome]:
    """Outcomes in the suites' own order (suite files, then expectations as written)."""
    with _LOCK:
        specs = _runtime().specs
    keys = [(s.name, e["meta"]["name"]) for s in specs for e in s.expectations]
    order = {key: i for i, key in enumerate(keys)}
    return sorted(outcomes, key=lambda o: order.get((o.suite, o.name), len(order)))


def build_docs(docs_site: Path) -> Path | None:
    """Render the Data Docs site of the results recorded for ``docs_site``, then forget them.

    Returns the site's index page, or None when nothing was recorded for it (nothing built).
    """
    site = docs_site.resolve()
    with _LOCK:
        runtime = _LOADED.runtime  # no runtime: nothing was validated, so GX need not load
        keys = runtime.pending_docs.pop(site, []) if runtime else []
        if runtime is None or not keys:
            return None
        # Registered for this build only (under the lock): the context keeps no site config.
        name = "run"
        runtime.context.add_data_docs_site(site_name=name, site_config=site_config(site))
        try:
            # A set: GX tests every stored key against it (a list made that quadratic).
            runtime.context.build_data_docs(site_names=[name], resource_identifiers=set(keys))
        finally:
            runtime.context.delete_data_docs_site(name)
            _forget(runtime, keys)
    return site / "index.html"


def discard_docs(docs_site: Path) -> int:
    """Forget the results recorded for ``docs_site`` and never built (a run that stopped
    before its end): a long-lived process would hold them all. Returns how many."""
    with _LOCK:
        runtime = _LOADED.runtime
        keys = runtime.pending_docs.pop(docs_site.resolve(), []) if runtime else []
        if runtime is not None:
            _forget(runtime, keys)
    return len(keys)


def held_results() -> int:
    """How many validation results the context holds (flat across runs when all is well)."""
    with _LOCK:
        runtime = _LOADED.runtime
        return len(runtime.context.validation_results_store.list_keys()) if runtime else 0


def _forget(runtime: Runtime, keys: Iterable[Any]) -> None:
    # GX's checkpoints store every result; a long-lived process would hold them all.
    store = runtime.context.validation_results_store
    for key in keys:
        if store.has_key(key):
            store.remove_key(key)


def _run_frame(
    runtime: Runtime,
    frame_name: str,
    frame: pd.DataFrame,
    result_format: str,
    run_id: Any,
    suites: tuple[str, ...] = (),
) -> dict[Any, Any]:
    """One checkpoint run of the frame's suites; a failing suite runs again in COMPLETE."""
    if frame_name == CHECKS_FRAME:  # the failing rows' position, beside what they are about
        frame = frame.assign(row=range(len(frame)))
    params = {"dataframe": frame}
    first = checkpoint(runtime, frame_name, result_format, suites)
    results = dict(first.run(batch_parameters=params, run_id=run_id).run_results)
    failed = tuple(r.suite_name for r in results.values() if not r.success)
    if failed:
        detail = checkpoint(runtime, frame_name, DETAIL, failed)
        # Same run id, suite and batch: the detailed result replaces the first, in the
        # results store too, so Data Docs show the failing rows.
        results.update(detail.run(batch_parameters=params, run_id=run_id).run_results)
    return results


def _runtime() -> Runtime:
    # A long-lived process (``filings serve``) picks up an edited suite on its next run.
    with _LOCK:
        stamp = fingerprint(suites_dir)
        old = _LOADED.runtime
        if old is not None and old.fingerprint == stamp:
            return old
        new = build_runtime(load_suite_specs(suites_dir), stamp)
        if old is not None:
            carry_pending(old, new)
        _LOADED.runtime = new
        return new
