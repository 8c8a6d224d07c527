"""One message for many alerts: what a run raised, as a single e-mail or chat post per channel.

A digest is keyed by the ids of the alerts it carries, so the rare re-send after a crash
repeats the same Message-ID / Idempotency-Key and a receiver can drop it.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Sequence

from domain.records import PendingDelivery


def digest_key(items: Sequence[PendingDelivery]) -> str:
    """A stable id for this set of alerts."""
    joined = ",".join(sorted(a.alert_id for a in items))
    return "digest-" + hashlib.sha256(joined.encode()).hexdigest()[:24]


def digest_subject(items: Sequence[PendingDelivery]) -> str:
    """'QFIN: 9 alerts (6 restatement, 2 guidance_variance, 1 data_quality)'."""
    if len(items) == 1:
        return f"[{items[0].kind}] {items[0].subject}"
    issuers = ", ".join(sorted({a.issuer for a in items}))
    kinds = Counter(str(a.kind) for a in items)
    parts = ", ".join(f"{n} {kind}" for kind, n in kinds.most_common())
    return f"{issuers}: {len(items)} alerts ({parts})"


def digest_text(items: Sequence[PendingDelivery], bullet: str = "-") -> str:
    """Every alert: its subject, then its message, separated by blank lines."""
    blocks = [f"{bullet} {a.subject}\n{_indent(a.message)}" for a in items]
    return "\n\n".join(blocks)


def _indent(text: str) -> str:
    return "\n".join(f"  {line}" if line else "" for line in text.splitlines())
