"""Files a person drops in by hand (``filings ingest PATH``), as a source.

Such a file is stored in the raw archive when it is ingested and becomes a ``local`` document
keyed by its content; nothing lists local documents and nothing downloads them again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, date, datetime, time
from pathlib import Path

from domain.enums import SourceName
from domain.errors import NotFoundError
from domain.records import DocumentRef, Issuer, SourceFile, StoredFile
from tasks.sources.archive import RawArchive
from tasks.sources.http import Response
from tasks.sources.listing import Listing
from tasks.sources.protocol import PageReader


class LocalFiles:
    """Hand-dropped files: their document is the file archived when it was ingested."""

    name = SourceName.LOCAL
    listed = False

    def refusal(self) -> str:
        """Local files need nothing: always ""."""
        return ""

    def discover(
        self, issuer: Issuer, since: date, cursor: Mapping[str, str], now: datetime
    ) -> Listing:
        """Nothing: local files are ingested by name, never listed."""
        return Listing()

    def files(
        self, ref: DocumentRef, cik: str, pages: PageReader, archived: Sequence[StoredFile]
    ) -> tuple[SourceFile, ...]:
        """The files archived when the document was ingested."""
        return tuple(SourceFile(f.name, f.url, f.doc_type) for f in archived)

    def fetch(self, url: str, headers: Mapping[str, str] | None = None) -> Response:
        """Never downloaded: a local file lost from the raw archive must be ingested again."""
        raise NotFoundError(f"{url}: a local file is not in the raw archive; ingest it again")


def archive_local_file(
    archive: RawArchive, issuer: Issuer, path: Path, published: date, content: bytes
) -> tuple[DocumentRef, StoredFile]:
    """Store a hand-dropped file and describe it as a ``local`` document (keyed by content),
    published on ``published`` (its dateline, or the date the person gave)."""
    url = path.resolve().as_uri()
    sha = archive.put(content, url=url, headers={})
    ref = DocumentRef(
        source=SourceName.LOCAL,
        source_id=sha[:16],
        issuer=issuer.ticker,
        form=SourceName.LOCAL.value,
        title=path.name,
        published_at=datetime.combine(published, time(), tzinfo=UTC),
        url=url,
        files=(SourceFile(name=path.name, url=url, doc_type=path.suffix.lstrip(".").upper()),),
    )
    stored = StoredFile(
        name=path.name, url=url, sha256=sha, size=len(content), doc_type=SourceName.LOCAL.value
    )
    return ref, stored
