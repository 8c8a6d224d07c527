"""A warehouse as comparable data: every table but ``runs``, rows sorted, run-specific values
(timestamps, surrogate keys, the replay server's port, Prefect run ids) taken out.

Two warehouses with equal dumps hold the same documents, files, facts, validations, guidance,
dividends, alerts and deliveries: what "a rerun after a fault ends where an uninterrupted run
ends" means in these tests.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from sqlalchemy import Engine, select
from sqlalchemy.engine import Connection

from storage import schema
from storage.types import UtcDateTime

SKIPPED_TABLES = {"runs", "document_claims"}  # run bookkeeping: who works on what
# Per-run values: when a row was written, which run wrote it, where the replay server listened.
SKIPPED_COLUMNS = {"run_id", "attempts", "last_error", "status_reason", "claimed_by"}
_PORT = re.compile(r"127\.0\.0\.1:\d+")
_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")

Dump = dict[str, list[tuple[Any, ...]]]


def _kept(table: Any) -> list[Any]:
    columns = []
    for column in table.columns:
        timestamp = isinstance(column.type, UtcDateTime) and column.name != "published_at"
        surrogate = column.primary_key and column.autoincrement is True
        if timestamp or surrogate or column.name in SKIPPED_COLUMNS:
            continue
        columns.append(column)
    return columns


def _clean(value: Any) -> Any:
    if isinstance(value, str):
        return _UUID.sub("<uuid>", _PORT.sub("<replay>", value))
    return value


def dump_connection(conn: Connection) -> Dump:
    """The comparable content of every warehouse table."""
    out: Dump = {}
    for table in schema.metadata.sorted_tables:
        if table.name in SKIPPED_TABLES:
            continue
        rows = conn.execute(select(*_kept(table))).all()
        out[table.name] = sorted((tuple(_clean(v) for v in r) for r in rows), key=repr)
    return out


def dump(engine: Engine) -> Dump:
    """:func:`dump_connection` on a fresh connection."""
    with engine.connect() as conn:
        return dump_connection(conn)


# Cross-period and cross-source checks compare a document with the figures stored when it is
# validated: when documents are validated in another order (a rerun after a kill, runs side by
# side), the same check can pass on other stored figures, or find nothing to compare yet (the
# document validated later compares then). Its row differs only in its evidence.
ORDER_DEPENDENT_SUITES = {"cross_period", "cross_source"}
_EVIDENCE = ("observed", "details")


def order_dependent(got: Dump, want: Dump) -> tuple[Dump, Dump, int]:
    """``got`` and ``want`` without the cross-period and cross-source check rows that differ
    only in their evidence (same document, check and outcome), and how many such pairs there
    were."""
    table = "validation_results"
    names = [c.name for c in _kept(schema.metadata.tables[table])]
    same = [i for i, n in enumerate(names) if n not in _EVIDENCE]
    suite = names.index("suite")

    def key(row: tuple[Any, ...]) -> tuple[Any, ...]:
        return tuple(row[i] for i in same)

    have, need = Counter(got.get(table, [])), Counter(want.get(table, []))
    extra, missing = have - need, need - have
    pairs = 0
    for row in list(extra.elements()):
        match = next((m for m in missing if missing[m] and key(m) == key(row)), None)
        if match is None or row[suite] not in ORDER_DEPENDENT_SUITES:
            continue
        extra[row] -= 1
        missing[match] -= 1
        pairs += 1
    if not pairs:
        return got, want, 0
    common = have & need
    kept_got = sorted((common + extra).elements(), key=repr)
    kept_want = sorted((common + missing).elements(), key=repr)
    return {**got, table: kept_got}, {**want, table: kept_want}, pairs


def differences(got: Dump, want: Dump) -> list[str]:
    """Human-readable differences, table by table (empty when equal). Cross-document checks
    included: they no longer depend on the order documents were validated in (tasks/settle.py;
    :func:`order_dependent` still counts such rows for the fault benchmark, which prints 0)."""
    lines = []
    for name in sorted(set(got) | set(want)):
        extra = set(got.get(name, [])) - set(want.get(name, []))
        missing = set(want.get(name, [])) - set(got.get(name, []))
        if extra or missing or len(got.get(name, [])) != len(want.get(name, [])):
            lines.append(
                f"{name}: {len(got.get(name, []))} rows vs {len(want.get(name, []))}; "
                f"extra {sorted(extra, key=repr)[:2]} missing {sorted(missing, key=repr)[:2]}"
            )
    return lines


def lost_and_duplicated(got: Dump, want: Dump) -> tuple[int, int]:
    """Rows of ``want`` missing from ``got``, and rows of ``got`` beyond ``want`` (multisets)."""
    lost = duplicated = 0
    for name in set(got) | set(want):
        have, need = Counter(got.get(name, [])), Counter(want.get(name, []))
        lost += sum((need - have).values())
        duplicated += sum((have - need).values())
    return lost, duplicated


def without_failure_alerts(dump: Dump, failed_runs: int) -> tuple[Dump, int]:
    """The dump without the ``pipeline_failure`` alerts the hooks of failed runs raised (one
    each at most), and how many there were beyond that (a run's failure alerted twice)."""
    alerts = dump.get("alert_events", [])
    failures = [row for row in alerts if "pipeline_failure" in row]
    rest = [row for row in alerts if "pipeline_failure" not in row]
    return {**dump, "alert_events": rest}, max(0, len(failures) - failed_runs)


def row_differences(got: Dump, want: Dump) -> list[str]:
    """Each row lost or duplicated (multisets, so a row repeated a different number of times
    shows too), table by table."""
    lines = []
    for name in sorted(set(got) | set(want)):
        have, need = Counter(got.get(name, [])), Counter(want.get(name, []))
        lines += [f"{name}: lost {n} x {row}" for row, n in (need - have).items()]
        lines += [f"{name}: duplicated {n} x {row}" for row, n in (have - need).items()]
    return lines
