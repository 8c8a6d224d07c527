"""The extraction stage: one fetched file -> an Extraction (plain functions; the flow wraps them).

Dispatch is on content, not on the file name: ``%PDF`` -> pdf, HTML markup -> html, else text.
"""

from __future__ import annotations

import functools
import hashlib
import re
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import date
from pathlib import Path

from domain.enums import RESULTS_KINDS, DocKind, Origin
from domain.errors import ConfigError, ParseError, RefusedFileError
from domain.precision import select_stored_facts
from domain.readouts import LocalIntake
from domain.records import Extraction, Issuer, StoredFile
from domain.rowrecords import StatementKind
from tasks.parsers.documents import running_text
from tasks.parsers.documents.plain_text import parse_text
from tasks.parsers.documents.raw_tables import ParsedDocument
from tasks.parsers.prose import footnotes
from tasks.parsers.prose.classify import classify, usd_rate
from tasks.parsers.prose.dividends import extract_dividends
from tasks.parsers.prose.identity import foreign_file, identify, publication_date
from tasks.parsers.prose.narrative import extract_narrative
from tasks.parsers.prose.outlook import extract_guidance
from tasks.parsers.statements.asreported import read_rows
from tasks.parsers.statements.catalog import CATALOG_DIR, LabelCatalog, load_catalog_file
from tasks.parsers.statements.checks import reconcile
from tasks.parsers.statements.eps_note import bases_for, read_eps_note
from tasks.parsers.statements.metric_mapping import issuer_facts, standard_facts
from tasks.parsers.statements.proving import prove_document
from tasks.parsers.statements.standard import shared_catalog
from tasks.stage_task import StageTask

_HTML_START = re.compile(
    rb"^\s*(?:<\?xml[^>]*>\s*)?(?:<!DOCTYPE html|<html|<document|<body|<div|<p|<table)",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Reading:
    """What a run reads documents with, from its settings: the configured issuers, to check
    whose a fetched document is (none: not checked), and the catalog overlays' directory."""

    configured: tuple[Issuer, ...] = ()
    catalog_dir: Path | None = None


def overlay_path(ticker: str, catalog_dir: Path | None = None) -> Path | None:
    """The issuer's catalog overlay: ``<ticker>.toml`` in ``catalog_dir`` (FILINGS_CATALOG_DIR)
    if there, else in the package's ``tasks/parsers/statements/catalogs``; None when it has none."""
    for folder in (catalog_dir, CATALOG_DIR):
        path = folder / f"{ticker.lower()}.toml" if folder else None
        if path is not None and path.is_file():
            return path
    return None


def load_catalog(ticker: str, catalog_dir: Path | None = None) -> LabelCatalog:
    """The issuer's catalog overlay (:func:`overlay_path`), else the shared one.

    The shared catalog only finds the statement tables; the shared mapping
    (:mod:`tasks.parsers.statements.standard`) reads their rows into metrics.
    """
    path = overlay_path(ticker, catalog_dir)
    return load_catalog_file(path) if path else shared_catalog(ticker)


def declared_rules(ticker: str, catalog_dir: Path | None = None) -> frozenset[str]:
    """The issuer-specific validation rules its catalog overlay declares (none without one)."""
    path = overlay_path(ticker, catalog_dir)
    if path is None:
        return frozenset()
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"label catalog {path}: {exc}") from exc
    return frozenset(str(rule) for rule in data.get("validation", {}).get("rules", []))


def extract_file(
    name: str, content: bytes, ticker: str, catalog_dir: Path | None = None
) -> Extraction:
    """One file read as a document of its own, exactly as :func:`extract_document` reads a
    fetched document (the catalog overlay, the shared mapping, one fact per key): what a
    test or a benchmark reads is what production stores."""
    stored = StoredFile(name, "", hashlib.sha256(content).hexdigest(), len(content), "")
    return extract_document(name, [(stored, content)], ticker, catalog_dir=catalog_dir)


def _read_file(name: str, doc: ParsedDocument, catalog: LabelCatalog) -> Extraction:
    as_printed = read_rows(doc, name)
    result = issuer_facts(as_printed, catalog, name)
    # a statement whose rows were all refused still makes a results document (the gate then
    # quarantines it), whether or not the issuer's catalog maps its labels
    read = {r.statement for r in as_printed.rows} | {r.statement for r in as_printed.refused}
    primary = read & set(PRIMARY)
    kind = classify(doc.text, bool(result.facts) or bool(primary))
    running = doc.prose or doc.text
    narrative = extract_narrative(running, catalog, name)
    pages = doc.pages if running is doc.prose else ()
    placed = footnotes.annotate(narrative.facts, running, pages)  # page and restating note
    facts, disagreements = reconcile(list(result.facts), placed, name)
    stated = {f.key for f in result.facts}
    outlook = extract_guidance(running, catalog, name)
    periods = {(r.period_start, r.period_end) for r in as_printed.rows if r.period_start}
    text = doc.text if kind is DocKind.DIVIDEND_FORM else running
    dividends = extract_dividends(text, name, periods)
    return Extraction(
        document=name,
        kind=kind,
        facts=tuple(facts),
        guidance=outlook.guidance,
        dividends=dividends,
        unmapped=result.unmapped + narrative.refused,
        usd_rate=usd_rate(doc.text),
        warnings=result.warnings + narrative.warnings + tuple(disagreements) + outlook.warnings,
        narrative_twins=tuple(f for f in narrative.facts if f.key in stated),
        rows=as_printed.rows,
        refused=as_printed.refused,
    )


def parse_document(name: str, content: bytes) -> ParsedDocument:
    """Bytes -> tables and text, by content type; an empty file (zero bytes, or whitespace
    only) is refused, never read as a document with nothing in it."""
    return _parsed(name, content)


# The last file parsed is kept (its parse is immutable): a hand-dropped file is read to be
# identified (by the command line before its flow, and in the flow) and then extracted, the
# same bytes three times, parsed once. One entry: never more than one document's parse held.
@functools.lru_cache(maxsize=1)
def _parsed(name: str, content: bytes) -> ParsedDocument:
    if not content.strip():
        raise ParseError(f"{name}: empty file ({len(content)} bytes), nothing to read")
    if content.startswith(b"%PDF"):
        # deferred heavy import: the PDF libraries, only for PDF files
        from tasks.parsers.documents.pdf import parse_pdf

        return parse_pdf(name, content)
    if _HTML_START.match(content[:2048]):
        # deferred heavy import: lxml's HTML parser, only for HTML files
        from tasks.parsers.documents.html import parse_html

        return parse_html(name, content)
    try:
        return parse_text(content.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise ParseError(f"{name}: not UTF-8 text, HTML or PDF ({exc.reason})") from exc


PRIMARY = (StatementKind.BALANCE_SHEET, StatementKind.INCOME_STATEMENT)

# Which kind a multi-file document takes: the most specific of its files'.
_KIND_ORDER = (
    DocKind.RESULTS_ANNUAL,
    DocKind.RESULTS_INTERIM,
    DocKind.RESULTS_QUARTERLY,
    DocKind.DIVIDEND_FORM,
    DocKind.OTHER,
    DocKind.COVER_PAGE,
)


def extract_document(
    document_id: str,
    files: Sequence[tuple[StoredFile, bytes]],
    ticker: str,
    configured: Sequence[Issuer] = (),
    catalog_dir: Path | None = None,
) -> Extraction:
    """Every file of one document -> one Extraction, one fact per key (most precise wins).

    Narrative figures that lose to another figure of their key (in their own file or in
    another exhibit) are kept apart as ``narrative_twins`` for validation. With the
    ``configured`` issuers, a document that is not ``ticker``'s is refused (RefusedFileError);
    ``catalog_dir`` is where catalog overlays are looked for first.
    """
    catalog = load_catalog(ticker, catalog_dir)
    docs = [(f.name, parse_document(f.name, content)) for f, content in files]
    if configured:
        _check_owner(document_id, docs, ticker, configured)
    parts = [_read_file(name, doc, catalog) for name, doc in docs]
    kinds = {p.kind for p in parts}
    kind = next((k for k in _KIND_ORDER if k in kinds), DocKind.OTHER)
    read = [fact for p in parts for fact in p.facts]
    # Statement rows the catalog overlay left unmapped: the shared mapping reads them.
    read += standard_facts([row for p in parts for row in p.rows], read)
    stored = select_stored_facts(read)
    kept = {id(f) for f in stored}
    set_aside = [f for f in read if f.origin == Origin.NARRATIVE and id(f) not in kept]
    rows = tuple(row for p in parts for row in p.rows)
    narrative = [f for f in read if f.origin == Origin.NARRATIVE]
    # a label is a claim: only figures the document proves are published (domain/proofs)
    notes = [n for _, doc in docs for n in read_eps_note(doc.text)]
    proven, ties = prove_document(stored, rows, narrative, bases_for(notes, stored))
    return Extraction(
        document=document_id,
        kind=kind,
        facts=proven.facts,
        guidance=tuple(dict.fromkeys(g for p in parts for g in p.guidance)),
        dividends=tuple(dict.fromkeys(d for p in parts for d in p.dividends)),
        unmapped=tuple(row for p in parts for row in p.unmapped),
        usd_rate=next((p.usd_rate for p in parts if p.usd_rate is not None), None),
        warnings=tuple(w for p in parts for w in p.warnings),
        narrative_twins=tuple(
            dict.fromkeys([*(f for p in parts for f in p.narrative_twins), *set_aside])
        ),
        rows=rows,
        # a document's files share locators ("table 4"): the file name says which one
        refused=tuple(
            replace(row, locator=f"{p.document}, {row.locator}") for p in parts for row in p.refused
        ),
        unproven=proven.unproven,
        verdicts=proven.verdicts,
        row_ties=tuple(sorted(ties.items())),
    )


def _check_owner(
    document_id: str,
    docs: Sequence[tuple[str, ParsedDocument]],
    ticker: str,
    configured: Sequence[Issuer],
) -> None:
    owner = next(i for i in configured if i.ticker == ticker)
    texts = [(name, running_text.clean(doc.text)) for name, doc in docs]
    reason = foreign_file(texts, owner, configured)
    if reason:
        raise RefusedFileError(f"{document_id} refused, nothing stored: {reason}")


# Parsing is deterministic: a failure is bad input, never worth a retry.
extract_document_task = StageTask(extract_document, name="extract")


def inspect_local_file(
    path: Path, configured: Sequence[Issuer], ticker: str | None, published: date | None
) -> LocalIntake:
    """Read a hand-dropped file; refuse it unless whose it is and when it was published are known.

    Its registrant name, ticker or stock code must name a configured issuer (never a default);
    its dateline or "Date:" line, or the date the person gave, is its publication date (never
    today by default, so an old release cannot displace newer figures).
    """
    content = path.read_bytes()
    try:
        doc = parse_document(path.name, content)
    except ParseError as exc:
        raise RefusedFileError(f"{exc}; nothing stored") from None  # (it names the file)
    text = running_text.clean(doc.prose or doc.text)
    check = identify(text, configured, ticker)
    if check.issuer is None:
        raise RefusedFileError(f"{path.name} refused, nothing stored: it {check.reason}")
    # a dateline printed in a letterhead table (Buckle's) is not running text
    when = published or publication_date(text) or publication_date(running_text.clean(doc.text))
    if when is None:
        raise RefusedFileError(
            f"{path.name}: no dateline or 'Date:' line found; pass --published YYYY-MM-DD"
        )
    sha = hashlib.sha256(content).hexdigest()
    return LocalIntake(path, content, sha, check.issuer, when)


def require_content(name: str, extraction: Extraction) -> None:
    """A hand-dropped file must yield something: a statement row, a figure, an outlook or a
    dividend. Refused otherwise (one line), never loaded silently empty. A results document
    whose statements could not be read is kept: the statement gate quarantines it, saying why."""
    if extraction.rows or extraction.facts or extraction.guidance or extraction.dividends:
        return
    if extraction.kind in RESULTS_KINDS:
        return
    raise RefusedFileError(
        f"{name} refused: nothing read from it (no statement table, figure, outlook or "
        f"dividend found; a {extraction.kind.value.replace('_', ' ')} document)"
    )
