"""The clients of one run, built once at the edge from settings, with their pace.

SEC allows 10 requests per second per user. On the embedded default one process-wide limiter
covers every task and thread of the run; where a Prefect server is configured
(``PREFECT_API_URL``, or ``FILINGS_SEC_LIMITER=prefect``) a Prefect global concurrency limit
with slot decay covers every flow run that uses that server.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

from tasks.config import Settings, require_live_ready
from tasks.core.errors import ConfigError
from tasks.http import HttpClient, Limiter, PrefectRateLimiter, RateLimiter, shared_limiter
from tasks.sources import edgar, hkex

REPLAY_USER_AGENT = "filings-pipeline replay@localhost"


@dataclass(frozen=True, slots=True)
class Sources:
    """The clients of one run and the source settings the fetch stage needs."""

    edgar: edgar.HttpEdgarClient
    hkex: hkex.HttpHkexClient
    sec_archives_url: str
    hkex_url: str
    hkex_language: str
    pause_minutes: float = 10.0
    sec_latest_feed: bool = False
    hkex_overlap_days: int = 7
    missing_identity: str = ""  # why SEC must not be asked (no User-Agent for a live run)


def sec_limiter(settings: Settings) -> Limiter:
    """The limiter SEC requests share: Prefect's global limit on a server, else in-process."""
    rate = settings.sec_max_requests_per_second
    mode = settings.sec_limiter
    if mode == "auto":
        mode = "prefect" if settings.prefect_api_url else "local"
    if mode == "prefect":
        limiter = PrefectRateLimiter(settings.sec_rate_limit_name, rate)
        limiter.ensure()
        return limiter
    # Whole requests per rolling second: 10/s allows 10 in any second, never 11.
    return shared_limiter("sec", max(1, int(rate)))


def _loopback(url: str) -> bool:
    return (urlsplit(url).hostname or "") in ("127.0.0.1", "localhost", "::1")


def build_sources(settings: Settings) -> Sources:
    """HTTP clients for both sources, each with its own pace.

    SEC requests to anything but the loopback replay server need a declared User-Agent, however
    the run was started (CLI, deployment, UI): without one, ``missing_identity`` says why and
    the fetch stage refuses to ask SEC anything (local ingestion still works).
    """
    missing = ""
    if not (_loopback(settings.sec_data_url) and _loopback(settings.sec_archives_url)):
        try:
            require_live_ready(settings)
        except ConfigError as exc:
            missing = str(exc)
    agent = settings.sec_user_agent or REPLAY_USER_AGENT
    sec_http = HttpClient(
        user_agent=agent, limiter=sec_limiter(settings), timeout=settings.http_timeout_seconds
    )
    hkex_http = HttpClient(
        user_agent=agent,
        limiter=RateLimiter(settings.hkex_seconds_between_requests),
        timeout=settings.http_timeout_seconds,
    )
    return Sources(
        edgar=edgar.HttpEdgarClient(sec_http, settings.sec_data_url, settings.sec_archives_url),
        hkex=hkex.HttpHkexClient(hkex_http, settings.hkex_url),
        sec_archives_url=settings.sec_archives_url,
        hkex_url=settings.hkex_url,
        hkex_language=settings.hkex_language,
        pause_minutes=settings.sec_pause_minutes,
        sec_latest_feed=settings.sec_latest_feed,
        hkex_overlap_days=settings.hkex_overlap_days,
        missing_identity=missing,
    )
