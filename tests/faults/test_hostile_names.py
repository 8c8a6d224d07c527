"""A source listing documents named with ``..`` or an absolute path: nothing is written outside
the data folder (the raw archive names objects by their sha256, never by a listed name), and
each such document fails with one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from flows.ingest import ingest
from tasks.sources.replay import Answer, default_archive_root

pytestmark = pytest.mark.usefixtures("prefect_api", "no_retry_delays")

ROWS = default_archive_root() / "hkex" / "03660" / "titlesearch_rows.json"


def _files(root: Path) -> set[Path]:
    return {p for p in root.rglob("*") if p.is_file()}


class TestDocumentNamesWithDotsOrAbsolutePaths:
    def test_nothing_written_outside_the_data_folder(self, run_env, replay, tmp_path):
        run_env("hostile")
        data = tmp_path / "hostile"
        outside = tmp_path / "outside"
        rows = json.loads(ROWS.read_text())
        links = {
            "90000001": "/../../../../../.." + str(outside / "dotted.pdf"),
            "90000002": str(outside / "absolute.pdf"),
            "90000003": "/listedco/../../../../../../../../tmp/escaped-90000003.pdf",
            "90000004": "/listedco/..%2F..%2F..%2F..%2Ftmp%2Fescaped-90000004.pdf",
        }
        hostile = [dict(rows[0], NEWS_ID=n, FILE_LINK=link) for n, link in links.items()]
        envelope = {"result": json.dumps(rows + hostile), "hasNextRow": False}
        replay.inject("titleSearchServlet", Answer(200, json.dumps(envelope).encode()))
        summary = ingest()
        written = _files(tmp_path)
        assert written and all(data in p.parents for p in written), sorted(written - _files(data))
        assert not outside.exists()
        assert not any(Path(f"/tmp/escaped-{n}.pdf").exists() for n in links)
        failed = {line.split(": ", 1)[0]: line for line in summary.failed}
        for news_id in links:
            line = failed[f"hkex:{news_id}"]
            assert "\n" not in line and "Traceback" not in line, line
        assert summary.ingested >= len(rows)  # the real documents were read as usual
