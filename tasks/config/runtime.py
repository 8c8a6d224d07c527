"""The per-user runtime folder: what every run of one user on one machine shares, whatever its
data folder or current directory (the sources' pacers).

SEC's fair-access limit is per machine, not per data folder: two backfills started from two
folders each paced themselves to 10 requests per second and together sent 17 in one second.
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path
from urllib.parse import urlsplit

from tasks.config.settings import Settings
from tasks.core.errors import ConfigError


def user_folder(settings: Settings) -> Path:
    """``FILINGS_RUNTIME_DIR``, else ``$XDG_RUNTIME_DIR/filings``, else ``/tmp/filings-$UID``;
    created private to the user, and refused if another user owns it."""
    if settings.runtime_dir is not None:
        folder = settings.runtime_dir
    elif settings.xdg_runtime_dir is not None and settings.xdg_runtime_dir.is_dir():
        folder = settings.xdg_runtime_dir / "filings"
    else:
        folder = Path(tempfile.gettempdir()) / f"filings-{os.getuid()}"
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = folder.lstat()
    except OSError as exc:
        raise ConfigError(
            f"FILINGS_RUNTIME_DIR: cannot use {folder} ({exc.strerror or exc}); set it to a "
            "folder of yours"
        ) from None
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid():
        # another user's folder (or a link) in a shared /tmp must never pace this user's runs
        raise ConfigError(
            f"FILINGS_RUNTIME_DIR: {folder} is not a folder of yours; set it to one that is"
        )
    return folder.resolve()


def pacer_file(settings: Settings, source: str, url: str) -> Path:
    """The pacer file of one remote server (``source`` and the host of ``url``): every run of
    the user asking that server shares it."""
    host = (urlsplit(url).netloc or "local").replace(":", "_").replace("/", "_")
    return user_folder(settings) / f"{source}-{host}.pacer"
