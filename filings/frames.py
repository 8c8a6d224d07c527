"""The warehouse's views as pandas DataFrames with exact Arrow dtypes, and their export.

Amounts are ``decimal128(38, 6)`` (never floats), dates ``date32``, counts ``int64``, text
``string``: one schema per view, whatever the database.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
from pandas.api.types import is_string_dtype
from sqlalchemy import Boolean, Date, Integer, Numeric

from domain.errors import PipelineError
from storage import db, reads
from storage.types import SCALE, ExactDecimal, UtcDateTime
from tasks.config.settings import load_settings, sqlite_file

# What ``export`` writes, one file per view.
EXPORTED = (
    "facts_fiscal",
    "facts_history",
    "guidance_vs_actual",
    "guidance_history",
    "restatements",
    "line_items",
    "metric_labels",
    "alerts",
    "audited_vs_reported",
    "extraction_accuracy",
    "dividends",
    "facts_derived",
)
FORMATS = ("csv", "parquet")


def read_view(
    name: str, issuers: Sequence[str] = (), metrics: Sequence[str] = (), url: str | None = None
) -> pd.DataFrame:
    """Any contract view as a typed DataFrame (see ``storage.reads.READABLE`` for names)."""
    if name not in reads.READABLE:
        raise PipelineError(f"no view {name!r}: one of {', '.join(reads.READABLE)}")
    engine = _open(url or load_settings().warehouse_url)
    try:
        with engine.connect() as conn:
            columns, rows = reads.read_view(conn, name, issuers, metrics)
    finally:
        engine.dispose()
    return _frame(columns, rows)


def read_facts(
    issuers: Sequence[str] = (), metrics: Sequence[str] = (), url: str | None = None
) -> pd.DataFrame:
    """The latest value of each metric and period (``facts_fiscal``: ``facts_latest`` with
    label, fiscal_year, period_type and fiscal_quarter)."""
    return read_view("facts_fiscal", issuers, metrics, url)


def read_facts_history(
    issuers: Sequence[str] = (), metrics: Sequence[str] = (), url: str | None = None
) -> pd.DataFrame:
    """Every report of every value, with its document and provenance (``facts_history``)."""
    return read_view("facts_history", issuers, metrics, url)


def read_guidance(
    issuers: Sequence[str] = (), metrics: Sequence[str] = (), url: str | None = None
) -> pd.DataFrame:
    """Guidance against actuals (``guidance_vs_actual``)."""
    return read_view("guidance_vs_actual", issuers, metrics, url)


def read_line_items(
    issuers: Sequence[str] = (), metrics: Sequence[str] = (), url: str | None = None
) -> pd.DataFrame:
    """Statement rows as printed (``line_items``)."""
    return read_view("line_items", issuers, metrics, url)


def read_restatements(
    issuers: Sequence[str] = (), metrics: Sequence[str] = (), url: str | None = None
) -> pd.DataFrame:
    """Each restated value: before and after, and both documents (``restatements``)."""
    return read_view("restatements", issuers, metrics, url)


def read_dividends(issuers: Sequence[str] = (), url: str | None = None) -> pd.DataFrame:
    """Every dividend declared, one row per declaration and document (``dividends``)."""
    return read_view("dividends", issuers, url=url)


def read_derived(
    issuers: Sequence[str] = (), metrics: Sequence[str] = (), url: str | None = None
) -> pd.DataFrame:
    """The quarters and halves the published figures imply (H1 - Q2 = Q1), each with the two
    figures it comes from and whether ``facts_latest`` holds it (``facts_derived``)."""
    return read_view("facts_derived", issuers, metrics, url)


def read_metric_labels(url: str | None = None) -> pd.DataFrame:
    """Every metric id with its label, kind, unit and statement (``metric_labels``: the
    catalog's rows, issuer empty, and per issuer its own wording and unit)."""
    return read_view("metric_labels", url=url)


def export(out: str | Path, fmt: str = "csv", url: str | None = None) -> list[Path]:
    """Write each view of ``EXPORTED`` to ``out/<view>.<fmt>``; return the files."""
    if fmt not in FORMATS:
        raise PipelineError(f"--format {fmt!r}: one of {', '.join(FORMATS)}")
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name in EXPORTED:
        frame = read_view(name, url=url)
        path = folder / f"{name}.{fmt}"
        if fmt == "csv":
            # RFC 4180 line ends: a cell holding a CR or LF is quoted (with "\n" a bare CR was not)
            csv_safe(frame).to_csv(path, index=False, lineterminator="\r\n")
        else:
            frame.to_parquet(path, index=False)
        written.append(path)
    return written


# OWASP CSV injection: a cell starting with one of these is a formula to a spreadsheet.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?(\d[\d,]*(\.\d*)?|\.\d+)([eE][+-]?\d+)?")


def csv_safe(frame: pd.DataFrame) -> pd.DataFrame:
    """The frame with every text cell that a spreadsheet would run as a formula prefixed with
    ``'`` (shown as text, OWASP's advice); numbers and text that is a number stay as they are."""
    safe = frame.copy()
    for name in frame.columns:
        dtype = frame[name].dtype
        arrow = getattr(dtype, "pyarrow_dtype", None)
        text = pa.types.is_string(arrow) if arrow is not None else is_string_dtype(dtype)
        if text:
            safe[name] = frame[name].map(_cell, na_action="ignore").astype(dtype)
    return safe


def _cell(text: object) -> object:
    if isinstance(text, str) and text.startswith(FORMULA_STARTS) and not _NUMBER.fullmatch(text):
        return "'" + text
    return text


def _open(url: str) -> Any:
    """The warehouse at ``url``, only read: never migrated, never created (a read-only role or
    file is enough; a schema behind this code raises SchemaError naming `filings upgrade`)."""
    path = sqlite_file(url)
    if path is not None and not path.is_file():
        raise PipelineError(f"no warehouse at {path}")
    return db.open_for_reading(url)


def _arrow_type(column: Any) -> pa.DataType:
    kind = column.type
    if isinstance(kind, ExactDecimal):
        return pa.decimal128(38, SCALE)
    if isinstance(kind, Numeric):
        return pa.decimal128(38, kind.scale or 0)
    if isinstance(kind, UtcDateTime):
        return pa.timestamp("us", tz="UTC")
    if isinstance(kind, Date):
        return pa.date32()
    if isinstance(kind, Integer):
        return pa.int64()
    if isinstance(kind, Boolean):
        return pa.bool_()
    return pa.string()


def _frame(columns: Sequence[Any], rows: Sequence[tuple[Any, ...]]) -> pd.DataFrame:
    schema = pa.schema([(c.name, _arrow_type(c)) for c in columns])
    data = {
        c.name: [_exact(row[i], schema.field(c.name).type) for row in rows]
        for i, c in enumerate(columns)
    }
    table = pa.Table.from_pydict(data, schema=schema)
    return table.to_pandas(types_mapper=pd.ArrowDtype)


def _exact(value: Any, kind: pa.DataType) -> Any:
    # a derived ratio (variance_pct on SQLite) may carry more digits than its column's scale
    if isinstance(value, Decimal | float) and pa.types.is_decimal(kind):
        return Decimal(str(value)).quantize(Decimal(1).scaleb(-kind.scale))
    return value
