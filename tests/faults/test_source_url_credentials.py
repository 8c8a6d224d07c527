"""A user name and password in a URL setting are a secret (issue 34, item 3).

An outside probe found a malformed ``FILINGS_SEC_DATA_URL``, ``FILINGS_HKEX_URL`` or
``FILINGS_DATA_DOCS_URL`` quoted whole in the error, password included, and with a valid
``http://user:pass@mirror/`` source URL every source failure printed it and stored it in the
``runs`` and ``documents`` tables and in Prefect's database. Now the URL a run uses is the
setting without its userinfo, which goes as basic auth to the server it belongs to.
"""

from __future__ import annotations

import pytest
import requests
from prefect.client.orchestration import get_client
from sqlalchemy import text

from domain.errors import ConfigError
from flows.ingest import ingest
from storage import db
from storage.schema import TABLES
from tasks.config.secret_urls import BaseAuth, SourceUrl
from tasks.config.settings import load_settings
from tasks.sources.replay import Answer, ReplayServer, default_archive_root

SECRET = "Pw-s3cr3t-77c1"
URL_SETTINGS = ("sec_data_url", "sec_archives_url", "hkex_url", "data_docs_url")
MALFORMED = (
    f"http://usr7q:{SECRET}@hst9z:port/",  # a port that is not a number
    f"ftp://usr7q:{SECRET}@hst9z/",  # another scheme
    f"http://usr7q:{SECRET}@hst9z/ x",  # a space
    f"http://usr7q:{SECRET}@hst9z:0/",  # port 0
    f"usr7q:{SECRET}@hst9z",  # no scheme
    f"http://usr7q:{SECRET}@hst9z\n/",  # a line break
)


@pytest.mark.parametrize("setting", URL_SETTINGS)
@pytest.mark.parametrize("value", MALFORMED)
def test_a_malformed_url_names_its_setting_never_its_text(setting, value):
    with pytest.raises(ConfigError) as caught:
        load_settings(**{setting: value})
    message = str(caught.value)
    assert message.startswith(f"FILINGS_{setting.upper()}: ")
    assert SECRET not in message and "usr7q" not in message and "hst9z" not in message


@pytest.mark.parametrize("setting", URL_SETTINGS)
def test_a_url_setting_holds_no_userinfo(setting):
    settings = load_settings(**{setting: f"https://mirror:{SECRET}@Mirror.example:8443/base/"})
    url = getattr(settings, setting)
    assert url == "https://Mirror.example:8443/base" and SECRET not in repr(settings)
    assert url.credentials == ("mirror", SECRET)


def test_the_credentials_go_as_basic_auth_to_their_server_only():
    auth = BaseAuth((SourceUrl(f"http://u%40x:{SECRET}@mirror.example/"),))
    mine = auth(requests.Request("GET", "http://mirror.example/a/b").prepare())
    other = auth(requests.Request("GET", "http://other.example/a").prepare())
    expected = requests.auth._basic_auth_str("u@x", SECRET)
    assert mine.headers["Authorization"] == expected and "Authorization" not in other.headers


@pytest.mark.parametrize(
    "value",
    [
        f"sftp://usr7q:{SECRET}@hst9z/archive",
        f"s3://key:{SECRET}@bucket/prefix",
        "file:///tmp/a\nb",
    ],
)
def test_an_archive_url_with_credentials_or_a_line_break_is_refused(value):
    with pytest.raises(ConfigError, match="^FILINGS_ARCHIVE_URL: ") as caught:
        load_settings(archive_url=value)
    assert SECRET not in str(caught.value)


def test_a_user_agent_of_two_header_lines_is_refused():
    with pytest.raises(ConfigError, match="^FILINGS_SEC_USER_AGENT: .*line break"):
        load_settings(sec_user_agent="Acme ops@acme.test\r\nX-Injected: 1")


def _warehouse_text(url: str) -> str:
    engine = db.make_engine(url)
    try:
        with engine.connect() as conn:
            rows = [conn.execute(text(f"select * from {t.name}")).all() for t in TABLES]
    finally:
        engine.dispose()
    return repr(rows)


def _prefect_text() -> str:
    with get_client(sync_client=True) as client:
        logs = [log.message for log in client.read_logs()]
        runs = client.read_flow_runs() + client.read_task_runs()
    return "\n".join(logs) + repr(runs)


@pytest.mark.usefixtures("prefect_api", "no_retry_delays")
def test_credentials_of_a_source_url_appear_nowhere(db_url, monkeypatch, tmp_path, capfd):
    monkeypatch.setenv("FILINGS_DATABASE_URL", db_url)
    monkeypatch.setenv("FILINGS_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("FILINGS_HKEX_SECONDS_BETWEEN_REQUESTS", "0")
    with ReplayServer(default_archive_root()) as server:
        host = server.url.removeprefix("http://")
        for name in ("FILINGS_SEC_DATA_URL", "FILINGS_SEC_ARCHIVES_URL", "FILINGS_HKEX_URL"):
            monkeypatch.setenv(name, f"http://mirror:{SECRET}@{host}/")
        # every source failing somewhere: a filing's files, HKEx's searches
        server.inject("0001104659-24-032436", *[Answer(500, b"down")] * 40)
        server.inject("titleSearchServlet", *[Answer(503, b"down")] * 40)
        summary = ingest()
        listed = len(server.requests())
    out, err = capfd.readouterr()
    assert not summary.ok and summary.failed and listed > 10  # failures, through the URLs
    written = {
        "summary": summary.render() + repr(summary),
        "stdout": out,
        "stderr": err,
        "warehouse": _warehouse_text(db_url),
        "prefect": _prefect_text(),
    }
    assert "127.0.0.1" in written["warehouse"]  # the URLs are stored, without their userinfo
    assert [where for where, content in written.items() if SECRET in content] == []
