"""Which process does the work: a worker's name, and whether its process is gone.

A worker is ``host:pid:nonce``. A run killed with SIGKILL never cleans up after itself; a later
run on the same host sees its process is gone and takes over what it left (its document
claims, its ``running`` row, its alert sends). On another host a process cannot be checked:
leases and ages decide there.
"""

from __future__ import annotations

import os
import socket
import uuid


def worker_id() -> str:
    """This run's name in claims and in ``runs``: host, process and a random part."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


def gone(worker: str) -> bool:
    """True for a worker of this host whose process no longer exists."""
    host, _, rest = worker.partition(":")
    pid = rest.partition(":")[0]
    if host != socket.gethostname() or not pid.isdigit():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except PermissionError:  # alive, another user's
        return False
    return False
