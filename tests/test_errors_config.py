"""Status classification, configuration and the rate limiter."""

import pytest

from domain.errors import (
    ConfigError,
    FatalTransportError,
    NotFoundError,
    RateLimitedError,
    RetriableTransportError,
    classify_status,
)
from tasks.config.settings import load_settings, require_live_ready
from tasks.sources.http import RateLimiter


@pytest.mark.parametrize(
    ("status", "body", "kind"),
    [
        (200, "", type(None)),
        (304, "", type(None)),
        (429, "", RetriableTransportError),
        (503, "", RetriableTransportError),
        (403, "<p>Request Rate Threshold Exceeded</p>", RateLimitedError),
        (403, "<Error><Code>AccessDenied</Code></Error>", NotFoundError),
        (404, "<Error><Code>NoSuchKey</Code></Error>", NotFoundError),
        (400, "", FatalTransportError),
        (401, "", FatalTransportError),
    ],
)
def test_classify_status(status, body, kind):
    assert type(classify_status(status, body, url="u")) is kind


def test_rate_block_asks_for_a_ten_minute_pause():
    error = classify_status(403, "Request Rate Threshold Exceeded")
    assert isinstance(error, RateLimitedError) and error.pause_seconds >= 600


def test_bad_url_setting_is_one_line_config_error(monkeypatch):
    monkeypatch.setenv("FILINGS_SEC_DATA_URL", "data.sec.gov")
    with pytest.raises(ConfigError) as info:
        load_settings()
    assert "FILINGS_SEC_DATA_URL" in str(info.value) and "\n" not in str(info.value)


def test_live_run_refuses_without_user_agent(monkeypatch):
    monkeypatch.delenv("FILINGS_SEC_USER_AGENT", raising=False)
    with pytest.raises(ConfigError, match="FILINGS_SEC_USER_AGENT"):
        require_live_ready(load_settings())


def test_live_run_accepts_declared_user_agent(monkeypatch):
    monkeypatch.setenv("FILINGS_SEC_USER_AGENT", "Acme Research data@acme.example")
    settings = load_settings()
    assert require_live_ready(settings) is None
    assert settings.sec_user_agent == "Acme Research data@acme.example"
    # the same name without its contact address is refused: the check decided, not passed by
    monkeypatch.setenv("FILINGS_SEC_USER_AGENT", "Acme Research")
    with pytest.raises(ConfigError, match="FILINGS_SEC_USER_AGENT"):
        require_live_ready(load_settings())


def test_default_warehouse_is_sqlite_under_data_dir(monkeypatch, tmp_path):
    monkeypatch.delenv("FILINGS_DATABASE_URL", raising=False)
    monkeypatch.setenv("FILINGS_DATA_DIR", str(tmp_path))
    assert load_settings().warehouse_url == f"sqlite:///{tmp_path}/warehouse.sqlite"


def test_secrets_do_not_print(monkeypatch):
    monkeypatch.setenv("FILINGS_WEBHOOK_URL", "https://hooks.example/T000/secret-token")
    assert "secret-token" not in repr(load_settings())


def test_rate_limiter_spaces_calls():
    now = [0.0]
    slept = []

    def sleep(seconds):
        slept.append(seconds)
        now[0] += seconds

    limiter = RateLimiter(0.1, clock=lambda: now[0], sleep=sleep)
    for _ in range(11):
        limiter.acquire()
    assert now[0] == pytest.approx(1.0)
    assert len(slept) == 10
