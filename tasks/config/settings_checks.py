"""Settings checked before anything starts: the alert channels' URLs and addresses, and the
warehouse reachable, each mistake one line naming the setting (never a secret's text).

Without these, ``FILINGS_SMTP_URL=mailhost:25`` ran 41 s before failing at delivery, SMTP set
without recipients sent nothing with exit 0, and an unreachable PostgreSQL was reported after
two minutes, once Prefect had started.
"""

from __future__ import annotations

import os
from email.utils import getaddresses
from pathlib import Path

from domain.errors import ConfigError
from tasks.config.settings import Settings

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


def check_writable(setting: str, path: Path, what: str) -> None:
    """``path`` (a folder or a file) may be written by this user; one line otherwise (a run
    writes its warehouse, raw archive and Data Docs: refused before Prefect starts)."""
    if not os.access(path, os.W_OK):
        raise ConfigError(
            f"{setting}: {what} {path} is read-only for this user; reading commands (status, "
            "export, report) work on it, a run needs it writable"
        )


def check_data_folder(settings: Settings) -> None:
    """The data folder and the local raw archive, where they exist, may be written."""
    if settings.data_dir.exists():
        check_writable("FILINGS_DATA_DIR", settings.data_dir, "the data folder")
    archive = Path(settings.archive_root)
    if "://" not in settings.archive_root and archive.exists():
        check_writable("FILINGS_ARCHIVE_URL", archive, "the raw archive")


def check_archive(settings: Settings) -> None:
    """The raw archive's storage can be used by this installation: an ``sftp://`` URL without
    paramiko installed was refused only once Prefect had started."""
    root = settings.archive_root
    if "://" not in root:
        return
    protocol = root.partition("://")[0].rpartition("::")[2].lower()
    # deferred for start-up speed: fsspec, only for a URL
    import fsspec

    try:
        fsspec.get_filesystem_class(protocol)
    except (ImportError, ValueError):
        raise ConfigError(
            f"FILINGS_ARCHIVE_URL: {protocol}:// is not a storage this installation can use "
            "(a folder, file://, memory://, or an fsspec filesystem whose package is installed,"
            " e.g. s3fs for s3://)"
        ) from None


def check_database(
    url: str, setting: str = "FILINGS_DATABASE_URL", timeout: int = DATABASE_TIMEOUT_SECONDS
) -> None:
    """The warehouse's server answers and its database exists, within ``timeout`` seconds; a
    SQLite file's folder can be created. One line naming ``table_setting`` otherwise."""
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
        path = Path(parsed.database or "").expanduser()
        if parsed.database and not parsed.database.startswith(("file:", ":memory:")):
            check_writable(setting, path.parent, "the SQLite warehouse's folder")
            if path.exists():
                check_writable(setting, path, "the SQLite warehouse")
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
