"""The raw archive: every fetched file stored once, content-addressed by sha256.

A local folder by default, any fsspec URL (``s3://bucket/prefix``) by configuration. Later
stages read from here, so re-extraction never re-downloads.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Mapping
from datetime import UTC, datetime

import fsspec

from domain.errors import NotFoundError


class RawArchive:
    """Content-addressed store: ``objects/<sha[:2]>/<sha>`` plus ``meta/<sha>.json``.

    ``urls/<sha256 of the URL>`` names the object last fetched from a URL, so an immutable
    document (an EDGAR Archives file, an HKEx PDF) is never downloaded twice, even when a run
    died before the warehouse recorded it.
    """

    def __init__(self, root: str) -> None:
        self._fs, self._root = fsspec.core.url_to_fs(root)
        self._fs.makedirs(self._root, exist_ok=True)

    def _object(self, sha: str) -> str:
        return f"{self._root}/objects/{sha[:2]}/{sha}"

    def put(self, content: bytes, *, url: str, headers: Mapping[str, str]) -> str:
        """Store ``content`` (once) with where and when it came from; return its sha256."""
        sha = hashlib.sha256(content).hexdigest()
        path = self._object(sha)
        if not self._fs.exists(path):
            self._fs.makedirs(path.rsplit("/", 1)[0], exist_ok=True)
            self._write(path, content)
            meta = {
                "sha256": sha,
                "url": url,
                "size": len(content),
                "fetched_at": datetime.now(UTC).isoformat(),
                "headers": dict(headers),
            }
            self._fs.makedirs(f"{self._root}/meta", exist_ok=True)
            self._write(f"{self._root}/meta/{sha}.json", json.dumps(meta, indent=1, sort_keys=True))
        self._remember(url, sha)
        return sha

    def _write(self, path: str, data: bytes | str) -> None:
        """Write then rename, so a crash never leaves a half file under the final name; the
        temporary name is this writer's own: two downloads of the same bytes at once (one
        PDF listed under two issuers) each write their own and the last rename wins."""
        tmp = f"{path}.{uuid.uuid4().hex}.tmp"
        with self._fs.open(tmp, "wb") as handle:
            handle.write(data.encode() if isinstance(data, str) else data)
        self._fs.mv(tmp, path)

    def _url_key(self, url: str) -> str:
        return f"{self._root}/urls/{hashlib.sha256(url.encode()).hexdigest()}"

    def _remember(self, url: str, sha: str) -> None:
        if not url:
            return
        self._fs.makedirs(f"{self._root}/urls", exist_ok=True)
        self._write(self._url_key(url), sha)

    def lookup(self, url: str) -> str | None:
        """The sha256 of the object stored for ``url``, if it is still in the archive."""
        try:
            with self._fs.open(self._url_key(url), "r") as handle:
                sha = str(handle.read()).strip()
        except FileNotFoundError:
            return None
        return sha if sha and self.has(sha) else None

    def has(self, sha: str) -> bool:
        """True when the object is stored."""
        return bool(self._fs.exists(self._object(sha)))

    def get(self, sha: str) -> bytes:
        """The stored bytes; NotFoundError if the archive lost them."""
        try:
            with self._fs.open(self._object(sha), "rb") as handle:
                data: bytes = handle.read()
        except FileNotFoundError:
            raise NotFoundError(f"raw archive has no object {sha}") from None
        return data

    def meta(self, sha: str) -> dict[str, object]:
        """URL, headers and fetch time recorded with the object."""
        with self._fs.open(f"{self._root}/meta/{sha}.json", "r") as handle:
            result: dict[str, object] = json.load(handle)
        return result
