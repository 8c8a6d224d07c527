"""`filings ingest` -> quarantine -> `filings revalidate` -> `filings release`, as real flows."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from sqlalchemy import select
from typer.testing import CliRunner

from flows.cli import app
from storage import db
from storage.schema import documents, releases
from storage.views import FACTS_LATEST
from tasks.sources.replay import default_archive_root

ARCHIVE = default_archive_root()
Q4_2023_EX99 = ARCHIVE / "sec/0001741530/0001104659-24-032436/tm248123d1_ex99-1.htm"
runner = CliRunner()


@pytest.fixture(scope="module", autouse=True)
def prefect_api() -> Iterator[None]:
    from prefect.testing.utilities import prefect_test_harness

    with prefect_test_harness(server_startup_timeout=90):
        yield


@pytest.fixture
def env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'warehouse.sqlite'}"
    monkeypatch.setenv("FILINGS_DATABASE_URL", url)
    monkeypatch.setenv("FILINGS_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("PREFECT_HOME", str(tmp_path / "prefect"))
    monkeypatch.setenv("PREFECT_LOGGING_LEVEL", "WARNING")
    return url


def _state(url: str) -> tuple[str, str, int, int]:
    engine = db.make_engine(url)
    with engine.connect() as conn:
        stmt = select(documents.c.document_id, documents.c.status)
        document_id, status = conn.execute(stmt).one()
        n_latest = len(conn.execute(select(FACTS_LATEST)).all())
        n_releases = len(conn.execute(select(releases)).all())
    engine.dispose()
    return document_id, status, n_latest, n_releases


def _docs_link(output: str) -> str:
    flat = "".join(output.split())
    assert "datadocs:file://" in flat, output
    return flat.split("datadocs:", 1)[1].split("index.html", 1)[0] + "index.html"


def test_quarantine_revalidate_and_release(env: str, tmp_path: Path) -> None:
    html = Q4_2023_EX99.read_text(encoding="utf-8")
    at = html.index(">TOTAL ASSETS<")
    path = tmp_path / "altered_ex99-1.htm"
    path.write_text(html[:at] + html[at:].replace("45,818,572", "45,818,672", 1), "utf-8")
    ingested = runner.invoke(app, ["ingest", str(path)])
    # rich wraps long lines at the terminal width: compare without whitespace
    link = _docs_link(ingested.output)
    assert link.startswith((tmp_path / "data_docs").as_uri() + "/")  # the run's own site
    assert Path(unquote(urlsplit(link).path)).is_file()
    document_id, status, n_latest, _ = _state(env)
    assert (status, n_latest) == ("quarantined", 0)

    again = runner.invoke(app, ["revalidate", document_id])
    assert again.exit_code == 0, again.output
    assert f"quarantined: {document_id}" in again.output
    # The revalidation has a site of its own; the ingest run's page still shows its document.
    relink = _docs_link(again.output)
    assert relink != link and Path(unquote(urlsplit(relink).path)).is_file()
    assert document_id in Path(unquote(urlsplit(link).path)).read_text(encoding="utf-8")

    released = runner.invoke(app, ["release", document_id, "--by", "ana", "--reason", "ok"])
    assert released.exit_code == 0, released.output
    assert f"released {document_id} by ana" in released.output
    _, status, n_latest, n_releases = _state(env)
    assert (status, n_releases) == ("loaded", 1) and n_latest > 200

    twice = runner.invoke(app, ["release", document_id])
    assert twice.exit_code == 1
    errors = [line for line in twice.output.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and "not quarantined" in errors[0], twice.output


def test_revalidate_unknown_document_exits_non_zero(env: str) -> None:
    db.open_warehouse(env).dispose()
    result = runner.invoke(app, ["revalidate", "sec:nope"])
    assert result.exit_code == 1
    assert "unknown document" in result.output
