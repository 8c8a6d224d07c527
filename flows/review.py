"""Data-quality flows: ``revalidate`` stored documents, ``release`` a quarantined one.

Revalidation reads the facts, guidance and dividends stored in the warehouse (nothing is
fetched or extracted again), so a suite change takes effect on the next run.
"""

from __future__ import annotations

from prefect import flow, get_run_logger

from flows.ingest import build_run_docs
from tasks import alert, validate
from tasks.config import wiring
from tasks.config.settings import load_settings
from tasks.delivery.channels import channels_from_settings
from tasks.runs import docs_sites
from tasks.runs.summary import QualitySummary


@flow(name="revalidate", log_prints=True)
def revalidate(document_ids: list[str] | None = None, issuer: str | None = None) -> QualitySummary:
    """Run today's suites on stored documents (all loaded/quarantined ones by default)."""
    settings = load_settings()
    engine = wiring.warehouse(settings)
    docs_site = docs_sites.new_docs_site(settings.data_docs_path)
    summary = QualitySummary()
    ticker = issuer.upper() if issuer else None
    with docs_sites.recording(docs_site):
        for document_id in validate.revalidation_targets(engine, ticker, document_ids or []):
            done = validate.revalidate_task(engine, document_id, docs_site, settings.catalog_dir)
            summary.documents.append(done)
            created = alert.alert_checks_task(engine, done.issuer, document_id, done.results)
            summary.alerts_raised += len(created)
        summary.data_docs = build_run_docs(  # once per run
            docs_site, settings.data_docs_keep_days, settings.data_docs_url
        )
    alert.deliver_task(engine, channels_from_settings(settings), settings.alert_digest)
    get_run_logger().info(summary.render())
    return summary


@flow(name="release", log_prints=True)
def release(document_id: str, released_by: str, reason: str = "") -> str:
    """Let a quarantined document's facts into facts_latest; who and when are recorded."""
    settings = load_settings()
    engine = wiring.warehouse(settings)
    done = validate.release_task(engine, document_id, released_by, reason)
    line = f"released {done.document_id} by {done.released_by} at {done.released_at.isoformat()}"
    get_run_logger().info(line)
    return line
