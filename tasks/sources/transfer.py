"""Bounded transfers: how much of an answer the HTTP client reads, for how long, from where.

A body is read in chunks up to a size cap (a 50 MB listing or a compressed bomb is refused
before it fills memory) and within a wall-clock deadline (a server that drips one byte per
second never trips a per-read timeout). Redirects are followed by the client itself, one
limiter slot per hop, and only to URLs under the source's own base URLs. What a source expects
(JSON, a PDF) is checked here too, so HTML where JSON belongs or an error page saved as a PDF
is one line of the right class, never a parse failure deep in a stage.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from typing import Any
from urllib.parse import urljoin, urlsplit

import requests
from urllib3.exceptions import DecodeError, ProtocolError, ReadTimeoutError

from domain.errors import FatalTransportError, ParseError, RetriableTransportError

MIB = 1024 * 1024
REDIRECTS = frozenset({301, 302, 303, 307, 308})
CHUNK = 64 * 1024


def origin_of(url: str) -> str:
    """scheme://host[:port] of ``url``: the base a client without configured bases allows."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def within(url: str, bases: Sequence[str]) -> bool:
    """True when ``url`` is on one of ``bases`` (same scheme, host, port; under its path)."""
    parts = urlsplit(url)
    for base in bases:
        allowed = urlsplit(base)
        same_host = (parts.scheme, parts.netloc.lower()) == (
            allowed.scheme,
            allowed.netloc.lower(),
        )
        prefix = allowed.path.rstrip("/")
        if same_host and (parts.path == prefix or parts.path.startswith(prefix + "/")):
            return True
    return False


def redirect_target(url: str, location: str, bases: Sequence[str]) -> str:
    """Where a redirect from ``url`` leads, refused (fatal) when it leaves the source's bases."""
    target = urljoin(url, location)
    if not within(target, bases):
        raise FatalTransportError(
            f"{url}: redirect to {origin_of(target)} refused (outside the source's base URL)",
            url=url,
        )
    return target


def read_body(
    url: str,
    raw: requests.Response,
    max_bytes: int,
    deadline: float,
    clock: Callable[[], float] = time.monotonic,
) -> bytes:
    """The whole body of a streamed answer, at most ``max_bytes``, before ``deadline``.

    Read with ``read1`` (what has arrived, never waiting for a full chunk), so the deadline is
    checked while a slow server drips; decompressed bytes count against the cap.
    """
    declared = raw.headers.get("Content-Length", "")
    if declared.isdigit() and int(declared) > max_bytes:
        raise _too_big(url, max_bytes, f"declares {int(declared) / MIB:.1f} MiB")
    parts: list[bytes] = []
    size = 0
    try:
        while chunk := raw.raw.read1(CHUNK, decode_content=True):
            size += len(chunk)
            if size > max_bytes:
                raise _too_big(url, max_bytes, "sent more")
            if clock() > deadline:
                raise RetriableTransportError(
                    f"{url}: body still arriving at the deadline ({size} bytes read)",
                    url=url,
                )
            parts.append(chunk)
    except (ReadTimeoutError, TimeoutError):
        raise _cut(url, size, "stalled mid-body") from None
    except (ProtocolError, OSError):
        raise _cut(url, size, "connection dropped mid-body") from None
    except DecodeError:
        raise RetriableTransportError(f"{url}: corrupt compressed body", url=url) from None
    finally:
        raw.close()
    return b"".join(parts)


def _cut(url: str, size: int, how: str) -> RetriableTransportError:
    return RetriableTransportError(f"{url}: {how} ({size} bytes read)", url=url)


def read_prefix(raw: requests.Response, size: int = 2000) -> bytes:
    """The start of an error answer's body (enough to classify it), never more."""
    try:
        return bytes(raw.raw.read(size, decode_content=True) or b"")
    except Exception:  # noqa: BLE001 - a broken error page still has its status
        return b""
    finally:
        raw.close()


def _too_big(url: str, max_bytes: int, how: str) -> FatalTransportError:
    return FatalTransportError(
        f"{url}: body over the {max_bytes / MIB:.0f} MiB cap ({how}); not stored", url=url
    )


def check_length(url: str, headers: Any, content: bytes) -> None:
    """A body shorter than its declared Content-Length was cut short (uncompressed only)."""
    declared = headers.get("Content-Length")
    if declared and headers.get("Content-Encoding") is None and int(declared) != len(content):
        raise RetriableTransportError(
            f"{url}: truncated body ({len(content)} of {declared} bytes)", url=url
        )


def media_type(headers: Any) -> str:
    """The answer's media type, lower case, without parameters ("" when not sent)."""
    return str(headers.get("Content-Type", "")).split(";", 1)[0].strip().lower()


def looks_like_html(content: bytes) -> bool:
    """True for a body that starts like an HTML page (an error or login page)."""
    head = content[:512].lstrip().lower()
    return head.startswith((b"<!doctype html", b"<html", b"<head", b"<body"))


def json_body(url: str, content: bytes, kind: str) -> Any:
    """The JSON of an answer; HTML or XML instead is the server's error page (fatal)."""
    if looks_like_html(content) or content[:512].lstrip().startswith(b"<?xml"):
        raise FatalTransportError(f"{url}: expected JSON, got an HTML/XML page", url=url)
    try:
        return json.loads(content)
    except ValueError:
        raise ParseError(f"{url}: {kind} is not valid JSON ({len(content)} bytes)") from None
    except RecursionError:
        raise ParseError(f"{url}: {kind} is nested too deeply to read") from None


def check_not_empty(url: str, status: int, content: bytes) -> None:
    """A 200 answer with no content (zero bytes, or only whitespace) is a server's hiccup, not
    a document: retriable, never handed on to be archived, extracted or stored as loaded."""
    if status == 200 and not content.strip():
        raise RetriableTransportError(f"{url}: empty body ({len(content)} bytes)", url=url)


def check_pdf(url: str, content: bytes, kind: str) -> None:
    """A PDF answer must be a whole PDF: an HTML page is the wrong content (fatal); a PDF
    without its ``%%EOF`` trailer was cut short (retriable: never archived as it is)."""
    if content.startswith(b"%PDF-"):
        if b"%%EOF" not in content[-2048:]:
            raise RetriableTransportError(
                f"{url}: truncated PDF (no %%EOF trailer, {len(content)} bytes)",
                url=url,
            )
        return
    what = "an HTML page" if looks_like_html(content) else f"{kind or 'no content type'}"
    if not content:
        what = "an empty body"
    raise FatalTransportError(f"{url}: expected a PDF, got {what}", url=url)
