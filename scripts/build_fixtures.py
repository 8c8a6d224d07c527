"""Regenerate the replay archive (tasks/sources/replay_archive/{sec,hkex}) from the seed texts.

The archive is package data: ``make run`` and an installed wheel serve it. The seeds stay
in tests/fixtures/seeds.

Deterministic: the same bytes on every run (fixed dates, reportlab ``invariant=1``, sorted
JSON keys). Usage: ``.venv/bin/python scripts/build_fixtures.py [--out DIR]``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from fixturegen import companyfacts, hkex_build, sec_build, second_issuer  # noqa: E402
from fixturegen.edgar_meta import dump_json  # noqa: E402

ARCHIVE = Path(__file__).resolve().parents[1] / "tasks" / "sources" / "replay_archive"
# The issuers a replay run covers (as `filings issuers add QFIN` and `... BKE` write them).
ISSUERS = """# Issuers this pipeline covers (filings issuers add TICKER).

[[issuer]]
ticker = "QFIN"
name = "Qifu Technology, Inc."
cik = "0001741530"
hkex_code = "03660"

[[issuer]]
ticker = "BKE"
name = "BUCKLE INC"
cik = "0000885245"
"""


def build(root: Path) -> dict[str, object]:
    """Write every fixture under ``root`` and the manifest; return the manifest."""
    documents = sec_build.build(root) + second_issuer.build(root) + hkex_build.build(root)
    (root / "issuers.toml").write_text(ISSUERS, encoding="utf-8")
    manifest = {
        "generator": "scripts/build_fixtures.py",
        "note": "accession numbers, NEWS_IDs and stockIds are synthetic but realistic",
        "indexes": {
            "sec_submissions": "sec/0001741530/submissions/CIK0001741530.json",
            "sec_submissions_bke": "sec/0000885245/submissions/CIK0000885245.json",
            "sec_companyfacts": companyfacts.build(root),
            "issuers": "issuers.toml",
            "hkex_active_stocks": "hkex/activestock_sehk_e.json",
            "hkex_titlesearch_rows": "hkex/03660/titlesearch_rows.json",
        },
        "documents": documents,
    }
    (root / "manifest.json").write_bytes(dump_json(manifest))
    return manifest


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=ARCHIVE, help="replay archive root to write")
    args = parser.parse_args(argv)
    manifest = build(args.out)
    print(f"wrote {len(manifest['documents'])} documents under {args.out}")  # type: ignore[arg-type]
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
