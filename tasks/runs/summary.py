"""What one run did, in numbers a person reads at the end of ``filings run`` (or ``revalidate``)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from tasks.core.enums import Severity, Status
from tasks.core.readouts import DeliveryReport
from tasks.core.records import Revalidation, ValidationResult

STATEMENTS_READ = "statements_read"  # the statement gate's expectation (expectations/gate.py)
_GATE_JARGON = re.compile(r": statement problems [^;]*")


@dataclass
class RunSummary:
    """Counters of one run; rendered as the run's printed summary and artifact."""

    found: int = 0
    new: int = 0
    ingested: int = 0
    facts_loaded: int = 0
    validations_passed: int = 0
    validations_failed: int = 0
    alerts_raised: int = 0
    alerts_delivered: int = 0
    delivered_by_channel: dict[str, int] = field(default_factory=dict)
    not_delivered: list[str] = field(default_factory=list)  # a line per channel that failed
    in_doubt: list[str] = field(default_factory=list)  # a line per channel with sends in doubt
    quarantined: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    source_failures: list[str] = field(default_factory=list)
    already_stored: list[str] = field(default_factory=list)  # hand-dropped files held already
    elsewhere: list[str] = field(default_factory=list)  # claimed by a run racing this one
    dispatched: list[str] = field(default_factory=list)  # ingest runs a watch pass started
    data_docs_dir: str = ""  # this run's Data Docs folder validations record for; "" for none
    data_docs: str = ""  # link to that site's index page once built; "" when none was built
    held_for: dict[str, str] = field(default_factory=dict)  # quarantined document -> why
    audited: list[str] = field(default_factory=list)  # a line per issuer: audited figures

    def add_document(
        self,
        document_id: str,
        facts: int,
        checks: Sequence[ValidationResult],
        quarantined: bool,
        alerts: int,
    ) -> None:
        """Count one processed document."""
        self.ingested += 1
        self.facts_loaded += facts
        self.validations_passed += sum(1 for c in checks if c.success)
        self.validations_failed += sum(1 for c in checks if not c.success)
        self.alerts_raised += alerts
        if quarantined:
            self.quarantined.append(document_id)
            self.held_for[document_id] = quarantine_reason(checks)

    def add_audit(
        self,
        line: str,
        facts: int,
        checks: Sequence[ValidationResult],
        alerts: int,
        failed: bool = False,
    ) -> None:
        """Count one issuer's audited figures (SEC XBRL company facts) and their checks."""
        self.facts_loaded += facts
        self.validations_passed += sum(1 for c in checks if c.success)
        self.validations_failed += sum(1 for c in checks if not c.success)
        self.alerts_raised += alerts
        (self.source_failures if failed else self.audited).append(line)

    def absorb(self, part: RunSummary) -> None:
        """Add what another process did with some of this run's documents (a task worker)."""
        self.ingested += part.ingested
        self.facts_loaded += part.facts_loaded
        self.validations_passed += part.validations_passed
        self.validations_failed += part.validations_failed
        self.alerts_raised += part.alerts_raised
        self.quarantined += part.quarantined
        self.held_for.update(part.held_for)
        self.failed += part.failed
        self.elsewhere += part.elsewhere
        self.source_failures += [f for f in part.source_failures if f not in self.source_failures]

    def record_deliveries(self, report: DeliveryReport) -> None:
        """What alert delivery did, per channel: a failed channel fails the run (its alerts
        stay pending for the next run); sends in doubt are reported, never resent."""
        self.alerts_delivered = report.delivered
        self.delivered_by_channel = dict(report.sent)
        self.not_delivered = [
            f"{channel}: {count} alert(s) not delivered ({error}); retried next run"
            for channel, (count, error) in sorted(report.failed.items())
        ]
        self.in_doubt = [
            f"{channel}: {count} alert(s) in doubt ({why}); not resent: check the receiver,"
            " then `filings alerts resend --in-doubt` if it has not got them"
            for channel, (count, why) in sorted(report.in_doubt.items())
        ]

    def render(self) -> str:
        """A short plain-text summary."""
        by_channel = ", ".join(f"{c} {n}" for c, n in sorted(self.delivered_by_channel.items()))
        lines = [
            f"documents: {self.found} found, {self.new} new, {self.ingested} ingested",
            f"facts loaded: {self.facts_loaded}",
            f"validations: {self.validations_passed} passed, {self.validations_failed} failed",
            f"alerts: {self.alerts_raised} raised, {self.alerts_delivered} delivered"
            + (f" ({by_channel})" if self.not_delivered and by_channel else ""),
        ]
        if self.new == 0 and self.ingested == 0 and self.ok and not self.dispatched:
            lines.insert(0, "nothing new to ingest")
        lines += [f"handed to ingest run: {run}" for run in self.dispatched]
        if self.elsewhere:
            lines.append(f"processed by another run at the same time: {len(self.elsewhere)}")
        lines += [f"audited: {line}" for line in self.audited]
        lines += [_held(d, self.held_for.get(d, "")) for d in self.quarantined]
        lines += [f"failed: {d}" for d in self.failed]
        lines += [f"source failed: {s}" for s in self.source_failures]
        lines += [f"not delivered: {s}" for s in self.not_delivered]
        lines += [f"in doubt: {s}" for s in self.in_doubt]
        lines += [f"not loaded again: {s}" for s in self.already_stored]
        if self.data_docs:
            lines.append(f"data docs: {self.data_docs}")
        return "\n".join(lines)

    @property
    def ok(self) -> bool:
        """False when a source, a document or an alert channel failed."""
        return not (self.failed or self.source_failures or self.not_delivered)


def quarantine_reason(checks: Sequence[ValidationResult]) -> str:
    """Why a document was quarantined, in one line: the statements not read ("balance sheet:
    34 rows, period not readable from the header"), else the critical checks that failed."""
    failed = [c for c in checks if not c.success and c.severity == Severity.CRITICAL]
    gate = [c for c in failed if c.expectation == STATEMENTS_READ]
    if gate:
        return _GATE_JARGON.sub("", gate[0].observed)
    names = ", ".join(sorted({c.expectation.replace("_", " ") for c in failed}))
    return f"critical check failed: {names}" if names else ""


def _held(document_id: str, reason: str) -> str:
    return f"quarantined: {document_id}: {reason}" if reason else f"quarantined: {document_id}"


@dataclass
class QualitySummary:
    """What a revalidate run did, for the person who started it."""

    documents: list[Revalidation] = field(default_factory=list)
    alerts_raised: int = 0
    data_docs: str = ""  # link to this run's Data Docs index; "" when none was built

    def render(self) -> str:
        """A short plain-text summary."""
        failed = sum(1 for d in self.documents for r in d.results if not r.success)
        lines = [
            f"revalidated: {len(self.documents)} document(s), {failed} failed expectation(s)",
            f"alerts: {self.alerts_raised} raised",
        ]
        held = [d.document_id for d in self.documents if d.status is Status.QUARANTINED]
        lines += [f"quarantined: {d}" for d in held]
        if self.data_docs:
            lines.append(f"data docs: {self.data_docs}")
        return "\n".join(lines)
