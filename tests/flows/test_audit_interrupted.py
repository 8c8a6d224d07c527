"""The audited witness after a run that did not finish: the rerun ends with the rows of an
uninterrupted run (the audited checks, accuracy measures and restatement alerts included),
on both databases. CI's kill and fault tests found both gaps by timing; here they are forced.
"""

from collections.abc import Iterator
from pathlib import Path

import pytest

from benchmarks.warehouse_dump import Dump, differences, dump, without_failure_alerts
from expectations import runner
from flows.ingest import ingest
from storage import audited, db
from tasks import audit
from tasks.sources.replay import Answer, ReplayServer, default_archive_root

Q4_2023_EXHIBIT = "tm248123d1_ex99-1.htm"  # the 6-K whose FY2023 figures the 20-F audits


class Stopped(RuntimeError):
    """Where a run is made to stop (as a kill or a lost database would stop it)."""


@pytest.fixture
def replay() -> Iterator[ReplayServer]:
    with ReplayServer(default_archive_root()) as server:
        yield server


@pytest.fixture
def use(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, replay: ReplayServer):
    """Point the pipeline at a warehouse (and this test's replay server and data folder)."""

    def pointed(url: str, data: str = "data") -> str:
        monkeypatch.setenv("FILINGS_DATABASE_URL", url)
        monkeypatch.setenv("FILINGS_DATA_DIR", str(tmp_path / data))  # its own raw archive
        for name in ("FILINGS_SEC_DATA_URL", "FILINGS_SEC_ARCHIVES_URL", "FILINGS_HKEX_URL"):
            monkeypatch.setenv(name, replay.url)
        monkeypatch.setenv("FILINGS_HKEX_SECONDS_BETWEEN_REQUESTS", "0")
        monkeypatch.setenv("FILINGS_ISSUERS_FILE", str(default_archive_root() / "issuers.toml"))
        return url

    return pointed


@pytest.fixture(scope="module")
def references() -> dict[str, Dump]:
    """One uninterrupted run per kind of database, shared by this module's tests."""
    return {}


@pytest.fixture
def uninterrupted(db_url: str, second_db_url: str, use, references: dict[str, Dump]) -> Dump:
    """The warehouse of one uninterrupted run, on a second database of the same kind."""
    kind = db_url.partition(":")[0]
    if kind not in references:
        use(second_db_url, "uninterrupted")
        ingest()
        references[kind] = _dumped(second_db_url)
    return references[kind]


def _dumped(url: str) -> Dump:
    engine = db.make_engine(url)
    try:
        return dump(engine)
    finally:
        engine.dispose()


def _stop(*_: object, **__: object) -> None:
    raise Stopped("stopped here")


class TestStoppedInTheAudit:
    """A run stopped after the releases were loaded, in the audit: the rerun, with nothing
    left to load, still stores the audited figures and checks them."""

    @pytest.mark.parametrize(
        "where",
        [
            (audited, "store_filing"),  # once the company facts were read (cursor moved before)
            (audit, "validate_audited"),  # once the figures were stored (no check was due after)
        ],
        ids=["storing-figures", "checking"],
    )
    def test_the_rerun_equals_an_uninterrupted_run(
        self, db_url, use, uninterrupted, monkeypatch, where
    ):
        use(db_url)
        with monkeypatch.context() as stopped:
            stopped.setattr(*where, _stop)
            with pytest.raises(Stopped):
                ingest()
        assert runner.held_results() == 0  # its validations' Data Docs were never built
        again = ingest()
        assert not again.failed and again.ingested == 0, again.render()
        got, failure_alerts = without_failure_alerts(_dumped(db_url), 1)
        assert failure_alerts == 0
        assert differences(got, uninterrupted) == []


class TestReleaseFailedOnce:
    """A release that could not be fetched in the first run: no extraction accuracy is kept
    over the rest (it would be a measure of part of the releases); the rerun keeps it."""

    def test_no_measure_over_part_of_the_releases(self, db_url, use, uninterrupted, replay):
        use(db_url)
        replay.inject(Q4_2023_EXHIBIT, Answer(404, b"Not Found"))
        first = ingest()
        assert first.failed, first.render()
        assert _dumped(db_url)["accuracy_measures"] == []
        again = ingest()
        assert not again.failed and again.ingested == 1, again.render()
        assert differences(_dumped(db_url), uninterrupted) == []
