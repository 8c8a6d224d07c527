"""Configuration, read once at the edge (CLI or flow entry) from FILINGS_* variables.

Nothing here runs at import time; call :func:`load_settings`. Settings holding a secret are
parsed into :mod:`~tasks.config.secret_urls` types (they never print their credentials) and
a bad value is refused naming the setting and what is wrong, never quoting the value.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import date
from pathlib import Path
from typing import Any, Literal

from pydantic import AliasChoices, Field, ValidationError, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from domain.errors import ConfigError
from domain.records import Issuer
from tasks.config.issuers import DEFAULT_ISSUERS, read_issuers
from tasks.config.secret_urls import SmtpUrl, WebhookUrl, archive_problem, source_url, url_problem

_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
DATABASE_SCHEMES = ("postgresql", "postgresql+psycopg", "postgresql+psycopg2", "postgres")


class Settings(BaseSettings):
    """Every setting the pipeline reads; environment variables are FILINGS_<NAME>."""

    model_config = SettingsConfigDict(env_prefix="FILINGS_", frozen=True, extra="ignore")

    data_dir: Path = Field(Path("data"), description="Where the embedded default keeps its files.")
    database_url: str = Field(
        "", repr=False, description="SQLAlchemy URL; default a SQLite file in data_dir."
    )
    archive_url: str = Field("", description="Raw archive root: a folder or any fsspec URL.")
    replay_database_url: str = Field(
        "",
        repr=False,
        description="The warehouse replay runs use; default data_dir/replay/warehouse.sqlite.",
    )
    data_docs_dir: Path | None = Field(
        None, description="Where GX Data Docs are built; default data_dir/data_docs."
    )
    data_docs_url: str = Field(
        "", description="Where data_docs_dir is served (http/https); links point there."
    )
    catalog_dir: Path | None = Field(
        None, description="Label catalog overlays <ticker>.toml, read before the package's."
    )
    data_docs_keep_days: int = Field(
        90, ge=0, description="Run sites older than this are deleted; 0 keeps every site."
    )
    sec_data_url: str = "https://data.sec.gov"
    sec_archives_url: str = "https://www.sec.gov"
    hkex_url: str = "https://www1.hkexnews.hk"
    sec_user_agent: str = Field("", description='Declared to SEC: "Company contact@domain".')
    sec_max_requests_per_second: float = Field(10.0, gt=0, le=10)
    hkex_seconds_between_requests: float = Field(1.0, ge=0)
    hkex_language: str = Field("en", pattern="^(en|zh)$")
    # Sources (issue 3): SEC limiter, rate-block pause, listing overlap, Atom fast path.
    sec_limiter: Literal["auto", "local", "prefect"] = "auto"
    sec_rate_limit_name: str = "sec-requests"
    sec_pause_minutes: float = Field(10.0, ge=10, description="SEC blocks for ~10 minutes.")
    sec_latest_feed: bool = Field(False, description="Also read EDGAR's latest-filings feed.")
    hkex_overlap_days: int = Field(7, ge=0, description="Days a title search re-lists.")
    prefect_api_url: str = Field(
        "", validation_alias=AliasChoices("prefect_api_url", "PREFECT_API_URL")
    )
    warm_workers: bool = Field(
        False,
        description="Ingest runs hand their documents to task workers (python -m flows.warm).",
    )
    http_timeout_seconds: float = Field(30.0, gt=0)
    sqlite_busy_timeout_seconds: float = Field(
        30.0, gt=0, description="How long a run waits for a SQLite warehouse another holds."
    )
    http_max_megabytes: float = Field(64.0, gt=0, description="Largest body read (MiB).")
    http_deadline_seconds: float = Field(300.0, gt=0, description="Longest one request takes.")
    http_max_retry_after_seconds: float = Field(
        120.0,
        ge=0,
        le=3600,
        description="Longest Retry-After a run waits; longer pauses the source.",
    )
    max_pause_minutes: float = Field(
        60.0,
        ge=10,
        description="Longest a source is paused, whatever its Retry-After asks (SEC's block: 10).",
    )
    since: date = Field(date(2024, 1, 1), description="Earliest filing date a first run fetches.")
    issuers_file: Path | None = None
    smtp_url: SmtpUrl | None = None
    alert_email_to: str = ""
    alert_email_from: str = "filings-pipeline@localhost"
    alert_digest: bool = Field(
        True, description="One message per run per channel; false: one per alert."
    )
    webhook_url: WebhookUrl | None = None
    slack_webhook_url: WebhookUrl | None = None
    # Names of Prefect Secret blocks; when set they win over the variables above.
    smtp_url_block: str = Field("", description="Prefect Secret block holding FILINGS_SMTP_URL.")
    smtp_password_block: str = Field("", description="Secret block with the SMTP password.")
    webhook_url_block: str = Field("", description="Secret block with the JSON webhook URL.")
    slack_webhook_url_block: str = Field("", description="Secret block with the Slack URL.")

    @field_validator("sec_data_url", "sec_archives_url", "hkex_url")
    @classmethod
    def _http_url(cls, value: str) -> str:
        return source_url(value)

    @field_validator("sec_user_agent")
    @classmethod
    def _one_header_line(cls, value: str) -> str:
        if _CONTROL.search(value):
            raise ValueError("holds a line break or control character (one header line)")
        return value.strip()

    @field_validator("archive_url")
    @classmethod
    def _archive_url(cls, value: str) -> str:
        problem = archive_problem(value)
        if problem:
            raise ValueError(problem)
        return value

    @field_validator("smtp_url", "webhook_url", "slack_webhook_url", mode="before")
    @classmethod
    def _unset_when_empty(cls, value: object) -> object:
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("database_url", "replay_database_url")
    @classmethod
    def _database_url(cls, value: str) -> str:
        if value and not value.startswith("sqlite"):
            problem = url_problem(value, DATABASE_SCHEMES, need_host=False)
            if problem:
                raise ValueError(problem)
        return value

    @field_validator("data_docs_url")
    @classmethod
    def _optional_http_url(cls, value: str) -> str:
        return source_url(value) if value.strip() else ""

    @property
    def warehouse_url(self) -> str:
        """The configured database URL, or the embedded SQLite default."""
        if self.database_url:
            return self.database_url
        return f"sqlite:///{(self.data_dir / 'warehouse.sqlite').resolve()}"

    @property
    def data_docs_path(self) -> Path:
        """Folder of the Great Expectations Data Docs site (index.html at its top)."""
        return (self.data_docs_dir or self.data_dir / "data_docs").resolve()

    @property
    def archive_root(self) -> str:
        """Where fetched documents are stored, content-addressed."""
        return self.archive_url or str((self.data_dir / "archive").resolve())

    @property
    def issuers_path(self) -> Path:
        """The issuers file: FILINGS_ISSUERS_FILE, else ``DATA_DIR/issuers.toml``."""
        return self.issuers_file or self.data_dir / "issuers.toml"

    def issuers(self) -> tuple[Issuer, ...]:
        """Configured issuers: the issuers file if set or present, else the embedded default
        (QFIN)."""
        if self.issuers_file is None and not self.issuers_path.is_file():
            return DEFAULT_ISSUERS
        return read_issuers(self.issuers_path)


# Settings a caller set for the flows it runs in this process, over the environment's (the
# CLI's replay runs: their archive server, warehouse and folders). A context, not the
# environment: it follows the flow into the threads Prefect and the fetch stage start.
_SCOPED: ContextVar[tuple[tuple[str, Any], ...]] = ContextVar("filings_settings", default=())


@contextmanager
def settings_scope(**values: Any) -> Iterator[None]:
    """Within the block (and the threads started from it), :func:`load_settings` reads
    ``values`` (field names: ``database_url=...``) over the environment's."""
    token = _SCOPED.set((*_SCOPED.get(), *values.items()))
    try:
        yield
    finally:
        _SCOPED.reset(token)


def load_settings(**overrides: Any) -> Settings:
    """Read settings from the environment (under the block's :func:`settings_scope`); raise
    ConfigError with one line on bad values."""
    try:
        return Settings(**{**dict(_SCOPED.get()), **overrides})
    except ValidationError as exc:
        first = exc.errors()[0]
        where = "FILINGS_" + str(first["loc"][0]).upper() if first["loc"] else "settings"
        # pydantic's words for the problem (never the value); a validator's without its prefix
        raise ConfigError(f"{where}: {first['msg'].removeprefix('Value error, ')}") from None


def require_live_ready(settings: Settings) -> None:
    """A live SEC run must declare who it is (SEC fair-access policy)."""
    if "@" not in settings.sec_user_agent or " " not in settings.sec_user_agent.strip():
        raise ConfigError(
            'FILINGS_SEC_USER_AGENT is required for live runs: set it to "Company contact@domain"'
        )


def sqlite_file(url: str) -> Path | None:
    """The file of a ``sqlite:///`` warehouse URL, also of a URI one (``sqlite:///file:w.db?
    mode=ro&uri=true``); None for other databases or in-memory."""
    if not url.startswith("sqlite:///"):
        return None
    name = url.removeprefix("sqlite:///")
    if name.startswith("file:"):
        name = name.removeprefix("file:").partition("?")[0]
    return None if not name or name.startswith(":memory:") else Path(name)


# FILINGS_* variables read elsewhere than the settings: the test suite's, the fault and fuzz
# scripts', the demo stack's for its worker, and the pacer's folder of old
_NOT_SETTINGS = frozenset(
    {
        "FILINGS_TEST_POSTGRES_URL",
        "FILINGS_REQUIRE_SERVICES",
        "FILINGS_FAULT_SEEDS",
        "FILINGS_FAULT_CONCURRENCY",
        "FILINGS_FUZZ_CASES",
        "FILINGS_PROJECT_DIR",
        "FILINGS_RUNTIME_DIR",
    }
)


def unknown_variables(environ: Mapping[str, str]) -> list[str]:
    """One line per ``FILINGS_*`` variable no setting reads (a misspelt one would otherwise be
    ignored without a word), naming the setting it is closest to."""
    known = sorted(f"FILINGS_{name.upper()}" for name in Settings.model_fields)
    lines = []
    for name in sorted(environ):
        if not name.startswith("FILINGS_") or name in known or name in _NOT_SETTINGS:
            continue
        close = difflib.get_close_matches(name, known, n=1, cutoff=0.8)
        meant = f" (did you mean {close[0]}?)" if close else ""
        lines.append(f"{name} is not a setting{meant}; ignored (docs/operator.md, Configuration)")
    return lines
