"""Build a replay universe: N generated issuers x Q quarters of results on both sources.

Usage: ``.venv/bin/python scripts/universe.py OUT --issuers 300 --quarters 8``, then serve it
and run against it (the issuers are configuration: ``OUT/issuers.toml``)::

    FILINGS_ISSUERS_FILE=OUT/issuers.toml python -m benchmarks.universe ...

The generator is :mod:`tasks.sources.replay_universe`; no issuer needs code or a file of its own.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from tasks.sources.replay_universe import build_universe


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="folder to write the replay archive into")
    parser.add_argument("--issuers", type=int, default=300)
    parser.add_argument("--quarters", type=int, default=8)
    args = parser.parse_args()
    members = build_universe(args.out, args.issuers, args.quarters)
    print(f"{len(members)} issuers x {args.quarters} quarters in {args.out}")
    print(f"issuers file: {args.out / 'issuers.toml'}")


if __name__ == "__main__":
    main()
