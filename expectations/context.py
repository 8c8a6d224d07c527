"""The Great Expectations context the runner uses: one ephemeral context per process, its
suites built from the JSON files, a checkpoint per frame, result format and suites.

GX is imported inside functions: ``import great_expectations`` costs seconds.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from domain.errors import ConfigError
from expectations.builders import CHECKS_FRAME, SuiteSpec

DATASOURCE = "filings"
BATCH_DEFINITION = "whole_frame"


@dataclass
class Runtime:
    """A built context: its suites, validation definitions and checkpoints, and the results
    recorded for Data Docs not yet built."""

    fingerprint: tuple[tuple[str, int, int], ...]
    context: Any
    specs: list[SuiteSpec]
    validation_definitions: dict[str, list[Any]]  # frame -> definitions
    # (frame, result format, suites or () for all) -> checkpoint
    checkpoints: dict[tuple[str, str, tuple[str, ...]], Any] = field(default_factory=dict)
    # a run's Data Docs folder -> identifiers of the results recorded for it, not yet built
    pending_docs: dict[Path, list[Any]] = field(default_factory=dict)


def fingerprint(directory: Path) -> tuple[tuple[str, int, int], ...]:
    """The suite files as they stand (name, mtime, size): a change rebuilds the context."""
    stats = ((p.name, p.stat()) for p in sorted(directory.glob("*.json")))
    return tuple((name, st.st_mtime_ns, st.st_size) for name, st in stats)


def carry_pending(old: Runtime, new: Runtime) -> None:
    """Move the results ``old`` recorded for Data Docs into ``new``."""
    # A suite edited mid-run: what the run recorded so far still belongs in its Data Docs.
    source = old.context.validation_results_store
    target = new.context.validation_results_store
    for keys in old.pending_docs.values():
        for key in keys:
            target.set(key, source.get(key))
    new.pending_docs = old.pending_docs


def build_runtime(specs: list[SuiteSpec], fingerprint: tuple[tuple[str, int, int], ...]) -> Runtime:
    """An ephemeral context holding ``specs`` as suites, one validation definition each."""
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
    return Runtime(
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


def site_config(directory: Path) -> Any:
    """A Data Docs site written as files under ``directory``."""
    return {
        "class_name": "SiteBuilder",
        "store_backend": {
            "class_name": "TupleFilesystemStoreBackend",
            "base_directory": str(directory),
        },
        "site_index_builder": {"class_name": "DefaultSiteIndexBuilder"},
    }


def checkpoint(
    runtime: Runtime, frame: str, result_format: str, suites: tuple[str, ...] = ()
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
            result_format={"result_format": result_format, **index_columns(frame)},
        )
        runtime.checkpoints[key] = runtime.context.checkpoints.add(checkpoint)
    return runtime.checkpoints[key]


def index_columns(frame: str) -> dict[str, Any]:
    """Data Docs name a failing check row by what it is about (the rule and "metric period",
    never only "[500, 10200000]"); ``row`` keeps its position for ``outcomes.share``."""
    if frame != CHECKS_FRAME:
        return {}
    return {"unexpected_index_column_names": ["identity", "period", "row"]}
