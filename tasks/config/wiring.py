"""What a run is built from its settings: the warehouse, the raw archive, and the sources.

The source registry is here, keyed by :class:`~domain.enums.SourceName`: the one place that
decides which class serves a source. Adding a source is one module in ``tasks/sources`` (a
:class:`~tasks.sources.protocol.Source`) and one entry in :data:`REGISTRY` (plus its settings).

SEC allows 10 requests per second per user. A file pacer in the user's runtime folder
(:mod:`tasks.config.runtime`) covers every task, thread and process of the user on the
machine, whatever their environment, data folder or spelling of the host; HKEx's spacing is
shared the same way. Where a Prefect
server is configured (``PREFECT_API_URL``, or ``FILINGS_SEC_LIMITER=prefect``) a Prefect
global concurrency limit with slot decay is taken first, for every flow run on that server.
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlsplit

import requests
from sqlalchemy.engine import Engine

from domain.enums import SourceName
from domain.errors import ConfigError
from storage import db
from tasks.config.runtime import pacer_file
from tasks.config.secret_urls import BaseAuth
from tasks.config.settings import Settings, require_live_ready
from tasks.sources.archive import RawArchive
from tasks.sources.directory import HttpDirectory
from tasks.sources.edgar_source import EdgarSource, HttpEdgarClient
from tasks.sources.hkex_source import HkexSource, HttpHkexClient
from tasks.sources.http import HttpClient, Limiter, PrefectRateLimiter, RateLimiter
from tasks.sources.local import LocalFiles
from tasks.sources.pacer import Chained, FilePacer
from tasks.sources.protocol import Source, Sources

REPLAY_USER_AGENT = "filings-pipeline replay@localhost"


def warehouse(settings: Settings) -> Engine:
    """An engine on the configured warehouse, migrated to the current schema."""
    return db.open_warehouse(
        settings.warehouse_url, busy_timeout_ms=int(settings.sqlite_busy_timeout_seconds * 1000)
    )


def raw_archive(settings: Settings) -> RawArchive:
    """The raw archive fetched documents are stored in."""
    return RawArchive(settings.archive_root)


def sec_limiter(settings: Settings) -> Limiter:
    """The limiter SEC requests share: the user's file pacer for SEC's host (every thread and
    process of the user, whatever the data folder), behind Prefect's global limit when a
    server is used."""
    rate = settings.sec_max_requests_per_second
    mode = settings.sec_limiter
    if mode == "auto":
        mode = "prefect" if settings.prefect_api_url else "local"
    # Whole requests per rolling second: 10/s allows 10 in any second, never 11.
    pacer = FilePacer(pacer_file("sec", settings.sec_archives_url), max(1, int(rate)))
    if mode == "prefect":
        limiter = PrefectRateLimiter(settings.sec_rate_limit_name, rate)
        limiter.ensure()
        return Chained(limiter, pacer)
    return pacer


def hkex_limiter(settings: Settings) -> Limiter:
    """HKEx's spacing, shared by every client, thread and process of the user: a request starts
    at least the setting's seconds after the previous one started and was answered."""
    interval = settings.hkex_seconds_between_requests
    if interval <= 0:
        return RateLimiter(0)
    return FilePacer(pacer_file("hkex", settings.hkex_url), 1, window=interval)


def _loopback(url: str) -> bool:
    return (urlsplit(url).hostname or "") in ("127.0.0.1", "localhost", "::1")


def directory(settings: Settings) -> HttpDirectory:
    """SEC's company tickers file and HKEx's stock list, where the settings point."""
    hkex_http = _http(settings, hkex_limiter(settings), (settings.hkex_url,))
    sec_http = _http(settings, sec_limiter(settings), (settings.sec_archives_url,))
    hkex = HttpHkexClient(hkex_http, settings.hkex_url)
    return HttpDirectory(sec_http, settings.sec_archives_url, hkex)


def _edgar(settings: Settings) -> EdgarSource:
    """SEC requests to anything but the loopback replay server need a declared User-Agent,
    however the run was started (CLI, deployment, UI): without one the source refuses to be
    asked anything (local ingestion still works)."""
    missing = ""
    if not (_loopback(settings.sec_data_url) and _loopback(settings.sec_archives_url)):
        try:
            require_live_ready(settings)
        except ConfigError as exc:
            missing = str(exc)
    http = _http(
        settings, sec_limiter(settings), (settings.sec_data_url, settings.sec_archives_url)
    )
    client = HttpEdgarClient(http, settings.sec_data_url, settings.sec_archives_url)
    return EdgarSource(client, latest_feed=settings.sec_latest_feed, missing_identity=missing)


def _hkex(settings: Settings) -> HkexSource:
    http = _http(settings, hkex_limiter(settings), (settings.hkex_url,))
    client = HttpHkexClient(http, settings.hkex_url)
    return HkexSource(
        client, language=settings.hkex_language, overlap_days=settings.hkex_overlap_days
    )


def _http(settings: Settings, limiter: Limiter, bases: tuple[str, ...]) -> HttpClient:
    """A source's HTTP client: its pace, its base URLs (their user names and passwords sent as
    basic auth, never in a URL), and the run's transfer bounds."""
    session = requests.Session()
    session.auth = BaseAuth(bases)
    return HttpClient(
        user_agent=settings.sec_user_agent or REPLAY_USER_AGENT,
        limiter=limiter,
        session=session,
        timeout=settings.http_timeout_seconds,
        bases=bases,
        max_bytes=int(settings.http_max_megabytes * 1024 * 1024),
        deadline=settings.http_deadline_seconds,
        max_retry_after=settings.http_max_retry_after_seconds,
    )


def _local(settings: Settings) -> LocalFiles:
    return LocalFiles()


# The source registry: each source's builder, in the order a pass lists them.
REGISTRY: dict[SourceName, Callable[[Settings], Source]] = {
    SourceName.SEC: _edgar,
    SourceName.HKEX: _hkex,
    SourceName.LOCAL: _local,
}


def build_sources(settings: Settings) -> Sources:
    """Every registered source, each with its own client and pace."""
    return Sources(
        {name: build(settings) for name, build in REGISTRY.items()},
        pause_minutes=settings.sec_pause_minutes,
        max_pause_minutes=settings.max_pause_minutes,
    )
