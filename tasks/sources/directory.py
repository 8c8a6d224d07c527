"""Who an issuer is: its SEC CIK and name from SEC's company tickers file, its HKEx stock code
from HKEx's active stock list (``filings issuers add TICKER``).

The matching is pure; :class:`HttpDirectory` fetches both lists through the sources' own HTTP
clients (SEC's declared User-Agent and limiter, HKEx's pace), so the replay server answers it
like any other request.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from domain.errors import ConfigError, ParseError
from domain.records import Issuer
from tasks.sources import urls
from tasks.sources.hkex_source import HttpHkexClient
from tasks.sources.http import HttpClient

# HKEx short names end in marks of share classes ("QIFU TECH-S", "BABA-W", "XYZ-SW").
_CLASS_MARK = re.compile(r"-[A-Z]{1,2}$")
_LEGAL = {"inc", "ltd", "limited", "corp", "corporation", "co", "company", "plc", "holdings",
          "holding", "group", "the", "sa", "ag", "nv", "se"}  # fmt: skip


class DirectoryClient(Protocol):
    """The two lists an issuer is resolved from."""

    def company_tickers(self) -> Mapping[str, Any]: ...

    def active_stocks(self) -> Sequence[Mapping[str, Any]]: ...


def sec_company(data: Mapping[str, Any], ticker: str) -> tuple[str, str] | None:
    """(10-digit CIK, registrant name) of a ticker in company_tickers.json, or None."""
    wanted = ticker.strip().upper()
    for row in data.values():
        if isinstance(row, Mapping) and str(row.get("ticker", "")).upper() == wanted:
            return str(row["cik_str"]).zfill(10), str(row.get("title", wanted))
    return None


def _words(name: str) -> list[str]:
    return [w for w in re.findall(r"[a-z0-9]+", name.lower()) if w not in _LEGAL]


def names_match(hkex_name: str, company: str) -> bool:
    """True when each word of an HKEx short name begins the company name's word in its place:
    "QIFU TECH-S" is "Qifu Technology, Inc."."""
    short, full = _words(_CLASS_MARK.sub("", hkex_name.strip())), _words(company)
    if not short or len(short) > len(full):
        return False
    return all(f.startswith(s) for s, f in zip(short, full, strict=False))


def hkex_code(stocks: Sequence[Mapping[str, Any]], company: str) -> str:
    """The stock code whose short name is the company's ("" when none or several match)."""
    found = {str(s["c"]).zfill(5) for s in stocks if names_match(str(s.get("n", "")), company)}
    return found.pop() if len(found) == 1 else ""


def resolve_issuer(
    client: DirectoryClient, ticker: str, code: str = "", ask_sec: bool = True
) -> Issuer:
    """The issuer a ticker names: CIK and name from SEC, stock code from HKEx (``code`` when
    given, checked against the list). Without ``ask_sec`` SEC is not asked (an HKEx-only
    issuer: its name is HKEx's). Refused when neither list knows it."""
    found = sec_company(client.company_tickers(), ticker) if ask_sec else None
    stocks = client.active_stocks()
    name = found[1] if found else ""
    if code:
        code = code.strip().zfill(5)
        listed = [s for s in stocks if str(s["c"]).zfill(5) == code]
        if not listed:
            raise ConfigError(f"HKEx stock code {code} is not in HKEx's active stock list")
        name = name or str(listed[0].get("n", ticker))
    elif found:
        code = hkex_code(stocks, name)
    if not (found or code):
        raise ConfigError(
            f"{ticker.upper()} is not in SEC's company tickers file; pass --hkex CODE"
        )
    return Issuer(ticker.strip().upper(), name, found[0] if found else "", code)


class HttpDirectory:
    """SEC's company tickers file and HKEx's active stock list, over HTTP."""

    def __init__(self, sec_http: HttpClient, archives_url: str, hkex: HttpHkexClient) -> None:
        self._http, self._archives_url, self._hkex = sec_http, archives_url, hkex

    def company_tickers(self) -> Mapping[str, Any]:
        """SEC's ``files/company_tickers.json`` (index -> cik_str, ticker, title)."""
        response = self._http.get(urls.sec_company_tickers(self._archives_url))
        try:
            data = json.loads(response.content)
        except ValueError:
            raise ParseError(f"{response.url}: not JSON") from None
        if not isinstance(data, Mapping):
            raise ParseError(f"{response.url}: JSON is not an object")
        return data

    def active_stocks(self) -> Sequence[Mapping[str, Any]]:
        """HKEx's active stock list."""
        return self._hkex.active_stocks()
