"""Real documents through the real ingest path: how many hand-keyed statement facts arrive.

``python -m benchmarks.real DIR``: DIR holds documents (.pdf, .htm/.html, .txt), each with its
``<stem>.key.csv`` (statement,label,period_start,period_end,currency,value: hand-keyed facts in
whole units, per-share amounts in currency per share), and an ``issuers.toml`` naming their
issuers. Each document goes through ``filings ingest``'s flow (``ingest_local``: identity and
dateline check, extract, validate with Great Expectations, load, alert) into a scratch SQLite
warehouse; a key is found when ``line_items`` holds a row of that document with its statement,
label, period, currency and exact value. Prints found/total per document and overall, the
document's status (loaded, quarantined, refused) and its CPU and wall seconds.

Standard metrics: a key file's optional ``metric`` column names the standard metric a keyed
figure is (written by hand, not derived from the mapping under test; empty: none). Right after
a document is ingested, ``facts_latest`` of its issuer is read for each keyed metric and period:
right when it holds the keyed value (an expense metric stored positive: its magnitude), wrong
when it holds another, missing when it holds none. Beside the extraction CPU, ``plain s`` is
pdfplumber's plain-text extraction (``page.extract_text()`` of every page) of the same PDF,
measured in the same process: the peer the cost is compared with.

The flow runs in a child process whose FILINGS_* settings name the scratch warehouse and the
folder's issuers file (settings are read once, at a process's edge). Each document has its
own child and scratch warehouse (a Chinese edition of a release already stored is not stored
again), so its ``cpu s`` include the flow's first-run imports; ``extract s`` is the extraction
alone, timed again warm. The Prefect API is started before any timing.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

from sqlalchemy import select

SUFFIXES = (".pdf", ".htm", ".html", ".txt")
Key = tuple[str, str, date | None, date, str, Decimal]
MetricKey = tuple[str, date | None, date, Decimal]  # metric, period, keyed value


@dataclass(frozen=True)
class Outcome:
    """One document's result."""

    name: str
    found: int
    total: int
    status: str
    cpu: float
    wall: float
    missing: tuple[str, ...]
    metrics: tuple[int, int, int] = (0, 0, 0)  # right, wrong, missing
    metric_misses: tuple[str, ...] = ()
    plain: float | None = None  # pdfplumber's plain-text CPU seconds of the same document
    extract: float = 0.0  # the extraction alone (parse, statements, mapping), warm, CPU seconds


def keys(path: Path) -> list[Key]:
    """The hand-keyed facts of one document."""
    with path.open(encoding="utf-8", newline="") as handle:
        return [
            (
                row["statement"],
                row["label"],
                date.fromisoformat(row["period_start"]) if row["period_start"] else None,
                date.fromisoformat(row["period_end"]),
                row["currency"],
                Decimal(row["value"]),
            )
            for row in csv.DictReader(handle)
        ]


def metric_keys(path: Path) -> list[MetricKey]:
    """The keyed figures a key file names a standard metric for (its ``metric`` column)."""
    with path.open(encoding="utf-8", newline="") as handle:
        return [
            (
                row["metric"],
                date.fromisoformat(row["period_start"]) if row["period_start"] else None,
                date.fromisoformat(row["period_end"]),
                Decimal(row["value"]),
            )
            for row in csv.DictReader(handle)
            if row.get("metric")
        ]


def documents(folder: Path) -> list[Path]:
    """The folder's documents that have a key file."""
    return sorted(
        p
        for p in folder.iterdir()
        if p.suffix.lower() in SUFFIXES and p.with_suffix(".key.csv").is_file()
    )


def stored_keys(url: str, before: set[str]) -> tuple[set[Key], str]:
    """The line_items of the documents loaded since ``before`` as keys, and their status."""
    from storage.db import open_warehouse
    from storage.schema import documents as docs
    from storage.views import LINE_ITEMS

    engine = open_warehouse(url)
    try:
        with engine.connect() as conn:
            new = [
                (d, f"{s}{' (' + r[:120] + ')' if r and s != 'loaded' else ''}")
                for d, s, r in conn.execute(
                    select(docs.c.document_id, docs.c.status, docs.c.status_reason)
                )
                if d not in before
            ]
            rows = conn.execute(
                select(
                    LINE_ITEMS.c.statement, LINE_ITEMS.c.label, LINE_ITEMS.c.period_start,
                    LINE_ITEMS.c.period_end, LINE_ITEMS.c.unit, LINE_ITEMS.c.value,
                ).where(LINE_ITEMS.c.document_id.in_([d for d, _ in new]))
            ).all()  # fmt: skip
    finally:
        engine.dispose()
    found = {(s, lab, ps, pe, unit.split("/")[0], Decimal(v)) for s, lab, ps, pe, unit, v in rows}
    return found, "; ".join(status for _, status in new) or "refused"


def latest_metrics(
    url: str, documents_read: set[str]
) -> dict[tuple[str, date | None, date], Decimal]:
    """facts_latest of the issuers of ``documents_read``: (metric, period) -> value."""
    from storage.db import open_warehouse
    from storage.schema import documents as docs
    from storage.views import FACTS_LATEST

    engine = open_warehouse(url)
    try:
        with engine.connect() as conn:
            issuers = select(docs.c.issuer).where(docs.c.document_id.in_(documents_read))
            rows = conn.execute(
                select(
                    FACTS_LATEST.c.metric, FACTS_LATEST.c.period_start,
                    FACTS_LATEST.c.period_end, FACTS_LATEST.c.value,
                ).where(FACTS_LATEST.c.issuer.in_(issuers))
            ).all()  # fmt: skip
    finally:
        engine.dispose()
    return {(m, ps, pe): Decimal(v) for m, ps, pe, v in rows}


def score_metrics(
    wanted: list[MetricKey], latest: dict[tuple[str, date | None, date], Decimal]
) -> tuple[tuple[int, int, int], tuple[str, ...]]:
    """(right, wrong, missing) of the keyed metrics, and what was wrong or missing."""
    from tasks.parsers.statements.standard import standard_rules

    positive = {m for rules in standard_rules().values() for m in rules.positive}
    right, wrong, misses = 0, 0, []
    for metric, start, end, value in wanted:
        held = latest.get((metric, start, end))
        if held is not None and (held == value or (metric in positive and held == abs(value))):
            right += 1
        elif held is not None:
            wrong += 1
            misses.append(f"wrong {metric} {start}..{end}: {held} (key {value})")
        else:
            misses.append(f"missing {metric} {start}..{end} (key {value})")
    return (right, wrong, len(wanted) - right - wrong), tuple(misses)


def plain_text_seconds(path: Path) -> float | None:
    """CPU seconds pdfplumber takes for the plain text of every page of a PDF (None else)."""
    if path.suffix.lower() != ".pdf":
        return None
    import pdfplumber

    cpu = time.process_time()
    with pdfplumber.open(path) as pdf:
        for page in pdf.pages:
            page.extract_text()
            page.close()
    return time.process_time() - cpu


def extraction_seconds(path: Path) -> float:
    """CPU seconds of the extraction alone (``extract_document``, production's: parse,
    statements, mapping) of a document, in the child after its ingest (imports warm, the
    kept parse dropped)."""
    from domain.records import StoredFile
    from tasks.config.settings import load_settings
    from tasks.extract import _parsed, extract_document, inspect_local_file

    configured = load_settings().issuers()
    intake = inspect_local_file(path, configured, None, None)
    stored = StoredFile(path.name, path.as_uri(), intake.sha256, len(intake.content), "local")
    _parsed.cache_clear()  # the ingest's parse of these bytes is kept: read them again
    cpu = time.process_time()
    extract_document(intake.sha256, [(stored, intake.content)], intake.issuer.ticker)
    return time.process_time() - cpu


def _document_ids(url: str) -> set[str]:
    from storage.db import open_warehouse
    from storage.schema import documents as docs

    engine = open_warehouse(url)
    try:
        with engine.connect() as conn:
            return set(conn.execute(select(docs.c.document_id)).scalars())
    finally:
        engine.dispose()


def worker(folder: Path, url: str, name: str) -> None:
    """In the child: the document ``name`` through ingest_local, one JSON line."""
    from flows.startup import prefect_api, prefect_env
    from tasks.config.settings import load_settings

    prefect_env(load_settings().data_dir / "prefect", verbose=False)
    with prefect_api(lambda line: print(line, file=sys.stderr)):
        _each_document(folder, url, name)


def _each_document(folder: Path, url: str, name: str) -> None:
    from flows.ingest import ingest_local

    for path in [p for p in documents(folder) if p.name == name]:
        before = _document_ids(url)
        cpu, wall = time.process_time(), time.perf_counter()
        summary = ingest_local(paths=[str(path)])
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        found, status = stored_keys(url, before)
        new = _document_ids(url) - before
        scored = score_metrics(metric_keys(path.with_suffix(".key.csv")), latest_metrics(url, new))
        if summary.failed:
            status = f"refused ({summary.failed[0][:160]})"
        wanted = keys(path.with_suffix(".key.csv"))
        missing = [k for k in wanted if k not in found]
        line = Outcome(
            path.name, len(wanted) - len(missing), len(wanted), status, cpu, wall,
            tuple(f"{k[0]} | {k[1]} | {k[2]}..{k[3]} {k[4]} {k[5]}" for k in missing),
            scored[0], scored[1], plain_text_seconds(path),
            0.0 if summary.failed else extraction_seconds(path),  # refused: never extracted
        )  # fmt: skip
        print(json.dumps(line.__dict__), flush=True)


def run(folder: Path) -> list[Outcome]:
    """Each document in its own child on its own scratch warehouse (an edition of a release
    already stored is not stored again: the Chinese edition after the English one)."""
    return [_run_one(folder, path.name) for path in documents(folder)]


def _run_one(folder: Path, name: str) -> Outcome:
    with tempfile.TemporaryDirectory(prefix="bench-real-") as scratch:
        url = f"sqlite:///{Path(scratch) / 'warehouse.sqlite'}"
        env = {k: v for k, v in os.environ.items() if not k.startswith(("FILINGS_", "PREFECT_"))}
        env.update(
            FILINGS_DATA_DIR=scratch,
            FILINGS_DATABASE_URL=url,
            FILINGS_ISSUERS_FILE=str(folder / "issuers.toml"),
        )
        done = subprocess.run(
            [sys.executable, "-m", "benchmarks.real", "--worker", str(folder), url, name],
            env=env, capture_output=True, text=True, check=False,
        )  # fmt: skip
        if done.returncode != 0:
            raise SystemExit(f"benchmarks.real: the ingest process failed:\n{done.stderr[-3000:]}")
        lines = [ln for ln in done.stdout.splitlines() if ln.startswith("{")]
        return _outcome(json.loads(lines[-1]))


def _outcome(data: dict[str, Any]) -> Outcome:
    lists = {k: tuple(data[k]) for k in ("missing", "metrics", "metric_misses")}
    return Outcome(**{**data, **lists})


def report(outcomes: list[Outcome], verbose: bool) -> str:
    """The table printed."""
    width = max([len(o.name) for o in outcomes] + [8])
    head = "found/total  metrics r/w/m  cpu s  extract s  plain s  wall s  status"
    lines = [f"{'document':<{width}}  {head}"]
    for o in outcomes:
        plain = f"{o.plain:7.1f}" if o.plain is not None else f"{'-':>7}"
        lines.append(
            f"{o.name:<{width}}  {o.found:>5}/{o.total:<5}  {_rwm(o.metrics):>13}  {o.cpu:5.1f}"
            f"  {o.extract:9.2f}  {plain}  {o.wall:6.1f}  {o.status}"
        )
        lines += [f"{'':<{width}}    missing: {m}" for m in o.missing] if verbose else []
        lines += [f"{'':<{width}}    metric: {m}" for m in o.metric_misses] if verbose else []
    found, total = sum(o.found for o in outcomes), sum(o.total for o in outcomes)
    cpu, wall = sum(o.cpu for o in outcomes), sum(o.wall for o in outcomes)
    plain_all = sum(o.plain or 0.0 for o in outcomes)
    extract_all = sum(o.extract for o in outcomes)
    scores = tuple(sum(o.metrics[i] for o in outcomes) for i in range(3))
    lines.append(
        f"{'overall':<{width}}  {found:>5}/{total:<5}  {_rwm(scores):>13}  {cpu:5.1f}"
        f"  {extract_all:9.2f}  {plain_all:7.1f}  {wall:6.1f}"
    )
    return "\n".join(lines)


def _rwm(scores: tuple[int, ...]) -> str:
    return "/".join(str(n) for n in scores)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.real", description=__doc__)
    parser.add_argument(
        "folder", type=Path, nargs="?", help="documents, <stem>.key.csv, issuers.toml"
    )
    parser.add_argument("--verbose", "-v", action="store_true", help="list the keys missed")
    parser.add_argument(
        "--worker", nargs=3, metavar=("FOLDER", "URL", "NAME"), help=argparse.SUPPRESS
    )
    args = parser.parse_args()
    if args.worker:
        worker(Path(args.worker[0]).resolve(), args.worker[1], args.worker[2])
        return
    if args.folder is None:
        parser.error("give the folder of documents")
    folder = args.folder.resolve()
    if not (folder / "issuers.toml").is_file() or not documents(folder):
        raise SystemExit(f"{folder}: needs documents with <stem>.key.csv and an issuers.toml")
    print(report(run(folder), args.verbose))


if __name__ == "__main__":
    main()
