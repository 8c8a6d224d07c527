"""An installed wheel carries everything the product reads at run time.

The wheel is built from the tracked files only (as a fresh clone has them), offline, with the
venv's pinned setuptools. Every tracked file of the product's packages must be in it: modules,
the suites, the migrations (env.py, script.py.mako, versions), metrics.csv, the label catalogs
and the replay archive ``filings run --source replay`` serves.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("domain", "flows", "tasks", "expectations", "storage")


def _tracked() -> list[str]:
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, check=True, capture_output=True, text=True
    )
    return [name for name in listed.stdout.split("\0") if name]


def _build_wheel(tmp_path: Path) -> set[str]:
    source, out = tmp_path / "src", tmp_path / "dist"
    for name in _tracked():
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, source / name)
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
         "--quiet", "--wheel-dir", str(out), str(source)],
        check=True, capture_output=True, timeout=240,
    )  # fmt: skip
    (wheel,) = out.glob("filings_pipeline-*.whl")
    return set(zipfile.ZipFile(wheel).namelist())


def test_the_wheel_carries_every_file_of_the_product(tmp_path: Path) -> None:
    shipped = _build_wheel(tmp_path)
    product = [n for n in _tracked() if n.split("/")[0] in PACKAGES]
    assert [n for n in product if n not in shipped] == []
    for needed in (
        "tasks/sources/replay_archive/manifest.json",
        "tasks/sources/replay_archive/hkex/03660/11480512.pdf",
        "tasks/sources/replay_archive/sec/0001741530/submissions/CIK0001741530.json",
        "domain/metrics.csv",
        "tasks/parsers/statements/catalogs/qfin.toml",
        "expectations/suites/structure.json",
        "storage/migrations/env.py",
        "storage/migrations/script.py.mako",
        "storage/migrations/versions/0004_dividend_ads_payment_date.py",
    ):
        assert needed in shipped
