"""Runs the JSON suites with Great Expectations (one ephemeral context per process).

GX is imported inside functions: ``import great_expectations`` costs seconds, and callers
such as the CLI import this module without validating anything.

Results are held in the context only as long as needed: a validation without Data Docs
forgets its results at once; one recorded for a run's Data Docs site (``docs_site``) is
kept until :func:`build_docs` renders that site, once, at the end of the run.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from expectations.builders import (
    CHECKS_FRAME,
    FACTS_FRAME,
    SUITES_DIR,
    SuiteSpec,
    load_suite_specs,
)
from tasks.core.errors import ConfigError

if TYPE_CHECKING:
    import pandas as pd

DATASOURCE = "filings"
BATCH_DEFINITION = "whole_frame"
# The first run of a frame computes only what a passing expectation's record reads: nothing
# on check rows, counts and observed values on facts. Indices of failing rows (COMPLETE)
# cost a third of the run, so only a suite that failed is run again for them.
FIRST_PASS = {CHECKS_FRAME: "BOOLEAN_ONLY", FACTS_FRAME: "BASIC"}
# Data Docs print every check's "% unexpected": BASIC keeps those pages as they were.
DOCS_FIRST_PASS = {CHECKS_FRAME: "BASIC", FACTS_FRAME: "BASIC"}
DETAIL = "COMPLETE"


@dataclass(frozen=True, slots=True)
class Outcome:
    """One expectation's result, free of GX types."""

    suite: str
    name: str
    success: bool
    severity: str
    result: dict[str, Any]
    exception: str = ""


@dataclass
class _Runtime:
    fingerprint: tuple[tuple[str, int, int], ...]
    context: Any
    specs: list[SuiteSpec]
    validation_definitions: dict[str, list[Any]]  # frame -> definitions
    # (frame, result format, suites or () for all) -> checkpoint
    checkpoints: dict[tuple[str, str, tuple[str, ...]], Any] = field(default_factory=dict)
    # a run's Data Docs folder -> identifiers of the results recorded for it, not yet built
    pending_docs: dict[Path, list[Any]] = field(default_factory=dict)


@dataclass
class _Loaded:
    """The process's one GX runtime, built on first use and rebuilt when a suite changes."""

    runtime: _Runtime | None = None


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
    return _in_order([outcome for result in results.values() for outcome in _outcomes(result)])


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
        _in_order([*run_suites(n, f, docs_site, suites), *(_share(o, lo, hi) for o in together)])
        for n, f, (lo, hi) in zip(run_names, alone, bounds, strict=True)
    ]


def _share(outcome: Outcome, low: int, high: int) -> Outcome:
    """A batch's outcome as one document's: its rows ``low``..``high`` of the batch frame."""
    if outcome.success:
        return replace(outcome, result={})
    if outcome.exception or "unexpected_index_list" not in outcome.result:
        return outcome  # no rows judged one by one: it stands for every document
    failing = [int(i) for i in outcome.result["unexpected_index_list"]]
    own = [i - low for i in failing if low <= i < high]
    return replace(outcome, success=not own, result={"unexpected_index_list": own})


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
        runtime.context.add_data_docs_site(site_name=name, site_config=_site_config(site))
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


def _forget(runtime: _Runtime, keys: Iterable[Any]) -> None:
    # GX's checkpoints store every result; a long-lived process would hold them all.
    store = runtime.context.validation_results_store
    for key in keys:
        if store.has_key(key):
            store.remove_key(key)


def _run_frame(
    runtime: _Runtime,
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
    first = _checkpoint(runtime, frame_name, result_format, suites)
    results = dict(first.run(batch_parameters=params, run_id=run_id).run_results)
    failed = tuple(r.suite_name for r in results.values() if not r.success)
    if failed:
        detail = _checkpoint(runtime, frame_name, DETAIL, failed)
        # Same run id, suite and batch: the detailed result replaces the first, in the
        # results store too, so Data Docs show the failing rows.
        results.update(detail.run(batch_parameters=params, run_id=run_id).run_results)
    return results


def _runtime() -> _Runtime:
    # A long-lived process (``filings serve``) picks up an edited suite on its next run.
    with _LOCK:
        fingerprint = _fingerprint(suites_dir)
        old = _LOADED.runtime
        if old is not None and old.fingerprint == fingerprint:
            return old
        new = _build_runtime(load_suite_specs(suites_dir), fingerprint)
        if old is not None:
            _carry_pending(old, new)
        _LOADED.runtime = new
        return new


def _carry_pending(old: _Runtime, new: _Runtime) -> None:
    # A suite edited mid-run: what the run recorded so far still belongs in its Data Docs.
    source = old.context.validation_results_store
    target = new.context.validation_results_store
    for keys in old.pending_docs.values():
        for key in keys:
            target.set(key, source.get(key))
    new.pending_docs = old.pending_docs


def _fingerprint(directory: Path) -> tuple[tuple[str, int, int], ...]:
    stats = ((p.name, p.stat()) for p in sorted(directory.glob("*.json")))
    return tuple((name, st.st_mtime_ns, st.st_size) for name, st in stats)


def _build_runtime(
    specs: list[SuiteSpec], fingerprint: tuple[tuple[str, int, int], ...]
) -> _Runtime:
    # deferred heavy import: GX costs seconds (see the module docstring)
    import great_expectations as gx

    # deferred heavy import: GX costs seconds (see the module docstring)
    from great_expectations.data_context.types.base import ProgressBarsConfig

    # GX logs every ephemeral Data Docs folder at INFO: noise in every run's output.
    # GX sets INFO on some of its own loggers; raise every one that exists after import.
    for name in [n for n in logging.root.manager.loggerDict if n.startswith("great_expectations")]:
        logging.getLogger(name).setLevel(logging.WARNING)
    logging.getLogger("great_expectations").setLevel(logging.WARNING)
    context = gx.get_context(mode="ephemeral")
    # Progress bars would go to stderr on every run and clutter task logs.
    context.variables.progress_bars = ProgressBarsConfig(globally=False)
    source = context.data_sources.add_pandas(DATASOURCE)
    batches = {
        frame: source.add_dataframe_asset(frame).add_batch_definition_whole_dataframe(
            BATCH_DEFINITION
        )
        for frame in sorted({s.frame for s in specs})
    }
    definitions: dict[str, list[Any]] = {frame: [] for frame in batches}
    for spec in specs:
        suite = context.suites.add(build_suite(spec))
        definition = gx.ValidationDefinition(name=spec.name, data=batches[spec.frame], suite=suite)
        definitions[spec.frame].append(context.validation_definitions.add(definition))
    return _Runtime(
        fingerprint=fingerprint, context=context, specs=specs, validation_definitions=definitions
    )


def build_suite(spec: SuiteSpec) -> Any:
    """A GX suite from its JSON; ConfigError if GX drops any expectation."""
    # deferred heavy import: GX costs seconds (see the module docstring)
    import great_expectations as gx

    suite = gx.ExpectationSuite(
        name=spec.name, expectations=[dict(e) for e in spec.expectations], meta=dict(spec.meta)
    )
    # GX logs and drops an expectation it cannot build (unknown type, custom class whose
    # module was not imported): a suite that quietly checks less must not start.
    if len(suite.expectations) != len(spec.expectations):
        raise ConfigError(
            f"suite {spec.name}: GX loaded {len(suite.expectations)} of "
            f"{len(spec.expectations)} expectations"
        )
    return suite


def _site_config(directory: Path) -> Any:
    return {
        "class_name": "SiteBuilder",
        "store_backend": {
            "class_name": "TupleFilesystemStoreBackend",
            "base_directory": str(directory),
        },
        "site_index_builder": {"class_name": "DefaultSiteIndexBuilder"},
    }


def _checkpoint(
    runtime: _Runtime, frame: str, result_format: str, suites: tuple[str, ...] = ()
) -> Any:
    """The checkpoint running ``suites`` (default: all) of ``frame`` in ``result_format``."""
    # deferred heavy import: GX costs seconds (see the module docstring)
    import great_expectations as gx

    key = (frame, result_format, suites)
    if key not in runtime.checkpoints:
        definitions = [
            d for d in runtime.validation_definitions[frame] if not suites or d.name in suites
        ]
        checkpoint = gx.Checkpoint(
            name="|".join((frame, result_format, *suites)),
            validation_definitions=definitions,
            actions=[],
            result_format={"result_format": result_format, **_index_columns(frame)},
        )
        runtime.checkpoints[key] = runtime.context.checkpoints.add(checkpoint)
    return runtime.checkpoints[key]


def _index_columns(frame: str) -> dict[str, Any]:
    """Data Docs name a failing check row by what it is about (the rule and "metric period",
    never only "[500, 10200000]"); ``row`` keeps its position for :func:`_share`."""
    if frame != CHECKS_FRAME:
        return {}
    return {"unexpected_index_column_names": ["identity", "period", "row"]}


def _positions(result: dict[str, Any]) -> dict[str, Any]:
    """The result with its failing rows as positions (GX gives the index columns' values)."""
    rows = result.get("unexpected_index_list")
    if rows and isinstance(rows[0], dict):
        return {**result, "unexpected_index_list": [int(r["row"]) for r in rows]}
    return result


def _outcomes(suite_result: Any) -> Sequence[Outcome]:
    outcomes = []
    for item in suite_result.results:
        config = item.expectation_config
        outcomes.append(
            Outcome(
                suite=suite_result.suite_name,
                name=str(config.meta.get("name", config.type)),
                success=bool(item.success),
                severity=str(getattr(config.severity, "value", config.severity)),
                result=_positions(dict(item.result or {})),
                exception=_exception_message(item.exception_info or {}),
            )
        )
    return outcomes


def _exception_message(info: dict[str, Any]) -> str:
    # GX reports either one flat record or one record per failed metric computation.
    records = [info] if "raised_exception" in info else list(info.values())
    messages = [
        str(r.get("exception_message"))
        for r in records
        if isinstance(r, dict) and r.get("exception_message")
    ]
    return "; ".join(dict.fromkeys(messages))
