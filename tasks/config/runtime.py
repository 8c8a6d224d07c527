"""The per-user runtime folder: what every run of one user on one machine shares, whatever its
environment, data folder or current directory (the sources' pacers).

SEC's fair-access limit is per machine and user, not per environment: the folder is one fixed
place per user id (``/tmp/filings-<uid>``; never ``$TMPDIR``, ``$XDG_RUNTIME_DIR``, ``$HOME`` or
a setting), and a pacer file is keyed by the server as resolved, not as spelled. An outside
probe found 19 requests in one second from a backfill with ``XDG_RUNTIME_DIR`` set beside one
without, and 20 from one server named ``localhost`` by one run and ``127.0.0.1`` by another.
"""

from __future__ import annotations

import ipaddress
import os
import re
import socket
import stat
from pathlib import Path
from urllib.parse import urlsplit

from domain.errors import ConfigError

# Fixed on purpose: tempfile.gettempdir() follows $TMPDIR, which differs between a login
# shell, cron and systemd.
ROOT = Path("/tmp")
DEFAULT_PORTS = {"http": 80, "https": 443}
_UNSAFE = re.compile(r"[^a-z0-9.-]")


def user_folder() -> Path:
    """``/tmp/filings-<uid>``, created private to the user; refused if another user owns it
    (a shared /tmp: another user's folder must never pace this user's runs)."""
    folder = ROOT / f"filings-{os.getuid()}"
    try:
        folder.mkdir(mode=0o700, exist_ok=True)
        info = folder.lstat()
    except OSError as exc:
        raise ConfigError(
            f"cannot use the pacers' folder {folder} ({exc.strerror or exc}): make it writable "
            "by this user"
        ) from None
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid():
        raise ConfigError(
            f"the pacers' folder {folder} is not a folder of this user's: remove it (another "
            "user or a link holds its name)"
        )
    return folder


def server_key(url: str) -> str:
    """One name per remote server however ``url`` spells it: the host lower-cased without its
    trailing dot, a loopback host (``localhost``, ``127.0.0.1``, ``::1``) as ``loopback``, a
    host on a private network as its lowest address, and the port (the scheme's default when
    absent)."""
    parts = urlsplit(url)
    try:
        port = parts.port or DEFAULT_PORTS.get(parts.scheme.lower(), 0)
    except ValueError:
        port = 0
    host = (parts.hostname or "local").rstrip(".").lower()
    return f"{_resolved(host)}-{port}"


def _resolved(host: str) -> str:
    """``loopback``, an address, or the host's name (a public name's addresses change from one
    answer to the next: a CDN's)."""
    literal = _address(host)
    if literal is not None:
        return _address_key(literal)
    try:
        infos = socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        return _UNSAFE.sub("_", host)  # not resolvable now: its name is its key
    found = [_address(str(info[4][0])) for info in infos]
    addresses = [a for a in found if a is not None]
    if addresses and all(a.is_loopback for a in addresses):
        return "loopback"
    if addresses and all(a.is_private for a in addresses):
        return _address_key(min(addresses, key=lambda a: (a.version, int(a))))
    return _UNSAFE.sub("_", host)


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        address = ipaddress.ip_address(text.partition("%")[0])
    except ValueError:
        return None
    mapped = getattr(address, "ipv4_mapped", None)
    return mapped or address


def _address_key(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> str:
    return "loopback" if address.is_loopback else str(address).replace(":", "_")


def pacer_file(source: str, url: str) -> Path:
    """The pacer file of one remote server (``source`` and the server of ``url``): every run of
    the user asking that server shares it, whatever its environment."""
    return user_folder() / f"{source}-{server_key(url)}.pacer"
