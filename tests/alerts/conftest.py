"""A real SMTP server (aiosmtpd) on loopback; pytest-httpserver provides the HTTP endpoint."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from dataclasses import dataclass, field
from email import message_from_bytes
from email.message import Message
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword

USER, PASSWORD = "alerts", "s3cret-Pa55word"


@dataclass
class Mailbox:
    """What the SMTP server accepted."""

    messages: list[Message] = field(default_factory=list)
    host: str = "127.0.0.1"
    port: int = 0

    def url(self, password: str = PASSWORD) -> str:
        return f"smtp://{USER}:{password}@{self.host}:{self.port}"


class _Handler:
    def __init__(self, box: Mailbox) -> None:
        self.box = box

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.box.messages.append(message_from_bytes(envelope.original_content))
        return "250 Message accepted for delivery"


def _authenticate(server: Any, session: Any, envelope: Any, mechanism: str, data: Any) -> Any:
    ok = isinstance(data, LoginPassword) and (data.login, data.password) == (
        USER.encode(),
        PASSWORD.encode(),
    )
    return AuthResult(success=ok, handled=False)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def smtp_server() -> Iterator[Mailbox]:
    """An SMTP server requiring AUTH (plain text allowed on loopback) that keeps every mail."""
    box = Mailbox(port=_free_port())
    controller = Controller(
        _Handler(box),
        hostname=box.host,
        port=box.port,
        authenticator=_authenticate,
        auth_require_tls=False,
    )
    controller.start()
    try:
        yield box
    finally:
        controller.stop()
