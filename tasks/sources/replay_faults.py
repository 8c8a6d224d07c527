"""How the replay server plays a misbehaving source on the wire (test infrastructure).

Each fault is what a real server or network does to a client: ``drop`` closes the socket
before answering; ``truncate`` declares a length and sends half; ``drop_mid_body`` streams
chunks and closes mid-body; ``stall`` waits ``delay`` seconds before answering, ``stall_body``
after half the body; ``drip`` sends the body a byte at a time, ``delay`` seconds apart (each read
is quick, the whole is not), ``drip_head`` the status line and headers so; ``chunked`` sends the
body with no declared length.
"""

from __future__ import annotations

import time
from http.server import BaseHTTPRequestHandler
from typing import Protocol


class Played(Protocol):
    """What a fault needs of an answer (``tasks.sources.replay.Answer``)."""

    @property
    def status(self) -> int: ...

    @property
    def body(self) -> bytes: ...

    @property
    def headers(self) -> dict[str, str]: ...

    @property
    def fault(self) -> str: ...

    @property
    def delay(self) -> float: ...


def send(handler: BaseHTTPRequestHandler, answer: Played) -> None:
    """Write ``answer`` to the client as its fault says."""
    if answer.fault == "stall":
        time.sleep(answer.delay)
    if answer.fault == "drop":
        handler.close_connection = True
        handler.connection.close()
        return
    if answer.fault == "drip_head":
        _drip_head(handler, answer)
        return
    handler.send_response(answer.status)
    for name, value in answer.headers.items():
        handler.send_header(name, value)
    if answer.fault in ("chunked", "drop_mid_body"):
        _send_chunked(handler, answer)
        return
    handler.send_header("Content-Length", str(len(answer.body)))
    handler.end_headers()
    _send_body(handler, answer)


def _send_body(handler: BaseHTTPRequestHandler, answer: Played) -> None:
    body, half = answer.body, len(answer.body) // 2
    try:
        if answer.fault == "truncate":
            handler.wfile.write(body[:half])
            handler.close_connection = True
        elif answer.fault == "stall_body":
            handler.wfile.write(body[:half])
            handler.wfile.flush()
            time.sleep(answer.delay)
            handler.wfile.write(body[half:])
        elif answer.fault == "drip":
            for index in range(len(body)):
                handler.wfile.write(body[index : index + 1])
                handler.wfile.flush()
                time.sleep(answer.delay)
        else:
            handler.wfile.write(body)
    except OSError:  # the client gave up (its deadline): nothing more to send
        handler.close_connection = True


def _drip_head(handler: BaseHTTPRequestHandler, answer: Played) -> None:
    """The status line and headers a byte at a time, then the body at once."""
    lines = [f"HTTP/1.1 {answer.status} {handler.responses.get(answer.status, ('',))[0]}"]
    lines += [f"{name}: {value}" for name, value in answer.headers.items()]
    lines += [f"Content-Length: {len(answer.body)}", "", ""]
    head = "\r\n".join(lines).encode("latin-1")
    try:
        for index in range(len(head)):
            handler.wfile.write(head[index : index + 1])
            handler.wfile.flush()
            time.sleep(answer.delay)
        handler.wfile.write(answer.body)
    except OSError:  # the client gave up (its deadline): nothing more to send
        pass
    handler.close_connection = True


def _send_chunked(handler: BaseHTTPRequestHandler, answer: Played) -> None:
    handler.send_header("Transfer-Encoding", "chunked")
    handler.end_headers()
    body = answer.body
    cut = len(body) // 2 if answer.fault == "drop_mid_body" else len(body)
    try:
        for start in range(0, cut, 16 * 1024):
            piece = body[start : min(start + 16 * 1024, cut)]
            handler.wfile.write(f"{len(piece):x}\r\n".encode() + piece + b"\r\n")
        if answer.fault == "drop_mid_body":
            handler.wfile.flush()
            handler.close_connection = True
            handler.connection.close()
            return
        handler.wfile.write(b"0\r\n\r\n")
    except OSError:  # the client stopped reading (a size cap): nothing more to send
        handler.close_connection = True
