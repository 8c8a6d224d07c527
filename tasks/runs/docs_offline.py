"""Data Docs that render with no network: GX's CDN assets replaced by vendored copies.

Great Expectations' pages load Bootstrap, jQuery, Font Awesome, bootstrap-table and Vega from
CDNs, so a site opened offline (or behind a firewall) shows unstyled, empty tables. After a
site is built, its pages are pointed at copies shipped in ``docs_assets/`` and copied into the
site's ``static/vendor/``; the GX logo comes from the site's own ``static/images``.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

ASSETS = Path(__file__).with_name("docs_assets")
_VENDOR = "static/vendor"
# CDN URL (without query) -> file under docs_assets/
CDN_FILES = {
    "https://maxcdn.bootstrapcdn.com/bootstrap/4.3.1/css/bootstrap.min.css": (
        "css/bootstrap.min.css"
    ),
    "https://stackpath.bootstrapcdn.com/bootstrap/4.3.1/js/bootstrap.min.js": "js/bootstrap.min.js",
    "https://cdn.jsdelivr.net/npm/@forevolve/bootstrap-dark@1.1.0/dist/css/"
    "bootstrap-prefers-dark.css": "css/bootstrap-prefers-dark.min.css",
    "https://cdnjs.cloudflare.com/ajax/libs/bootstrap-datepicker/1.9.0/css/"
    "bootstrap-datepicker.min.css": "css/bootstrap-datepicker.min.css",
    "https://cdnjs.cloudflare.com/ajax/libs/bootstrap-datepicker/1.9.0/js/"
    "bootstrap-datepicker.min.js": "js/bootstrap-datepicker.min.js",
    "https://cdnjs.cloudflare.com/ajax/libs/font-awesome/6.6.0/css/all.min.css": "css/all.min.css",
    "https://unpkg.com/bootstrap-table@1.19.1/dist/bootstrap-table.min.css": (
        "css/bootstrap-table.min.css"
    ),
    "https://unpkg.com/bootstrap-table@1.19.1/dist/bootstrap-table.min.js": (
        "js/bootstrap-table.min.js"
    ),
    "https://unpkg.com/bootstrap-table@1.19.0/dist/extensions/filter-control/"
    "bootstrap-table-filter-control.min.css": "css/bootstrap-table-filter-control.min.css",
    "https://unpkg.com/bootstrap-table@1.19.0/dist/extensions/filter-control/"
    "bootstrap-table-filter-control.css": "css/bootstrap-table-filter-control.css",
    "https://unpkg.com/bootstrap-table@1.19.1/dist/extensions/filter-control/"
    "bootstrap-table-filter-control.min.js": "js/bootstrap-table-filter-control.min.js",
    "https://cdn.jsdelivr.net/npm/vega@5": "js/vega.min.js",
    "https://cdn.jsdelivr.net/npm/vega-lite@5": "js/vega-lite.min.js",
    "https://cdn.jsdelivr.net/npm/vega-embed@6": "js/vega-embed.min.js",
    "https://code.jquery.com/jquery-3.7.1.min.js": "js/jquery.min.js",
    "https://cdnjs.cloudflare.com/ajax/libs/popper.js/1.12.9/umd/popper.min.js": (
        "js/popper.min.js"
    ),
}
_LOGO = re.compile(r"https://great-expectations-web-assets\.s3[^\"']*/logo-long\.png[^\"']*")
_VENDOR_TAG = re.compile(r"<(?:script|link)\b[^>]*static/vendor/[^>]*>")
_CORS_ATTRS = re.compile(r"""\s+(?:integrity|crossorigin)=["'][^"']*["']""")
_LOADED = re.compile(r"""(?:src|href)=["'](https?://[^"']+)["']""")


def make_offline(site: Path) -> None:
    """Copy the vendored assets into ``site`` and point every page of it at them."""
    shutil.copytree(ASSETS, site / _VENDOR, dirs_exist_ok=True, ignore=_only_assets)
    for page in site.rglob("*.html"):
        up = os.path.relpath(site, page.parent).replace(os.sep, "/")
        text = page.read_text(encoding="utf-8")
        for url, name in CDN_FILES.items():
            text = text.replace(f'"{url}"', f'"{up}/{_VENDOR}/{name}"')
        text = _LOGO.sub(f"{up}/static/images/logo-long.png", text)
        # crossorigin makes a file:// page refuse its own script (CORS); the copies are ours
        text = _VENDOR_TAG.sub(lambda m: _CORS_ATTRS.sub("", m[0]), text)
        page.write_text(text, encoding="utf-8")


def remote_assets(page: Path) -> list[str]:
    """URLs a page still loads from the network (stylesheets, scripts, images)."""
    text = page.read_text(encoding="utf-8")
    tags = re.findall(r"<(?:link|script|img)\b[^>]*>", text)
    return [url for tag in tags for url in _LOADED.findall(tag)]


def _only_assets(folder: str, names: list[str]) -> list[str]:
    return [n for n in names if n.endswith(".md")]
