"""Validation time per results document, with Great Expectations loaded.

``python -m benchmarks.validation [--repeat N] [--docs]`` extracts the bundled results
documents once, then times ``validate_facts`` on each: the first call (GX import and context
build included) and the median of N warm calls, without and with Data Docs. Target: < 1 s warm.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from expectations.rules import Context
from tasks.extract import extract_file, load_catalog
from tasks.models import Fact

FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "fixtures"
DOCUMENTS = (
    "sec/0001741530/0001104659-24-032436/tm248123d1_ex99-1.htm",
    "sec/0001741530/0001104659-24-088431/tm2421456d1_ex99-1.htm",
    "hkex/03660/11480512.pdf",
)


def _load(name: str) -> tuple[list[Fact], Context]:
    path = FIXTURES / name
    extraction = extract_file(path.name, path.read_bytes(), load_catalog("QFIN"))
    context = Context(path.name, str(extraction.kind), usd_rate=extraction.usd_rate)
    return list(extraction.facts), context


def _time(name: str, facts: list[Fact], context: Context, docs: Path | None) -> float:
    from tasks.validate import validate_facts

    started = time.perf_counter()
    validate_facts(name, facts, context=context, data_docs_dir=docs)
    return time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    """Print one row per document: facts, expectations, cold and warm seconds."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.validation")
    parser.add_argument("--repeat", type=int, default=5, help="warm runs per document")
    parser.add_argument("--docs", action="store_true", help="also time with Data Docs built")
    args = parser.parse_args(argv)
    loaded = {name: _load(name) for name in DOCUMENTS}
    started = time.perf_counter()
    from tasks.validate import validate_facts

    first = validate_facts("warm-up", *loaded[DOCUMENTS[0]][:1], context=loaded[DOCUMENTS[0]][1])
    cold = time.perf_counter() - started
    print(f"GX import + context + first document: {cold:.2f} s ({len(first)} expectations)")
    print(f"{'document':<28} {'facts':>5} {'warm median s':>14} {'with docs s':>12}")
    with tempfile.TemporaryDirectory() as tmp:
        for name, (facts, context) in loaded.items():
            warm = [_time(name, facts, context, None) for _ in range(args.repeat)]
            docs = _time(name, facts, context, Path(tmp)) if args.docs else float("nan")
            print(
                f"{Path(name).name:<28} {len(facts):>5} {statistics.median(warm):>14.3f} "
                f"{docs:>12.3f}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
