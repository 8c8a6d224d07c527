"""Validation time per results document, with Great Expectations loaded.

``python -m benchmarks.validation [--repeat N] [--docs]`` extracts the bundled results
documents once, then times ``validate_facts`` on what the flow's validate step gives it: the
stored facts plus the narrative twins, with the extraction's guidance, dividends, USD rate
and refused figures (no warehouse: no earlier documents, no other source). It prints the
first call (GX import and context build included), then the best and median of N warm calls
per document, without and (``--docs``) with Data Docs built: validation plus the build of a
one-document run's site in a fresh folder, as the flows do once per run. Target: < 1 s warm,
judged on the slowest document's median (without docs). Beside them, the floor measured in
the same run: building the frames Great Expectations reads (the facts and the check rows, our
own work, with no GX run); what the warm time adds above it is GX's. The load average is
printed with the numbers: on a shared machine they move with it.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from functools import partial
from itertools import count
from pathlib import Path

from domain.records import Fact
from expectations.rules import Context
from tasks.extract import extract_file
from tasks.sources.replay import default_archive_root

FIXTURES = default_archive_root()
DOCUMENTS = (
    "sec/0001741530/0001104659-24-032436/tm248123d1_ex99-1.htm",
    "sec/0001741530/0001104659-24-088431/tm2421456d1_ex99-1.htm",
    "hkex/03660/11480512.pdf",
)
TARGET_S = 1.0


def _load(name: str) -> tuple[list[Fact], int, Context]:
    """(facts + narrative twins, number of twins, context) as the validate step builds them."""
    path = FIXTURES / name
    extraction = extract_file(path.name, path.read_bytes(), "QFIN")
    context = Context.of_extraction(path.name, extraction)
    facts = [*extraction.facts, *extraction.narrative_twins]
    return facts, len(extraction.narrative_twins), context


def _timed(call: Callable[[], object], repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        call()
        times.append(time.perf_counter() - started)
    return times


def _frames(facts: list[Fact], context: Context) -> Callable[[], object]:
    """The frames one document's validation hands GX, built without running it (the floor)."""
    from expectations import builders, runner
    from tasks.validate import AUDITED_FILING

    specs = [s for s in runner.suite_specs() if not s.meta.get(AUDITED_FILING)]

    def call() -> object:
        return builders.facts_frame(facts), builders.identity_checks(facts, specs, context)

    return call


def _with_docs(name: str, facts: list[Fact], context: Context, root: Path) -> Callable[[], str]:
    """One document validated for a new run's site, then that site built (each call a run)."""
    from tasks.runs.docs_sites import build_data_docs
    from tasks.validate import validate_facts

    runs = count()

    def call() -> str:
        site = root / f"run-{next(runs)}"
        validate_facts(name, facts, docs_site=site, context=context)
        return build_data_docs(site)

    return call


def _load_average() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (1 min), {five:.2f} (5 min), {os.cpu_count()} CPUs"


def _row(
    name: str, facts: int, twins: int, floor: list[float], warm: list[float], docs: list[float]
) -> str:
    cells = [f"{Path(name).name:<24} {facts:>5} {twins:>5}"]
    for times in (floor, warm, docs):
        cells.append(
            f"{min(times):>7.3f} {statistics.median(times):>7.3f}" if times else f"{'-':>15}"
        )
    return "   ".join(cells)


def main(argv: list[str] | None = None) -> int:
    """Print one row per document: facts, twins, warm best/median, with docs best/median."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.validation")
    parser.add_argument("--repeat", type=int, default=5, help="warm runs per document")
    parser.add_argument("--docs", action="store_true", help="also time with Data Docs built")
    args = parser.parse_args(argv)
    loaded = {name: _load(name) for name in DOCUMENTS}
    print(f"before: {_load_average()}")
    started = time.perf_counter()
    from tasks.validate import validate_facts

    facts, _, context = loaded[DOCUMENTS[0]]
    first = validate_facts("warm-up", facts, context=context)
    cold = time.perf_counter() - started
    print(f"GX import + context + first document: {cold:.2f} s ({len(first)} expectations)")
    print(f"{'document':<24} {'facts':>5} {'twins':>5}   {'floor best/median s':>15}   "
          f"{'warm best/median s':>15}   {'docs best/median s':>15}")  # fmt: skip
    medians, floors = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for name, (facts, twins, context) in loaded.items():
            floor = _timed(_frames(facts, context), args.repeat)
            run = partial(validate_facts, name, facts, context=context)
            warm = _timed(run, args.repeat)
            with_docs = _with_docs(name, facts, context, Path(tmp))
            docs = _timed(with_docs, args.repeat) if args.docs else []
            medians.append(statistics.median(warm))
            floors.append(statistics.median(floor))
            print(_row(name, len(facts) - twins, twins, floor, warm, docs))
    verdict = "met" if max(medians) < TARGET_S else "NOT met"
    print(f"target < {TARGET_S:.0f} s warm (slowest median {max(medians):.3f} s): {verdict}")
    share = sum(floors) / sum(medians)
    print(f"floor (frames built, no GX run): {share:.0%} of the warm time; GX the rest")
    print(f"after: {_load_average()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
