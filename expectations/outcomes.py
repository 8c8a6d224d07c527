"""Great Expectations' results as plain records: one :class:`Outcome` per expectation run,
a batch's outcome shared out per document, failing rows as positions."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any


@dataclass(frozen=True, slots=True)
class Outcome:
    """One expectation's result, free of GX types."""

    suite: str
    name: str
    success: bool
    severity: str
    result: dict[str, Any]
    exception: str = ""


def share(outcome: Outcome, low: int, high: int) -> Outcome:
    """A batch's outcome as one document's: its rows ``low``..``high`` of the batch frame."""
    if outcome.success:
        return replace(outcome, result={})
    if outcome.exception or "unexpected_index_list" not in outcome.result:
        return outcome  # no rows judged one by one: it stands for every document
    failing = [int(i) for i in outcome.result["unexpected_index_list"]]
    own = [i - low for i in failing if low <= i < high]
    return replace(outcome, success=not own, result={"unexpected_index_list": own})


def _positions(result: dict[str, Any]) -> dict[str, Any]:
    """The result with its failing rows as positions (GX gives the index columns' values)."""
    rows = result.get("unexpected_index_list")
    if rows and isinstance(rows[0], dict):
        return {**result, "unexpected_index_list": [int(r["row"]) for r in rows]}
    return result


def from_suite_result(suite_result: Any) -> Sequence[Outcome]:
    outcomes = []
    for item in suite_result.results:
        config = item.expectation_config
        outcomes.append(
            Outcome(
                suite=suite_result.suite_name,
                name=str(config.meta.get("name", config.type)),
                success=bool(item.success),
                severity=str(getattr(config.severity, "value", config.severity)),
                result=_positions(dict(item.result or {})),
                exception=_exception_message(item.exception_info or {}),
            )
        )
    return outcomes


def _exception_message(info: dict[str, Any]) -> str:
    # GX reports either one flat record or one record per failed metric computation.
    records = [info] if "raised_exception" in info else list(info.values())
    messages = [
        str(r.get("exception_message"))
        for r in records
        if isinstance(r, dict) and r.get("exception_message")
    ]
    return "; ".join(dict.fromkeys(messages))
