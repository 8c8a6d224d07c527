"""What one run did, in numbers a person reads at the end of ``filings run`` (or ``revalidate``)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from domain.enums import Severity, Status
from domain.readouts import DeliveryReport
from domain.records import Revalidation, ValidationResult, tally

STATEMENTS_READ = "statements_read"  # the statement gate's expectation (expectations/gate.py)
_GATE_JARGON = re.compile(r": statement problems [^;]*")


@dataclass
class RunSummary:
    """Counters of one run: one definition wherever they are shown (the printed summary, the
    run's Prefect artifact and ``filings status``, which reads them back from ``runs``).

    - found: the documents the run took up: those its sources listed, and those waiting in
      the warehouse (left by an earlier run; every one with ``force``); the files given to
      ``filings ingest``. Each counted once.
    - new: of those, the ones the warehouse had not recorded before this run.
    - ingested: of those, the ones this run extracted, validated and stored (loaded or
      quarantined). The rest failed, were taken by a run beside it, wait for a paused source,
      or were in the warehouse already (``unchanged``): found = ingested + the rest.
    - raised: alerts this run stored (a finding alerted before is never raised again).
    - delivered: of those, the ones delivered on every configured channel when the run ended
      (by this run or one beside it). Alerts of other runs this run delivered are counted
      apart (``delivered_for_others``).
    """

    found: int = 0
    new: int = 0
    ingested: int = 0
    facts_loaded: int = 0
    validations_passed: int = 0
    validations_failed: int = 0
    validations_flagged: int = 0  # failed info checks: shown, never alerted
    alerts_raised: int = 0
    alerts_delivered: int = 0
    delivered_for_others: int = 0
    waiting: int = 0  # left for a source that is paused (rate-limited)
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
    # What the counters count, by id (not stored with the run's row: counts are).
    seen: set[str] = field(default_factory=set)
    ingested_ids: list[str] = field(default_factory=list)
    raised_ids: list[str] = field(default_factory=list)

    def take_up(self, document_ids: Iterable[str]) -> None:
        """Count documents the run took up (listed, or waiting in the warehouse) once each."""
        self.seen.update(document_ids)
        self.found = len(self.seen)

    @property
    def unchanged(self) -> int:
        """Found documents the run left as they were: in the warehouse already."""
        rest = self.ingested + len(self.failed) + len(self.elsewhere) + self.waiting
        return max(0, self.found - rest)

    def counts(self) -> dict[str, object]:
        """What the run's row in ``runs`` keeps: the counters and the lines, no id sets."""
        kept = {k: v for k, v in asdict(self).items() if k not in _BY_ID}
        return {**kept, "unchanged": self.unchanged}

    def add_copy(self, line: str) -> None:
        """A hand-dropped file that turned out a copy of a release the warehouse holds: in the
        warehouse already, so not new (it was recorded only to be read, then forgotten)."""
        self.already_stored.append(line)
        self.new = max(0, self.new - 1)

    def add_document(
        self,
        document_id: str,
        facts: int,
        checks: Sequence[ValidationResult],
        quarantined: bool,
        alerts: Sequence[str],
    ) -> None:
        """Count one processed document (``alerts``: the ids of the alerts it raised)."""
        self.ingested += 1
        self.ingested_ids.append(document_id)
        self.facts_loaded += facts
        self._count(checks)
        self.raised_ids += alerts
        self.alerts_raised = len(self.raised_ids)
        if quarantined:
            self.quarantined.append(document_id)
            self.held_for[document_id] = quarantine_reason(checks)

    def add_audit(
        self,
        line: str,
        facts: int,
        checks: Sequence[ValidationResult],
        alerts: Sequence[str],
        failed: bool = False,
    ) -> None:
        """Count one issuer's audited figures (SEC XBRL company facts) and their checks."""
        self.facts_loaded += facts
        self._count(checks)
        self.raised_ids += alerts
        self.alerts_raised = len(self.raised_ids)
        (self.source_failures if failed else self.audited).append(line)

    def _count(self, checks: Sequence[ValidationResult]) -> None:
        passed, failed, noted = tally(checks)
        self.validations_passed += passed
        self.validations_failed += failed
        self.validations_flagged += noted

    def absorb(self, part: RunSummary) -> None:
        """Add what another process did with some of this run's documents (a task worker)."""
        self.ingested += part.ingested
        self.ingested_ids += part.ingested_ids
        self.waiting += part.waiting
        self.facts_loaded += part.facts_loaded
        self.validations_passed += part.validations_passed
        self.validations_failed += part.validations_failed
        self.validations_flagged += part.validations_flagged
        self.raised_ids += part.raised_ids
        self.alerts_raised = len(self.raised_ids)
        self.quarantined += part.quarantined
        self.held_for.update(part.held_for)
        self.failed += part.failed
        self.elsewhere += part.elsewhere
        self.source_failures += [f for f in part.source_failures if f not in self.source_failures]

    def add_run(self, part: RunSummary) -> None:
        """Add a whole run's summary (a watching run's ingest runs): counters summed, lines and
        ids gathered (a line said twice kept once), the latest Data Docs site kept."""
        for name, mine in vars(self).items():
            theirs = getattr(part, name)
            if isinstance(mine, bool) or not theirs:
                continue
            if isinstance(mine, int):
                setattr(self, name, mine + theirs)
            elif isinstance(mine, list):
                mine += [x for x in theirs if x not in mine] if name in _LINES else theirs
            elif isinstance(mine, set):
                mine |= theirs
            elif isinstance(mine, dict):
                for key, value in theirs.items():
                    mine[key] = mine.get(key, 0) + value if isinstance(value, int) else value
            else:
                setattr(self, name, theirs)

    def record_deliveries(self, report: DeliveryReport, delivered: int) -> None:
        """What alert delivery did: ``delivered`` of this run's alerts are delivered on every
        channel (read back from the warehouse), per channel what was sent; a failed channel
        fails the run (its alerts stay pending for the next run); sends in doubt are
        reported, never resent."""
        self.alerts_delivered = delivered
        self.delivered_for_others = len(set(report.delivered_ids) - set(self.raised_ids))
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
        lines = count_lines(self.counts())
        if self.new == 0 and self.ingested == 0 and self.ok and not self.dispatched:
            again = "" if self.already_stored else _found_again(self.found, self.unchanged)
            lines.insert(0, "nothing new to ingest" + again)
        lines += [f"handed to ingest run: {run}" for run in self.dispatched]
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


def _found_again(found: int, unchanged: int) -> str:
    """Why a rerun finds documents at all: its listings show again what is stored."""
    if not found or unchanged != found:
        return ""
    return (
        f": the {found} found are in the warehouse already (a run lists the sources' last days"
        " again and a backfill everything since its date, so a rerun finds some of what it"
        " stored)"
    )


_BY_ID = ("seen", "ingested_ids", "raised_ids")
# Lines a watching run's passes may each say again (a source down for a while)
_LINES = ("source_failures", "not_delivered", "in_doubt")


def count_lines(c: Mapping[str, Any]) -> list[str]:
    """The counters of a run in words: the same lines in the printed summary, the artifact and
    ``filings status`` (``c``: :meth:`RunSummary.counts`, or a run's stored row)."""
    rest = [
        (c.get("failed") and len(c["failed"]), "failed"),
        (c.get("elsewhere") and len(c["elsewhere"]), "processed by another run at the same time"),
        (c.get("waiting"), "waiting for a paused source"),
        (c.get("unchanged"), "already in the warehouse"),
    ]
    apart = "; ".join(f"{n} {what}" for n, what in rest if n)
    sent = c.get("delivered_by_channel", {})
    by_channel = ", ".join(f"{ch} {n}" for ch, n in sorted(sent.items()))
    lines = [
        f"documents: {c.get('found', 0)} found, {c.get('new', 0)} new, "
        f"{c.get('ingested', 0)} ingested" + (f" ({apart})" if apart else ""),
        f"facts loaded: {c.get('facts_loaded', 0)}",
        f"validations: {c.get('validations_passed', 0)} passed, "
        f"{c.get('validations_failed', 0)} failed"
        + (f", {c['validations_flagged']} flagged (info)" if c.get("validations_flagged") else ""),
        f"alerts: {c.get('alerts_raised', 0)} raised, {c.get('alerts_delivered', 0)} delivered"
        + (f" (sent: {by_channel})" if c.get("not_delivered") and by_channel else ""),
    ]
    if c.get("delivered_for_others"):
        lines.append(f"also delivered: {c['delivered_for_others']} alert(s) raised by other runs")
    return lines


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
        failed = sum(tally(d.results)[1] for d in self.documents)
        lines = [
            f"revalidated: {len(self.documents)} document(s), {failed} failed expectation(s)",
            f"alerts: {self.alerts_raised} raised",
        ]
        held = [d.document_id for d in self.documents if d.status is Status.QUARANTINED]
        lines += [f"quarantined: {d}" for d in held]
        if self.data_docs:
            lines.append(f"data docs: {self.data_docs}")
        return "\n".join(lines)
