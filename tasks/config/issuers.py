"""The issuers a run covers: the embedded default (QFIN), or a TOML file of ``[[issuer]]`` tables.

Adding an issuer is configuration only (``FILINGS_ISSUERS_FILE``): no code, no file inside the
package.
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from pathlib import Path

from tasks.core.errors import ConfigError, PipelineError
from tasks.core.records import Issuer

DEFAULT_ISSUERS = (
    Issuer(ticker="QFIN", name="Qifu Technology, Inc.", cik="0001741530", hkex_code="03660"),
)


def read_issuers(path: Path) -> tuple[Issuer, ...]:
    """Issuers from a TOML file of ``[[issuer]]`` tables (ticker, name, cik, hkex_code)."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        rows = data["issuer"]
        return tuple(
            Issuer(
                ticker=str(r["ticker"]).upper(),
                name=str(r.get("name", r["ticker"])),
                cik=str(r["cik"]).zfill(10),
                hkex_code=str(r["hkex_code"]).zfill(5),
            )
            for r in rows
        )
    except (OSError, KeyError, TypeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"FILINGS_ISSUERS_FILE {path}: {exc}") from None


def select_issuers(configured: Sequence[Issuer], tickers: Sequence[str] | None) -> list[Issuer]:
    """The configured issuers named by ``tickers`` (all of them when none are named)."""
    if not tickers:
        return list(configured)
    wanted = {t.upper() for t in tickers}
    unknown = wanted - {i.ticker for i in configured}
    if unknown:
        raise PipelineError(f"unknown issuer(s) {sorted(unknown)}: add them to the issuers file")
    return [i for i in configured if i.ticker in wanted]
