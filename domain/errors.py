"""The pipeline's errors, each telling the caller what to do (the warehouse's too).

Standard library only. Transport errors split into retriable (try again later: 429, 5xx,
timeouts, dropped connections) and fatal (retrying cannot help: bad URL, 400, 401); a throttle
block is its own kind because retrying inside it extends it. ``classify_status`` is the one
place an HTTP status becomes an error class.

Whether an error is worth retrying is its type's ``retriable``, never words in its message: a
message says what happened; the layer that retries (the Prefect task's retry condition,
``tasks.sources.retry``) says it retries, and whoever reports a failure afterwards says what
happens next (``after_retries``).
"""

from __future__ import annotations

from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import ClassVar


class PipelineError(Exception):
    """Base class: the message is one line a person can act on; ``retriable`` says whether
    trying again later can succeed (a property of the type)."""

    retriable: ClassVar[bool] = False


class ConfigError(PipelineError):
    """Configuration is missing or invalid: fix the setting named in the message."""


class SchemaError(PipelineError):
    """The warehouse's schema is not the one this code reads: upgrade the warehouse
    (``filings upgrade``) or the code, as the message says."""


class TransportError(PipelineError):
    """A remote source could not be reached or answered badly."""

    def __init__(self, message: str, *, url: str = "", status: int | None = None) -> None:
        super().__init__(message)
        self.url = url
        self.status = status


class RetriableTransportError(TransportError):
    """Temporary: 429, 5xx, timeout, dropped connection, truncated body. Retry with backoff;
    ``retry_after`` (seconds) is the wait the server asked for (429/503 Retry-After), if any."""

    retriable: ClassVar[bool] = True

    def __init__(
        self,
        message: str,
        *,
        url: str = "",
        status: int | None = None,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(message, url=url, status=status)
        self.retry_after = retry_after


class RateLimitedError(TransportError):
    """The source blocked us for over-use (SEC 403 "Request Rate Threshold Exceeded").

    Do not retry before ``pause_seconds``: retrying inside the block extends it.
    """

    def __init__(
        self, message: str, *, url: str = "", pause_seconds: float = 600.0, status: int = 403
    ) -> None:
        super().__init__(message, url=url, status=status)
        self.pause_seconds = pause_seconds


class FatalTransportError(TransportError):
    """Permanent: bad URL, 400, 401, unexpected content. Retrying cannot help."""


class NotFoundError(TransportError):
    """The object does not exist (404, SEC AccessDenied/NoSuchKey XML). Not a throttle."""


class NotSentError(PipelineError):
    """An alert send that never reached the receiver (no connection: a bad address, DNS, a
    refused or timed-out connect) or that the receiver refused outright (an SMTP or HTTP error
    status): the send is released and the next run sends it again."""


class SendInDoubtError(PipelineError):
    """An alert send that may have reached the receiver (the connection failed after the
    message went out): never sent again on its own; an operator checks the receiver and
    decides (``filings alerts resend``)."""


class RefusedFileError(PipelineError):
    """A hand-dropped file that must not be stored: the message says why, in one line."""


class ParseError(PipelineError):
    """A document could not be read (corrupt PDF, unexpected table). The document is marked
    failed; nothing stored is lost."""


class ValidationError(PipelineError):
    """Extracted data broke a critical expectation: the document is quarantined."""


class UnknownDocumentError(LookupError):
    """The document_id is not in the warehouse: record the document first, or check the id."""


class NotQuarantinedError(ValueError):
    """Only a quarantined document can be released."""


_THROTTLE_MARKER = "request rate threshold exceeded"
_MISSING_MARKERS = ("accessdenied", "nosuchkey")
# The longest Retry-After a run waits for; a longer one pauses the source instead.
MAX_RETRY_AFTER_SECONDS = 120.0


def classify_status(
    status: int,
    body: str = "",
    *,
    url: str = "",
    retry_after: str = "",
    max_wait: float = MAX_RETRY_AFTER_SECONDS,
) -> TransportError | None:
    """Map an HTTP status (the start of its body, its Retry-After header) to an error, or None
    for success. A Retry-After longer than ``max_wait`` pauses the source rather than waiting."""
    if status < 300 or status == 304:
        return None
    lowered = body[:2000].lower()
    if status == 403 and _THROTTLE_MARKER in lowered:
        return RateLimitedError(f"{url}: SEC rate limit block (403); pausing source", url=url)
    if status == 404 or (status == 403 and any(m in lowered for m in _MISSING_MARKERS)):
        return NotFoundError(f"{url}: not found ({status})", url=url, status=status)
    if status == 429 or status == 408 or status >= 500:
        return _retriable(status, url, parse_retry_after(retry_after), max_wait)
    return FatalTransportError(f"{url}: HTTP {status}", url=url, status=status)


def _retriable(status: int, url: str, wait: float | None, max_wait: float) -> TransportError:
    if wait is None:
        return RetriableTransportError(f"{url}: HTTP {status}", url=url, status=status)
    if wait > max_wait:
        return RateLimitedError(
            f"{url}: HTTP {status} asks to wait {wait:.0f} s (Retry-After), over the "
            f"{max_wait:.0f} s a run waits; pausing source",
            url=url,
            pause_seconds=wait,
            status=status,
        )
    return RetriableTransportError(
        f"{url}: HTTP {status}, asked to wait {wait:.0f} s (Retry-After)",
        url=url,
        status=status,
        retry_after=wait,
    )


def parse_retry_after(value: str, now: datetime | None = None) -> float | None:
    """Seconds a Retry-After header asks for (delta-seconds or an HTTP date); None if absent
    or unreadable."""
    value = (value or "").strip()
    if not value:
        return None
    if value.isdigit():
        return float(value)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - (now or datetime.now(UTC))).total_seconds())


def is_retriable(exc: BaseException) -> bool:
    """True for errors a retry with backoff can fix (their type says so)."""
    return isinstance(exc, PipelineError) and exc.retriable


def one_line(exc: BaseException) -> str:
    """An error in one line: its type and the first line of its message (what happened)."""
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0] if text else ''}"[:500]


def after_retries(exc: BaseException) -> str:
    """An error as a run reports it once the task's retries are spent: what happened, and
    for a retriable one what happens next (the next run tries again)."""
    line = one_line(exc)
    return f"{line} (retries spent; the next run tries again)" if is_retriable(exc) else line
