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
