"""The warehouse tables (SQLAlchemy Core), one MetaData shared with the Alembic migrations.

Facts are stored as reported: one row per document x metric x period x basis, never
overwritten by a later document. The views in ``storage.views`` derive the latest values.
``alerts`` is a view (contract), so the alert rows live in ``alert_events``.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    Column,
    Date,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    Table,
    Text,
    UniqueConstraint,
    text,
)

from domain.enums import AlertKind, DeliveryStatus, Status
from storage.types import ExactDecimal, UtcDateTime

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}
metadata = MetaData(naming_convention=NAMING)

# The CHECK lists come from the enums (the migrations keep the lists they created, as history).
DOCUMENT_STATUSES = tuple(s.value for s in Status)
ALERT_KINDS = tuple(k.value for k in AlertKind)
DELIVERY_STATUSES = tuple(s.value for s in DeliveryStatus)
# NULL period_start (instants) must still collide in the unique index: both databases treat
# NULLs as distinct, so the index uses this sentinel instead.
NO_PERIOD_START = "0001-01-01"

# Integer on SQLite so the key is the rowid alias (autoincrement); BIGINT on PostgreSQL.
SurrogateKey = BigInteger().with_variant(Integer(), "sqlite")


def _in(column: str, values: tuple[str, ...]) -> str:
    return f"{column} IN ({', '.join(repr(v) for v in values)})"


def _provenance() -> list[Column[str]]:
    """Where a value was read (domain.records.Provenance)."""
    return [
        Column("file", Text, nullable=False, server_default=""),
        Column("locator", Text, nullable=False, server_default=""),
        Column("row_label", Text, nullable=False, server_default=""),
        Column("column_label", Text, nullable=False, server_default=""),
        Column("raw_text", Text, nullable=False, server_default=""),
    ]


def _document_fk(index: bool = True, primary_key: bool = False) -> Column[str]:
    """The document a row belongs to (its rows go with it); a primary key needs no own index."""
    return Column(
        "document_id",
        Text,
        ForeignKey("documents.document_id", ondelete="CASCADE"),
        nullable=False,
        index=index and not primary_key,
        primary_key=primary_key,
    )


issuers = Table(
    "issuers",
    metadata,
    Column("ticker", Text, primary_key=True),
    Column("name", Text, nullable=False),
    Column("cik", Text, nullable=False),
    Column("hkex_code", Text, nullable=False),
    # 0012: "MMDD" the fiscal year ends on ("" = not known: facts_fiscal takes December)
    Column("fiscal_year_end", Text, nullable=False, server_default=""),
)

documents = Table(
    "documents",
    metadata,
    Column("document_id", Text, primary_key=True),
    Column("source", Text, nullable=False),
    Column("source_id", Text, nullable=False),
    Column("issuer", Text, ForeignKey("issuers.ticker"), nullable=False),
    Column("form", Text, nullable=False),
    Column("title", Text, nullable=False),
    Column("published_at", UtcDateTime, nullable=False),
    Column("published_on", Date, nullable=False),  # the date as the source printed it
    Column("url", Text, nullable=False),
    Column("kind", Text),
    Column("status", Text, nullable=False),
    Column("status_reason", Text, nullable=False, server_default=""),
    Column("first_seen_at", UtcDateTime, nullable=False),
    Column("updated_at", UtcDateTime, nullable=False),
    # 0002: source metadata (HKEx t1/t2 categories, revisions, cancellations, 6-K/A links)
    # and the disclosure a document belongs to (one results release on both sources).
    Column("category", Text, nullable=False, server_default=""),
    Column("is_cancelled", Boolean, nullable=False, server_default=text("false")),
    Column("headline_revised", Boolean, nullable=False, server_default=text("false")),
    Column("amends_document_id", Text),
    Column("disclosure_id", Text, index=True),
    UniqueConstraint("source", "source_id"),
    CheckConstraint(_in("status", DOCUMENT_STATUSES), name="status"),
    Index("ix_documents_issuer_source", "issuer", "source"),
    Index("ix_documents_status", "status"),
)

document_files = Table(
    "document_files",
    metadata,
    _document_fk(primary_key=True),
    Column("name", Text, primary_key=True),
    Column("url", Text, nullable=False),
    Column("sha256", Text, nullable=False),
    Column("size", BigInteger, nullable=False),
    Column("doc_type", Text, nullable=False),
    Column("fetched_at", UtcDateTime, nullable=False),
)

facts = Table(
    "facts",
    metadata,
    Column("fact_id", SurrogateKey, primary_key=True, autoincrement=True),
    _document_fk(index=False),  # 0003: uq_facts_identity leads with document_id
    Column("metric", Text, nullable=False),
    Column("period_start", Date),  # NULL for instants
    Column("period_end", Date, nullable=False),
    Column("basis", Text, nullable=False),
    Column("value", ExactDecimal, nullable=False),
    Column("unit", Text, nullable=False),
    Column("scale", Integer, nullable=False),
    Column("decimals", Integer, nullable=False),
    Column("origin", Text, nullable=False),
    *_provenance(),
    Column("flags", Text, nullable=False, server_default="[]"),  # JSON array of strings
    Column("reported_on", Date, nullable=False),
    Column("loaded_at", UtcDateTime, nullable=False),
    Column("proved_by", Text),  # 0014: how the document proves it (domain/proofs)
    # 0017: the document's footnote on the figure when it restates it ("Retrospectively ...")
    Column("note", Text, nullable=False, server_default=""),
    Index(
        "uq_facts_identity",
        "document_id",
        "metric",
        text(f"coalesce(period_start, '{NO_PERIOD_START}')"),
        "period_end",
        "basis",
        unique=True,
    ),
    Index("ix_facts_metric_period", "metric", "period_end"),
)

# 0007: every value cell of every statement as printed (line_items), mapped to a metric or not;
# one row per document x cell, so a rerun changes nothing and a restating document adds its own.
statement_rows = Table(
    "statement_rows",
    metadata,
    Column("row_id", SurrogateKey, primary_key=True, autoincrement=True),
    _document_fk(index=False),  # uq_statement_rows_identity leads with document_id
    Column("statement", Text, nullable=False),
    Column("table_title", Text, nullable=False, server_default=""),
    Column("section", Text, nullable=False, server_default=""),
    Column("label", Text, nullable=False),
    Column("row_index", Integer, nullable=False),
    Column("period_start", Date),  # NULL for instants
    Column("period_end", Date, nullable=False),
    Column("basis", Text, nullable=False),
    Column("unit", Text, nullable=False),
    Column("value", ExactDecimal, nullable=False),
    Column("scale", Integer, nullable=False),
    Column("decimals", Integer, nullable=False),
    Column("metric", Text),  # the metrics.csv id the row maps to, or NULL
    *_provenance(),
    Column("reported_on", Date, nullable=False),
    Column("loaded_at", UtcDateTime, nullable=False),
    Column("proved_by", Text),  # 0014: how the document proves the figure, or NULL
    Index(
        "uq_statement_rows_identity",
        "document_id",
        "file",
        "locator",
        "row_index",
        "column_label",
        text(f"coalesce(period_start, '{NO_PERIOD_START}')"),
        "period_end",
        "basis",
        unique=True,
    ),  # fmt: skip
    Index("ix_statement_rows_metric_period", "metric", "period_end"),
)

guidance = Table(
    "guidance",
    metadata,
    Column("guidance_id", SurrogateKey, primary_key=True, autoincrement=True),
    _document_fk(),
    Column("metric", Text, nullable=False),
    Column("period_start", Date, nullable=False),
    Column("period_end", Date, nullable=False),
    Column("low", ExactDecimal),
    Column("high", ExactDecimal),
    Column("unit", Text, nullable=False),
    Column("issued_on", Date, nullable=False),
    Column("growth_low_pct", ExactDecimal),
    Column("growth_high_pct", ExactDecimal),
    Column("is_numeric", Boolean, nullable=False),
    *_provenance(),
    Column("loaded_at", UtcDateTime, nullable=False),
    UniqueConstraint("document_id", "metric", "period_start", "period_end"),
)

# 0015: the table is dividend_declarations; the contract's ``dividends`` is a view of it.
dividends = Table(
    "dividend_declarations",
    metadata,
    Column("dividend_id", SurrogateKey, primary_key=True, autoincrement=True),
    _document_fk(),
    Column("currency", Text, nullable=False),
    Column("per_share", ExactDecimal),
    Column("per_ads", ExactDecimal),
    Column("period_start", Date),
    Column("period_end", Date),
    Column("record_date", Date),
    Column("ex_date", Date),
    Column("payment_date", Date),
    *_provenance(),
    Column("loaded_at", UtcDateTime, nullable=False),
    Column("ads_payment_date", Date),  # 0004: ADS holders are paid a few days later
)

validation_results = Table(
    "validation_results",
    metadata,
    Column("result_id", SurrogateKey, primary_key=True, autoincrement=True),
    _document_fk(),
    Column("suite", Text, nullable=False),
    Column("expectation", Text, nullable=False),
    Column("success", Boolean, nullable=False),
    Column("severity", Text, nullable=False),
    Column("observed", Text, nullable=False, server_default=""),
    Column("details", Text, nullable=False, server_default=""),
    Column("run_id", Text),  # runs.run_id when known; not a foreign key so ad-hoc loads work
    Column("validated_at", UtcDateTime, nullable=False),
)

alert_events = Table(
    "alert_events",
    metadata,
    Column("alert_id", Text, primary_key=True),
    Column("kind", Text, nullable=False),
    Column("issuer", Text, nullable=False),
    Column("subject", Text, nullable=False),
    Column("message", Text, nullable=False),
    Column("dedup_key", Text, nullable=False, unique=True),
    Column(
        "document_id",
        Text,
        ForeignKey("documents.document_id", ondelete="SET NULL"),
        index=True,
    ),
    Column("created_at", UtcDateTime, nullable=False),
    Column("details", Text, nullable=False, server_default="{}"),  # 0002: JSON of the finding
    CheckConstraint(_in("kind", ALERT_KINDS), name="kind"),
)

alert_deliveries = Table(
    "alert_deliveries",
    metadata,
    Column(
        "alert_id",
        Text,
        ForeignKey("alert_events.alert_id", ondelete="CASCADE"),
        primary_key=True,
    ),
    Column("channel", Text, primary_key=True),
    Column("status", Text, nullable=False),
    Column("attempts", Integer, nullable=False, server_default="0"),
    Column("last_error", Text, nullable=False, server_default=""),
    Column("delivered_at", UtcDateTime),
    # 0010: the process sending it now (a claim committed before the send), and a send that
    # may have happened: its process died between the claim and the result (never resent).
    Column("claimed_by", Text),
    Column("claimed_at", UtcDateTime),
    Column("in_doubt", Boolean, nullable=False, server_default=text("false")),
    CheckConstraint(_in("status", DELIVERY_STATUSES), name="status"),
)

runs = Table(
    "runs",
    metadata,
    Column("run_id", Text, primary_key=True),
    Column("flow_run_id", Text),
    Column("started_at", UtcDateTime, nullable=False),
    Column("finished_at", UtcDateTime),
    Column("status", Text, nullable=False),
    Column("summary", Text, nullable=False, server_default="{}"),  # JSON object
    Column("worker", Text),  # 0010: host:pid:nonce, so a killed run can be marked crashed
)

# 0002: per-source state: a throttle pause (SEC's 10-minute block) and the listing cursor, so a
# no-op run asks each source one question per issuer. scope is an issuer ticker or "*".
source_state = Table(
    "source_state",
    metadata,
    Column("source", Text, primary_key=True),
    Column("scope", Text, primary_key=True),
    Column("paused_until", UtcDateTime),
    Column("pause_reason", Text, nullable=False, server_default=""),
    Column("cursor", Text, nullable=False, server_default=""),  # e.g. newest listed date
    Column("last_success_at", UtcDateTime),
    Column("updated_at", UtcDateTime, nullable=False),
)

# 0002: HTTP validators of revalidated pages (If-Modified-Since / ETag); Archives documents are
# immutable and never refetched, so they need no entry here.
http_cache = Table(
    "http_cache",
    metadata,
    Column("url", Text, primary_key=True),
    Column("etag", Text, nullable=False, server_default=""),
    Column("last_modified", Text, nullable=False, server_default=""),
    Column("sha256", Text, nullable=False),
    Column("fetched_at", UtcDateTime, nullable=False),
)

# 0002: who released a quarantined document into facts_latest, and when.
releases = Table(
    "releases",
    metadata,
    Column("release_id", SurrogateKey, primary_key=True, autoincrement=True),
    _document_fk(),
    Column("released_by", Text, nullable=False),
    Column("released_at", UtcDateTime, nullable=False),
    Column("reason", Text, nullable=False, server_default=""),
)

# 0008: statement rows the extractor refused (period, currency or scale not readable, a damaged
# figure) or no metric maps, so an operator sees after the run what was not stored and why.
refused_rows = Table(
    "refused_rows",
    metadata,
    Column("refusal_id", SurrogateKey, primary_key=True, autoincrement=True),
    _document_fk(),
    Column("kind", Text, nullable=False),  # "refused" | "unmapped"
    Column("statement", Text, nullable=False, server_default=""),  # StatementKind, or ""
    Column("table_title", Text, nullable=False, server_default=""),
    Column("locator", Text, nullable=False),
    Column("row_label", Text, nullable=False, server_default=""),
    Column("reason", Text, nullable=False),
    Column("recorded_at", UtcDateTime, nullable=False),
    CheckConstraint("kind IN ('refused', 'unmapped')", name="kind"),
)

# 0013: extraction accuracy as measured against audited figures (the extraction_accuracy view),
# kept each time it changes, so a drop is seen and alerted once.
accuracy_measures = Table(
    "accuracy_measures",
    metadata,
    Column("measure_id", SurrogateKey, primary_key=True, autoincrement=True),
    Column("issuer", Text, nullable=False),
    Column("statement", Text, nullable=False),
    Column("periods", Integer, nullable=False),
    Column("compared", Integer, nullable=False),
    Column("matched", Integer, nullable=False),
    Column("measured_at", UtcDateTime, nullable=False),
    Index("ix_accuracy_measures_issuer_statement", "issuer", "statement"),
)

TABLES: tuple[Table, ...] = tuple(metadata.sorted_tables)

# 0009: which worker is processing a document, until when: of two workers racing on the same
# new documents the first to claim one processes it; a claim past its expiry is taken over.
document_claims = Table(
    "document_claims",
    metadata,
    _document_fk(primary_key=True),
    Column("worker", Text, nullable=False),
    Column("claimed_at", UtcDateTime, nullable=False),
    Column("expires_at", UtcDateTime, nullable=False),
)
