"""The issuers a run covers: the embedded default (QFIN), or a TOML file of ``[[issuer]]`` tables.

Adding an issuer is configuration only (``FILINGS_ISSUERS_FILE``): no code, no file inside the
package.
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import tomli_w

from domain.errors import ConfigError, PipelineError
from domain.fiscal import valid_year_end
from domain.records import Issuer

DEFAULT_ISSUERS = (
    Issuer(ticker="QFIN", name="Qifu Technology, Inc.", cik="0001741530", hkex_code="03660"),
)


def read_issuers(path: Path) -> tuple[Issuer, ...]:
    """Issuers from a TOML file of ``[[issuer]]`` tables: ticker plus cik and/or hkex_code
    (either may be absent); name defaults to the ticker; ``aliases``: other names its documents
    print (a Chinese name), each enough to tell a document is the issuer's; ``fiscal_year_end``:
    "MMDD" its fiscal year ends on (default: SEC's, else December)."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        return tuple(_issuer(r) for r in data["issuer"])
    except (OSError, KeyError, TypeError, ValueError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"FILINGS_ISSUERS_FILE {path}: {exc}") from None


def _issuer(row: dict[str, object]) -> Issuer:
    ticker = str(row["ticker"]).strip().upper()
    cik, code = str(row.get("cik", "")).strip(), str(row.get("hkex_code", "")).strip()
    if not (cik or code):
        raise ValueError(f"issuer {ticker}: give its cik and/or its hkex_code")
    aliases = row.get("aliases", [])
    if not isinstance(aliases, list):
        raise ValueError(f"issuer {ticker}: aliases must be a list of names")
    year_end = str(row.get("fiscal_year_end", "")).strip()
    if year_end and not valid_year_end(year_end):
        raise ValueError(
            f'issuer {ticker}: fiscal_year_end {year_end!r} is not a month and day as "MMDD" '
            '(e.g. "0131", "1231")'
        )
    return Issuer(
        ticker=ticker,
        name=str(row.get("name") or ticker),
        cik=cik.zfill(10) if cik else "",
        hkex_code=code.zfill(5) if code else "",
        aliases=tuple(str(a).strip() for a in aliases if str(a).strip()),
        fiscal_year_end=year_end,
    )


def write_issuers(path: Path, issuers: Sequence[Issuer]) -> None:
    """Write issuers as the TOML file :func:`read_issuers` reads (absent ids are left out),
    through a TOML writer: names come from remote directories (SEC's, HKEx's) and may hold
    any character (a newline, a quote). What was written is read back before it replaces the
    file: an issuers file every later command fails on is never left behind."""
    rows = [_row(i) for i in issuers]
    # one [[issuer]] table each, as the docs show: an entry appended by hand then reads (the
    # writer's own `issuer = [{...}]` for short rows would refuse it)
    tables = [f"[[issuer]]\n{tomli_w.dumps(r)}" for r in rows]
    body = "# Issuers this pipeline covers (filings issuers add TICKER).\n\n" + "\n".join(tables)
    if [_issuer(r) for r in tomllib.loads(body).get("issuer", [])] != [_issuer(r) for r in rows]:
        raise ConfigError(f"FILINGS_ISSUERS_FILE {path}: the issuers would not read back as given")
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(body, encoding="utf-8")
    tmp.replace(path)


def _row(issuer: Issuer) -> dict[str, object]:
    row: dict[str, object] = {"ticker": issuer.ticker, "name": issuer.name}
    row.update({"cik": issuer.cik} if issuer.cik else {})
    row.update({"hkex_code": issuer.hkex_code} if issuer.hkex_code else {})
    row.update({"aliases": list(issuer.aliases)} if issuer.aliases else {})
    row.update({"fiscal_year_end": issuer.fiscal_year_end} if issuer.fiscal_year_end else {})
    return row


def with_issuer(configured: Sequence[Issuer], issuer: Issuer) -> tuple[Issuer, ...]:
    """The configured issuers with ``issuer`` added, or replacing the one of its ticker."""
    kept = [i for i in configured if i.ticker != issuer.ticker]
    before = [i for i in configured if i.ticker == issuer.ticker]
    if before:  # a refresh keeps the names and the year end a person set
        issuer = replace(
            issuer,
            aliases=issuer.aliases or before[0].aliases,
            fiscal_year_end=issuer.fiscal_year_end or before[0].fiscal_year_end,
        )
    return (*kept, issuer)


def select_issuers(configured: Sequence[Issuer], tickers: Sequence[str] | None) -> list[Issuer]:
    """The configured issuers named by ``tickers`` (all of them when none are named)."""
    if not tickers:
        return list(configured)
    wanted = {t.upper() for t in tickers}
    unknown = wanted - {i.ticker for i in configured}
    if unknown:
        raise PipelineError(f"unknown issuer(s) {sorted(unknown)}: add them to the issuers file")
    return [i for i in configured if i.ticker in wanted]
