"""CPU seconds per results document by stage, in a warm process (imports and GX loaded).

``python -m benchmarks.stages [--batch 16]`` reads the bundled results documents (two QFIN
6-K exhibits, one HKEx results PDF), then prints per document: extraction, validation alone
(one GX run of the suites per document, as before #24) and validation in a batch of
``--batch`` documents (one GX run for all, ``tasks.validate.validate_many``), and the
cross-document suites run again on that batch (what settling after a load adds), CPU seconds
beside wall seconds. The floor printed beside them is Great Expectations' fixed cost: one run
of every suite on an empty document, what a batch pays once instead of per document. The
load average is printed: wall seconds move with it, CPU seconds much less.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from expectations.rules import Context
from tasks.extract import extract_file
from tasks.settle import cross_document_suites
from tasks.sources.replay import default_archive_root
from tasks.validate import Subject, validate_many

DOCUMENTS = (
    "sec/0001741530/0001104659-24-032436/tm248123d1_ex99-1.htm",
    "sec/0001741530/0001104659-24-088431/tm2421456d1_ex99-1.htm",
    "hkex/03660/11480512.pdf",
)


def _timed(call: Callable[[], Any]) -> tuple[Any, float, float]:
    cpu, wall = time.process_time(), time.perf_counter()
    out = call()
    return out, time.process_time() - cpu, time.perf_counter() - wall


def _subject(name: str) -> tuple[Subject, float]:
    path = default_archive_root() / name
    content = path.read_bytes()
    extraction, cpu, _ = _timed(lambda: extract_file(path.name, content, "QFIN"))
    facts = [*extraction.facts, *extraction.narrative_twins]
    return Subject(path.name, facts, Context.of_extraction(path.name, extraction)), cpu


def main(argv: list[str] | None = None) -> int:
    """Print a line per stage: CPU and wall seconds per document."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.stages")
    parser.add_argument("--batch", type=int, default=16, help="documents per GX run")
    args = parser.parse_args(argv)
    print(f"before: load average {os.getloadavg()[0]:.2f}, {os.cpu_count()} CPUs")
    _, import_cpu, _ = _timed(lambda: validate_many([Subject("warm-up", [])]))
    print(f"GX import + context + first run: {import_cpu:.2f} s CPU (paid once per process)")
    extracted = [_subject(name) for name in DOCUMENTS]
    for (_, cpu), name in zip(extracted, DOCUMENTS, strict=True):
        print(f"extraction {Path(name).name:<24} {cpu:6.3f} s CPU")
    _, floor_cpu, floor_wall = _timed(lambda: validate_many([Subject("empty", [])]))
    print(f"floor: GX on an empty document   {floor_cpu:6.3f} s CPU {floor_wall:6.3f} s wall")
    subjects = [s for s, _ in extracted]
    alone = [_timed(lambda s=s: validate_many([s])) for s in subjects]
    for (_, cpu, wall), subject in zip(alone, subjects, strict=True):
        print(f"validation alone {subject.document_id:<24} {cpu:6.3f} s CPU {wall:6.3f} s wall")
    batch = [
        Subject(f"{s.document_id}#{i}", s.facts, s.context)
        for i, s in zip(range(args.batch), subjects * args.batch, strict=False)
    ]
    _, cpu, wall = _timed(lambda: validate_many(batch))
    n = len(batch)
    print(
        f"validation in a batch of {n}: {cpu / n:6.3f} s CPU {wall / n:6.3f} s wall per document"
        f" (alone: {sum(c for _, c, _ in alone) / len(alone):.3f} s CPU per document)"
    )
    extraction = sum(c for _, c in extracted) / len(extracted)
    print(f"extraction + batched validation: {extraction + cpu / n:.3f} s CPU per document")
    # settling after a load runs the cross-document suites again (tasks/settle.py)
    _, settle_cpu, settle_wall = _timed(lambda: validate_many(batch, only=cross_document_suites()))
    print(
        f"settling, cross-document suites again in a batch of {n}: {settle_cpu / n:6.3f} s CPU "
        f"{settle_wall / n:6.3f} s wall per document"
    )
    print(f"after: load average {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
