"""URLs that hold a secret (an SMTP password, a webhook token, a database password).

Parsed once, where settings are read: a URL that cannot be used is refused there with what is
wrong with it, never with its text (a parse error that quotes a part quotes a part of the
secret: "Port could not be cast to integer value as 'S3cr3tPw'"). A parsed URL prints as its
scheme, host and port only; :meth:`SecretUrl.reveal` gives the text to the one call that
connects.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar
from urllib.parse import SplitResult, unquote, urlsplit

from pydantic import GetCoreSchemaHandler
from pydantic_core import core_schema

_BAD_ESCAPE = re.compile(r"%(?![0-9A-Fa-f]{2})")
_UNSAFE = re.compile(r"[\s\x00-\x1f\x7f]")
ENCODE_HINT = (
    "percent-encode any '/', '?', '#', '@', ':' or '%' in a user name or password "
    "(%2F %3F %23 %40 %3A %25)"
)


def url_problem(text: str, schemes: tuple[str, ...], need_host: bool = True) -> str:
    """What is wrong with a secret-holding URL, in words that never quote it; "" when fine."""
    kinds = " or ".join(f"{s}://" for s in schemes)
    scheme, sep, _ = text.partition("://")
    if not sep or scheme.lower() not in schemes:
        return f"not a {kinds} URL"
    if _UNSAFE.search(text):
        return "holds a space or control character"
    if "#" in text:
        return f"holds a '#', which ends a URL there; {ENCODE_HINT}"
    if _BAD_ESCAPE.search(text):
        return f"holds a '%' not followed by two hex digits; {ENCODE_HINT}"
    parts = urlsplit(text)
    try:
        port = parts.port
    except ValueError:
        return f"its port is not a number from 1 to 65535; {ENCODE_HINT}"
    if port == 0:
        return "its port is not a number from 1 to 65535"
    if need_host and not parts.hostname:
        return f"has no host; {ENCODE_HINT}"
    return ""


class SecretUrl:
    """A URL with a secret in it, checked; it prints without user, password, path or query."""

    schemes: ClassVar[tuple[str, ...]] = ("http", "https")
    __slots__ = ("_parts", "_text")

    def __init__(self, text: str) -> None:
        problem = url_problem(text, self.schemes)
        if problem:
            raise ValueError(problem)
        self._text = text
        self._parts: SplitResult = urlsplit(text)

    @property
    def scheme(self) -> str:
        return self._parts.scheme.lower()

    @property
    def host(self) -> str:
        return self._parts.hostname or ""

    @property
    def port(self) -> int | None:
        return self._parts.port

    @property
    def username(self) -> str:
        return unquote(self._parts.username or "")

    @property
    def password(self) -> str:
        return unquote(self._parts.password or "")

    @property
    def query(self) -> str:
        return self._parts.query

    def reveal(self) -> str:
        """The URL itself: for the call that connects, never for a message."""
        return self._text

    def secrets(self) -> tuple[str, ...]:
        """Every part that must not be shown (for scrubbing what a receiver echoes)."""
        p = self._parts
        parts = (self._text, p.password or "", self.password, p.path, p.query, p.netloc)
        return tuple(s for s in dict.fromkeys(parts) if len(s) > 1 and s != "/")

    def __str__(self) -> str:
        port = f":{self.port}" if self.port else ""
        return f"{self.scheme}://{self.host}{port}/***"

    def __repr__(self) -> str:
        return f"{type(self).__name__}({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other._text == self._text  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash(self._text)

    @classmethod
    def __get_pydantic_core_schema__(
        cls, source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        # Checked from a string; the error is url_problem's words (the value is not shown).
        return core_schema.no_info_plain_validator_function(
            cls._validate,
            serialization=core_schema.plain_serializer_function_ser_schema(str),
        )

    @classmethod
    def _validate(cls, value: object) -> SecretUrl:
        if isinstance(value, cls):
            return value
        get = getattr(value, "get_secret_value", None)  # a SecretStr given as an override
        text = get() if get is not None else value
        if not isinstance(text, str):
            raise ValueError(f"not a {' or '.join(cls.schemes)} URL")
        return cls(text.strip())


class WebhookUrl(SecretUrl):
    """An http(s) webhook URL whose path or query is its token."""

    schemes = ("http", "https")


class SmtpUrl(SecretUrl):
    """``smtp://user:password@host:port[?starttls]`` or ``smtps://``."""

    schemes = ("smtp", "smtps")

    @property
    def starttls(self) -> bool:
        return "starttls" in self.query.split("&")

    @property
    def ssl(self) -> bool:
        return self.scheme == "smtps"

    def with_password(self, password: str) -> SmtpUrl:
        """The same server with another password (from a Prefect Secret block)."""
        from urllib.parse import quote

        user = quote(self.username, safe="")
        netloc = f"{user}:{quote(password, safe='')}@{self.host}"
        netloc += f":{self.port}" if self.port else ""
        return SmtpUrl(self._parts._replace(netloc=netloc).geturl())


class SourceUrl(str):
    """An http(s) URL setting (a source's base, where Data Docs are served) whose user name and
    password are a secret. The string is the URL without them, ``/`` stripped at its end:
    everything that prints, stores or logs a URL built on it (errors, the ``runs`` and
    ``documents`` rows, Prefect's records) never holds them; :attr:`credentials` gives them
    to the one client that connects (HTTP basic auth, as ``requests`` sends userinfo)."""

    credentials: tuple[str, str] | None

    def __new__(cls, text: str) -> SourceUrl:
        problem = _source_problem(text)
        if problem:
            raise ValueError(problem)
        parts = urlsplit(text.strip())
        host = parts.netloc.rpartition("@")[2]
        url = super().__new__(cls, parts._replace(netloc=host).geturl().rstrip("/"))
        url.credentials = None
        if parts.username is not None or parts.password is not None:
            url.credentials = (unquote(parts.username or ""), unquote(parts.password or ""))
        return url


def _source_problem(text: str) -> str:
    """What is wrong with a source URL, never quoting it; "" when fine."""
    if _UNSAFE.search(text.strip()):
        return "holds a space or control character"
    parts = urlsplit(text.strip())
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        return "not an http:// or https:// URL"
    if _BAD_ESCAPE.search(parts.netloc):
        return f"holds a '%' not followed by two hex digits; {ENCODE_HINT}"
    try:
        port = parts.port
    except ValueError:
        return f"its port is not a number from 1 to 65535; {ENCODE_HINT}"
    if port == 0 or not parts.hostname:
        return f"has no host or port 0; {ENCODE_HINT}"
    return ""


def source_url(value: str) -> str:
    """``value`` as a :class:`SourceUrl` (a validator's: ValueError in words, never the text)."""
    return SourceUrl(value)


def archive_problem(text: str) -> str:
    """What is wrong with ``FILINGS_ARCHIVE_URL`` (a folder or an fsspec URL), never quoting
    it: a user name or password in it would be printed wherever a path is (fsspec's errors);
    "" when fine."""
    if _UNSAFE.search(text.strip()):
        return "holds a space or control character"
    scheme, sep, rest = text.partition("://")
    if sep and "@" in rest.partition("/")[0]:
        return (
            "holds a user name or password: give the storage's credentials through its own "
            "configuration (e.g. AWS_* variables for s3://), never in the URL"
        )
    return ""


class BaseAuth:
    """``requests`` auth: the credentials of the :class:`SourceUrl` a request's URL is under
    (none for other URLs), so they go as an ``Authorization`` header and no URL holds them."""

    def __init__(self, bases: tuple[str, ...]) -> None:
        self._by_origin = {
            _origin(b): creds for b in bases if (creds := getattr(b, "credentials", None))
        }

    def __call__(self, request: Any) -> Any:
        creds = self._by_origin.get(_origin(str(request.url)))
        if creds is not None:
            from requests.auth import HTTPBasicAuth

            return HTTPBasicAuth(*creds)(request)
        return request


def _origin(url: str) -> tuple[str, str]:
    parts = urlsplit(url)
    return parts.scheme.lower(), parts.netloc.rpartition("@")[2].lower()
