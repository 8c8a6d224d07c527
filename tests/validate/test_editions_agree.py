"""The two editions agree (issue 33, item 5), on Ernest Borel's real FY2014 annual results in
English and Chinese (tests/fixtures/real), SQLite and PostgreSQL.

Each edition goes through the production stages as a run takes it: extracted from its PDF
(``tasks.extract.extract_file``, as tests/test_same_release.py does), validated against the
warehouse (``tasks.validate.validate_document``), loaded with the alerts it raises
(``tasks.load.load``), then the cross-document checks settled (``tasks.settle.settle``). The
altered pair changes ONE fact of the Chinese edition's extraction before those stages: its
2014-12-31 net assets, HKD 682,495 thousand as printed, read with one digit changed (682,595
thousand), as a reading that slipped a digit would hand them over.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, date, datetime
from decimal import Decimal
from functools import cache
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.engine import Engine

from domain.enums import SourceName, Status
from domain.precision import select_stored_facts
from domain.records import DocumentRef, Extraction, Issuer, ValidationResult
from domain.releases import AGREEMENT_CHECK
from storage.documents import record_documents, upsert_issuers
from storage.schema import alert_events, documents
from storage.views import FACTS_LATEST
from tasks.extract import extract_file
from tasks.load import load
from tasks.settle import settle
from tasks.validate import release_document, revalidate_document, validate_document

REAL = Path(__file__).resolve().parents[1] / "fixtures" / "real"
EBORL = Issuer("EBORL", "Ernest Borel Holdings Limited", "", "01856")
PUBLISHED = datetime(2015, 3, 30, 12, tzinfo=UTC)  # both editions' dateline: 30 March 2015
EN, ZH = "hkex:eborl-fy2014-en", "hkex:eborl-fy2014-zh"
YEAR_END = date(2014, 12, 31)
PRINTED = Decimal("682495000")  # net assets 2014-12-31, HKD, as both editions print them


@cache
def _extraction(language: str) -> Extraction:
    path = REAL / f"HK01856_2014FY_annual-results_{language}.pdf"
    return extract_file(path.name, path.read_bytes(), "EBORL")


def _altered(extraction: Extraction) -> Extraction:
    """The extraction with its 2014-12-31 net assets read 682,595 (thousand) for 682,495: one
    digit changed, one fact."""
    facts = tuple(
        replace(f, value=f.value + 100_000)
        if (f.metric, f.period_end, f.value) == ("net_assets", YEAR_END, PRINTED)
        else f
        for f in extraction.facts
    )
    assert sum(a != b for a, b in zip(facts, extraction.facts, strict=True)) == 1
    return replace(extraction, facts=facts)


def _ingest(engine: Engine, document_id: str, extraction: Extraction) -> list[ValidationResult]:
    """Validate, load (with its alerts) and settle one edition, as a run does."""
    checks = validate_document(engine, document_id, extraction)
    load(engine, document_id, extraction, checks, issuer="EBORL")
    settle(engine, [("EBORL", document_id)])
    return checks


def _record(engine: Engine) -> None:
    refs = [
        DocumentRef(
            SourceName.HKEX, d.partition(":")[2], "EBORL", "Final Results", d, PUBLISHED, ""
        )
        for d in (EN, ZH)
    ]
    with engine.begin() as conn:
        upsert_issuers(conn, [EBORL])
        record_documents(conn, refs)


def _statuses(engine: Engine) -> dict[str, tuple[str, str]]:
    with engine.connect() as conn:
        rows = conn.execute(
            select(documents.c.document_id, documents.c.status, documents.c.status_reason)
        )
        return {r.document_id: (r.status, r.status_reason) for r in rows}


def _alerts(engine: Engine) -> list[tuple[str, str, str]]:
    with engine.connect() as conn:
        stmt = select(alert_events.c.dedup_key, alert_events.c.subject, alert_events.c.message)
        return [(r.dedup_key, r.subject, r.message) for r in conn.execute(stmt)]


def _published(engine: Engine, metric: str) -> list[tuple[str, Decimal]]:
    v = FACTS_LATEST.c
    with engine.connect() as conn:
        stmt = select(v.source_document_id, v.value).where(
            v.metric == metric, v.period_end == YEAR_END
        )
        return [(r.source_document_id, r.value) for r in conn.execute(stmt)]


def _agreement(engine: Engine, document_id: str) -> ValidationResult:
    results = revalidate_document(engine, document_id).results
    return next(r for r in results if r.expectation == AGREEMENT_CHECK)


class TestErnestBorelFY2014ResultsInEnglishAndChinese:
    def test_both_published_and_each_witnessed_by_the_other(self, engine: Engine) -> None:
        _record(engine)
        _ingest(engine, EN, _extraction("en"))
        _ingest(engine, ZH, _extraction("zh"))
        assert _statuses(engine) == {EN: ("loaded", ""), ZH: ("loaded", "")}
        assert _alerts(engine) == []
        assert _published(engine, "net_assets") == [(ZH, PRINTED)]  # the later report wins
        for ours, other in ((EN, ZH), (ZH, EN)):
            agree = _agreement(engine, ours)
            assert agree.success, agree.observed
            # the witness: each figure the other edition prints alike, named with its value
            # (every figure it prints: the Chinese edition's are all the English one's)
            printed = len(select_stored_facts(_extraction("en").facts))
            first = agree.details.splitlines()[0]
            assert first == f"{printed} period(s) evaluated, 0 outside tolerance"
            witness = f"{ours}={PRINTED} (decimals -3), {other}={PRINTED} (decimals -3)"
            assert f"net_assets {YEAR_END}: {witness}" in agree.details

    def test_one_figure_altered_holds_both_with_one_alert(self, engine: Engine) -> None:
        _record(engine)
        _ingest(engine, EN, _extraction("en"))
        checks = _ingest(engine, ZH, _altered(_extraction("zh")))
        failed = [r for r in checks if not r.success and r.severity == "critical"]
        assert [r.expectation for r in failed] == [AGREEMENT_CHECK]  # its own reading stands
        statuses = _statuses(engine)
        assert statuses == {
            EN: ("quarantined", f"failed: {AGREEMENT_CHECK} (disagrees with {ZH})"),
            ZH: ("quarantined", f"failed: {AGREEMENT_CHECK} (disagrees with {EN})"),
        }
        assert _published(engine, "net_assets") == []  # neither value is published
        [(key, subject, message)] = _alerts(engine)
        assert key.startswith(f"disagreement:EBORL:{EN}:{ZH}:")
        line = f"net assets as of {YEAR_END}: HK$682.495m in {EN}, HK$682.595m in {ZH}"
        assert subject == f"EBORL {EN} and {ZH} disagree: {line}"
        assert f"- {line}\n" in message and "Both documents are quarantined" in message
        assert f"Document: {EN}\nDocument: {ZH}" in message  # both, where a person opens them

        # rerun: validating either or both again, and settling again, raises nothing new and
        # un-holds neither
        for document_id in (EN, ZH, EN):
            assert not _agreement(engine, document_id).success
        settle(engine, [("EBORL", EN), ("EBORL", ZH)])
        _ingest(engine, ZH, _altered(_extraction("zh")))
        assert _statuses(engine) == statuses
        assert len(_alerts(engine)) == 1

        # a person's release stands: the English edition is published, the Chinese one held
        release_document(engine, EN, "analyst", "checked against the printed English edition")
        revalidate_document(engine, EN)
        settle(engine, [("EBORL", EN)])
        assert _statuses(engine)[EN][0] == Status.LOADED
        assert _statuses(engine)[ZH][0] == Status.QUARANTINED
        assert _published(engine, "net_assets") == [(EN, PRINTED)]
        assert len(_alerts(engine)) == 1
