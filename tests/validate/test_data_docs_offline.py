"""Data Docs render with no network: every page loads its styles and scripts from the site.

Chromium opens a run's site from disk with every non-file request refused; nothing may fail
to load and Bootstrap's styles must apply (every stylesheet loaded, the navbar laid out).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from service_checks import unavailable

from domain.records import Fact
from tasks.runs.docs_offline import remote_assets
from tasks.runs.docs_sites import build_data_docs, new_docs_site
from tasks.validate import validate_facts

CHROMIUM = Path("/usr/bin/chromium")


@pytest.fixture
def site(tmp_path: Path, good_facts: list[Fact]) -> Path:
    site = new_docs_site(tmp_path)
    validate_facts("hkex:offline", good_facts, docs_site=site)
    assert build_data_docs(site)
    return site


def test_no_page_loads_anything_from_the_network(site: Path) -> None:
    pages = list(site.rglob("*.html"))
    assert len(pages) > 3
    assert {str(p.relative_to(site)): remote_assets(p) for p in pages if remote_assets(p)} == {}


def test_the_site_renders_styled_in_chromium_with_the_network_blocked(site: Path) -> None:
    if not CHROMIUM.exists() or shutil.which(str(CHROMIUM)) is None:
        unavailable("Chromium not installed at /usr/bin/chromium: apt-get install chromium")
    from playwright.sync_api import sync_playwright

    page_file = next((site / "validations").rglob("*.html"))
    failed: list[str] = []
    blocked: list[str] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        try:
            page = browser.new_page()

            def route(request_route):
                url = request_route.request.url
                if url.startswith(("file:", "data:")):
                    request_route.continue_()
                else:
                    blocked.append(url)
                    request_route.abort()

            page.route("**/*", route)
            page.on("requestfailed", lambda r: failed.append(r.url))
            for target in (site / "index.html", page_file):
                page.goto(target.as_uri())
                page.wait_for_load_state("load")
                navbar = page.evaluate(
                    "() => getComputedStyle(document.querySelector('.navbar')).display"
                )
                assert navbar == "flex", target  # Bootstrap's .navbar rule applied
                empty = page.evaluate(
                    "() => [...document.querySelectorAll('link[rel=stylesheet]')]"
                    ".filter(l => !l.sheet).map(l => l.href)"
                )
                assert empty == [], empty
                assert page.evaluate("() => typeof window.jQuery") == "function"
                page.screenshot(path=str(site.parent / f"{target.stem}.png"), full_page=True)
        finally:
            browser.close()
    assert blocked == [] and failed == []
