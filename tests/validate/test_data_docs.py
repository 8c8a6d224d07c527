"""Data Docs: one site per run, built once at its end, valid after later runs; GX forgets;
old runs' sites pruned after ``keep_days``."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from domain.records import Fact
from expectations import runner
from tasks.runs.docs_sites import build_data_docs, new_docs_site, prune_docs_sites, write_docs_index
from tasks.validate import validate_facts

T0 = datetime(2025, 3, 17, 8, 0, 0, tzinfo=UTC)
T1 = datetime(2025, 3, 17, 8, 15, 0, tzinfo=UTC)


@pytest.fixture
def gx_builds(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The folder of every Data Docs site GX builds, in order."""
    from great_expectations.render.renderer.site_builder import SiteBuilder

    seen: list[Path] = []
    original = SiteBuilder.build

    def spy(self: Any, *args: Any, **kwargs: Any) -> Any:
        seen.append(Path(self.target_store.store_backends["index_page"].full_base_directory))
        return original(self, *args, **kwargs)

    monkeypatch.setattr(SiteBuilder, "build", spy)
    return seen


def run_names(site: Path) -> set[str]:
    """The documents (GX run names) that have a validation page in ``site``."""
    return {p.parts[-3] for p in (site / "validations").rglob("*.html")}


def suites() -> set[str]:
    return {s.name for s in runner.suite_specs()}


def test_a_run_site_is_named_by_utc_time_and_flow_run_id(tmp_path: Path) -> None:
    run_id = "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0"
    assert new_docs_site(tmp_path, run_id, T0) == tmp_path / "20250317T080000Z-0f1e2d3c"
    # Outside a flow: a random id, so two runs in the same second still differ.
    first, second = new_docs_site(tmp_path, now=T0), new_docs_site(tmp_path, now=T0)
    assert first != second
    assert re.fullmatch(r"20250317T080000Z-[0-9a-f]{8}", first.name)


def test_validation_without_docs_leaves_no_result_in_gx(good_facts: list[Fact]) -> None:
    validate_facts("hkex:plain", good_facts)
    assert runner.held_results() == 0


def test_a_run_records_until_its_single_build_then_gx_forgets(
    good_facts: list[Fact], tmp_path: Path, gx_builds: list[Path]
) -> None:
    site = new_docs_site(tmp_path, "a" * 8, T0)
    documents = ["hkex:one", "hkex:two", "hkex:three"]
    for document in documents:
        validate_facts(document, good_facts, docs_site=site)
    # a release runs every suite but the audited one (that one checks SEC's audited filings)
    release_suites = suites() - {"audited"}
    assert runner.held_results() == len(documents) * len(release_suites)
    assert not site.exists()  # nothing rendered per document

    assert build_data_docs(site) == (site / "index.html").as_uri()
    assert gx_builds == [site]  # one GX build for the whole run
    assert run_names(site) == set(documents)
    assert len(list((site / "validations").rglob("*.html"))) == len(documents) * len(release_suites)
    index = (site / "index.html").read_text(encoding="utf-8")
    assert all(f"'run_name': '{d}'" in index for d in documents)
    assert runner.held_results() == 0  # memory flat: the next run starts from nothing
    assert build_data_docs(site) == ""  # its results are gone: nothing to build twice


def test_run_a_site_survives_run_b_in_a_new_process(
    good_facts: list[Fact], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "data_docs"
    site_a, site_b = new_docs_site(root, "a" * 8, T0), new_docs_site(root, "b" * 8, T1)
    monkeypatch.setattr(runner._LOADED, "runtime", None)  # a fresh process: a new GX context
    validate_facts("sec:run-a-doc", good_facts, docs_site=site_a)
    link_a = build_data_docs(site_a)
    monkeypatch.setattr(runner._LOADED, "runtime", None)
    validate_facts("sec:run-b-doc", good_facts, docs_site=site_b)
    build_data_docs(site_b)

    index_a = Path(link_a.removeprefix("file://")).read_text(encoding="utf-8")
    assert "'run_name': 'sec:run-a-doc'" in index_a and "run-b-doc" not in index_a
    assert run_names(site_a) == {"sec:run-a-doc"}
    assert {p.parts[-4] for p in (site_a / "validations").rglob("*.html")} == suites() - {"audited"}
    assert run_names(site_b) == {"sec:run-b-doc"}
    # The list of runs at the top links both, newest first.
    top = (root / "index.html").read_text(encoding="utf-8")
    assert top.index(f"{site_b.name}/index.html") < top.index(f"{site_a.name}/index.html")


def test_a_run_that_validated_nothing_builds_nothing(tmp_path: Path) -> None:
    site = new_docs_site(tmp_path / "data_docs", "c" * 8, T0)
    assert build_data_docs(site) == ""
    assert not (tmp_path / "data_docs").exists()


def test_results_recorded_before_a_suite_edit_still_reach_the_run_site(
    good_facts: list[Fact], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = new_docs_site(tmp_path, "d" * 8, T0)
    validate_facts("hkex:before-edit", good_facts, docs_site=site)
    before = runner._runtime()
    # A suite file changed mid-run: the runner builds a new GX context.
    monkeypatch.setattr(runner, "fingerprint", lambda _: (("edited.json", 1, 1),))
    validate_facts("hkex:after-edit", good_facts, docs_site=site)
    assert runner._runtime() is not before
    build_data_docs(site)
    assert run_names(site) == {"hkex:before-edit", "hkex:after-edit"}
    assert runner.held_results() == 0


def test_the_list_of_runs_links_run_folders_only_newest_first(tmp_path: Path) -> None:
    for name in ("20250317T080000Z-0f1e2d3c", "20250318T080000Z-aaaaaaaa"):
        (tmp_path / name).mkdir()
    (tmp_path / "validations").mkdir()  # the single-site layout of earlier versions
    (tmp_path / "20250319T080000Z-<script>").mkdir()
    page = write_docs_index(tmp_path).read_text(encoding="utf-8")
    links = re.findall(r'href="([^"]+)"', page)
    assert links == ["20250318T080000Z-aaaaaaaa/index.html", "20250317T080000Z-0f1e2d3c/index.html"]
    assert "<script>" not in page


def _old_site(root: Path, name: str) -> Path:
    """A run site as a build leaves it (an index page and some assets)."""
    (root / name / "static").mkdir(parents=True)
    (root / name / "index.html").write_text("<html></html>", encoding="utf-8")
    return root / name


class TestRetention:
    NOW = datetime(2025, 6, 15, 12, 0, 0, tzinfo=UTC)

    def test_sites_older_than_keep_days_are_deleted(self, tmp_path: Path) -> None:
        old = _old_site(tmp_path, "20250316T120000Z-aaaaaaaa")  # 91 days before NOW
        pruned = prune_docs_sites(tmp_path, 90, self.NOW, keep=tmp_path / "x")
        assert pruned == [old.name]
        assert not old.exists()

    def test_sites_within_keep_days_stay(self, tmp_path: Path) -> None:
        recent = _old_site(tmp_path, "20250317T120001Z-bbbbbbbb")  # 89 days 23:59:59
        assert prune_docs_sites(tmp_path, 90, self.NOW, keep=tmp_path / "x") == []
        assert (recent / "index.html").exists()

    def test_this_runs_own_site_is_never_deleted(self, tmp_path: Path) -> None:
        own = _old_site(tmp_path, "20200101T000000Z-cccccccc")  # its clock was far behind
        assert prune_docs_sites(tmp_path, 1, self.NOW, keep=own) == []
        assert own.exists()

    def test_other_folders_and_files_are_left_alone(self, tmp_path: Path) -> None:
        other = _old_site(tmp_path, "20200101-notes")
        (tmp_path / "index.html").write_text("runs", encoding="utf-8")
        assert prune_docs_sites(tmp_path, 1, self.NOW, keep=tmp_path / "x") == []
        assert other.exists() and (tmp_path / "index.html").exists()

    def test_a_build_prunes_then_lists_only_the_sites_kept(
        self, good_facts: list[Fact], tmp_path: Path
    ) -> None:
        old = _old_site(tmp_path, "20250101T000000Z-dddddddd")
        kept = _old_site(tmp_path, "20250610T000000Z-eeeeeeee")
        site = new_docs_site(tmp_path, "f" * 8, self.NOW)
        validate_facts("hkex:retention", good_facts, docs_site=site)
        assert build_data_docs(site, keep_days=30, now=self.NOW)
        assert not old.exists() and kept.exists() and (site / "index.html").exists()
        top = (tmp_path / "index.html").read_text(encoding="utf-8")
        assert kept.name in top and site.name in top and old.name not in top

    def test_keep_days_zero_keeps_every_site(self, good_facts: list[Fact], tmp_path: Path) -> None:
        old = _old_site(tmp_path, "20000101T000000Z-abababab")
        site = new_docs_site(tmp_path, "9" * 8, self.NOW)
        validate_facts("hkex:keep-all", good_facts, docs_site=site)
        assert build_data_docs(site, keep_days=0, now=self.NOW)
        assert old.exists()
        assert old.name in (tmp_path / "index.html").read_text(encoding="utf-8")


def test_a_failing_check_row_is_named_by_rule_and_period_in_data_docs(tmp_path: Path) -> None:
    # Data Docs name a failing identity row by what it is about, not by "[500, 10200000]" alone
    from .fixture_io import load

    raw, facts, context = load("balance_sheet.bad")
    site = tmp_path / "site"
    results = validate_facts(str(raw["document_id"]), facts, context=context, docs_site=site)
    failed = [r for r in results if not r.success and r.suite == "balance_sheet"]
    assert failed and all(r.observed for r in failed)  # still judged, and said, row by row
    build_data_docs(site)
    [page] = [p for p in (site / "validations" / "balance_sheet").rglob("*identity_checks.html")]
    html = re.sub(r"<(script|style).*?</\1>", " ", page.read_text(encoding="utf-8"), flags=re.S)
    text = " ".join(re.sub(r"<[^>]+>", " ", html).split())
    shown = text[text.find("Unexpected Value") :]
    assert "period" in shown and re.search(r"\d{4}-\d{2}-\d{2}", shown), shown[:1500]
