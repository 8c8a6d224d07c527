"""Settings checked before anything starts: the alert channels' URLs and addresses, and the
warehouse reachable, each mistake one line naming the setting (never a secret's text).

Without these, ``FILINGS_SMTP_URL=mailhost:25`` ran 41 s before failing at delivery, SMTP set
without recipients sent nothing with exit 0, and an unreachable PostgreSQL was reported after
two minutes, once Prefect had started.
"""

from __future__ import annotations

from email.utils import getaddresses

from tasks.config.settings import Settings
from tasks.core.errors import ConfigError

DATABASE_TIMEOUT_SECONDS = 3


def check_channels(settings: Settings) -> None:
    """Every configured alert channel can be used as set: its addresses present. Its URL was
    checked when the settings were read (:mod:`tasks.config.secret_urls`); URLs held in
    Prefect Secret blocks are checked when read."""
    smtp = settings.smtp_url is not None or bool(settings.smtp_url_block)
    if smtp and not settings.alert_email_to:
        raise ConfigError(
            "FILINGS_ALERT_EMAIL_TO: required when FILINGS_SMTP_URL is set (whom to e-mail)"
        )
    if settings.alert_email_to and not smtp:
        raise ConfigError("FILINGS_ALERT_EMAIL_TO is set but FILINGS_SMTP_URL is not: set both")
    if settings.alert_email_to:
        _check_addresses("FILINGS_ALERT_EMAIL_TO", settings.alert_email_to)
        _check_addresses("FILINGS_ALERT_EMAIL_FROM", settings.alert_email_from)


def _check_addresses(name: str, value: str) -> None:
    addresses = [a for _, a in getaddresses([value])]
    if not addresses or any(
        "@" not in a or a.startswith("@") or a.endswith("@") for a in addresses
    ):
        raise ConfigError(f"{name}: not a list of e-mail addresses (name@domain, comma-separated)")


def check_database(
    url: str, setting: str = "FILINGS_DATABASE_URL", timeout: int = DATABASE_TIMEOUT_SECONDS
) -> None:
    """The warehouse's server answers and its database exists, within ``timeout`` seconds; a
    SQLite file's folder can be created. One line naming ``setting`` otherwise."""
    # deferred for start-up speed: SQLAlchemy, only once the cheap checks passed
    from sqlalchemy.exc import ArgumentError, SQLAlchemyError

    from storage.db import connection_problem, make_engine, normalize_url

    try:
        parsed = normalize_url(url)
    except ArgumentError:
        raise ConfigError(f"{setting}: not a SQLAlchemy database URL") from None
    if parsed.get_backend_name() == "sqlite":
        try:
            make_engine(parsed).dispose()  # creates the file's folder, opens nothing yet
        except OSError as exc:
            where = f" ({exc.filename})" if exc.filename else ""
            raise ConfigError(
                f"{setting}: cannot create the SQLite file's folder{where}: {exc.strerror or exc}"
            ) from None
        return
    engine = make_engine(parsed, connect_args={"connect_timeout": timeout})
    try:
        with engine.connect() as conn:
            conn.exec_driver_sql("SELECT 1")
    except SQLAlchemyError as exc:
        problem = connection_problem(exc, parsed, timeout)
        raise ConfigError(f"{setting}: {problem}") from None
    finally:
        engine.dispose()
