"""A loopback HTTP server that answers like SEC EDGAR and HKEXnews from a recorded archive.

``filings run --source replay`` and the tests point the production clients at it through the
base-URL settings, so the same client code runs against it as against the real sites. It keeps
a request log and can inject faults (status codes, dropped connections, truncated bodies,
stalls past the client's timeout). With ``sec_rate_limit`` it enforces SEC's fair-access rule
like SEC does: past N requests in one second it answers 403 "Request Rate Threshold Exceeded"
to every SEC request for ``block_seconds`` (on the server's clock, which tests may replace).
"""

from __future__ import annotations

import json
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime
from email.utils import formatdate, parsedate_to_datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from domain.enums import SourceName
from tasks.sources import replay_faults, replay_feeds
from tasks.sources.replay_throttle import SEC_PREFIXES, SecThrottle

LAST_MODIFIED = formatdate(1_710_000_000, usegmt=True)
NO_SUCH_KEY = b'<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>NoSuchKey</Code></Error>'
ACCESS_DENIED = b'<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code></Error>'
RATE_BLOCK = (
    b"<html><body><h1>Your Request Originates from an Undeclared Automated Tool</h1>"
    b"<p>Request Rate Threshold Exceeded</p></body></html>"
)


@dataclass(frozen=True, slots=True)
class Answer:
    """One HTTP answer, or a fault played on the wire (``drop``, ``truncate``, ``stall``,
    ``stall_body``, ``drip``, ``chunked``, ``drop_mid_body``: see ``replay_faults``)."""

    status: int
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)
    fault: str = ""
    delay: float = 0.0


@dataclass(frozen=True, slots=True)
class LoggedRequest:
    """A request the server saw, for tests that count requests."""

    at: float
    path: str
    status: int
    fault: str = ""  # the injected fault it was answered with, if any


class ReplayArchive:
    """Maps request paths to the recorded files under ``root``."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._feeds: dict[str, Any] = {}  # listings built from the archive, by its mtimes

    def answer(self, path: str, query: dict[str, str], headers: dict[str, str]) -> Answer:
        """The answer SEC or HKEx would give for this request."""
        routes: list[tuple[str, Callable[[str, dict[str, str], dict[str, str]], Answer]]] = [
            ("/submissions/", self._submissions),
            ("/api/xbrl/companyfacts/", self._company_facts),
            ("/Archives/edgar/data/", self._archives),
            ("/cgi-bin/browse-edgar", self._atom),
            ("/files/company_tickers.json", self._company_tickers),
            ("/ncms/script/eds/", self._stock_list),
            ("/ncms/json/eds/", self._latest_listing),
            ("/search/prefix.do", self._prefix),
            ("/search/titleSearchServlet.do", self._title_search),
            ("/listedco/", self._hkex_document),
        ]
        for prefix, handler in routes:
            if path.startswith(prefix):
                return handler(path, query, headers)
        return Answer(404, b"not found")

    def _submissions(self, path: str, query: dict[str, str], headers: dict[str, str]) -> Answer:
        name = path.rsplit("/", 1)[-1]
        for found in sorted(self.root.glob(f"{SourceName.SEC}/*/submissions/{name}")):
            return _json_answer(found.read_bytes())
        return Answer(404, NO_SUCH_KEY, {"Content-Type": "application/xml"})

    def _company_facts(self, path: str, query: dict[str, str], headers: dict[str, str]) -> Answer:
        name = path.rsplit("/", 1)[-1]  # CIK##########.json
        found = self.root / SourceName.SEC / name[3:13] / "companyfacts" / name
        if found.is_file():
            return _json_answer(found.read_bytes())
        return Answer(404, NO_SUCH_KEY, {"Content-Type": "application/xml"})

    def _archives(self, path: str, query: dict[str, str], headers: dict[str, str]) -> Answer:
        parts = path.split("/")  # '', Archives, edgar, data, cik, acc, file
        if len(parts) < 7:
            return Answer(403, ACCESS_DENIED, {"Content-Type": "application/xml"})
        cik, folder, name = parts[4].zfill(10), parts[5], parts[6]
        for acc_dir in (self.root / SourceName.SEC / cik).glob("*-*-*"):
            if acc_dir.name.replace("-", "") == folder and (acc_dir / name).is_file():
                return _archive_file(acc_dir / name, headers)
        return Answer(403, ACCESS_DENIED, {"Content-Type": "application/xml"})

    def _atom(self, path: str, query: dict[str, str], headers: dict[str, str]) -> Answer:
        feed = self.root / SourceName.SEC / "getcurrent_6k.atom"  # a recorded feed wins
        body = (
            feed.read_bytes() if feed.is_file() else replay_feeds.atom_feed(self.root, self._feeds)
        )
        return Answer(200, body, {"Content-Type": "application/atom+xml"})

    def _latest_listing(self, path: str, query: dict[str, str], headers: dict[str, str]) -> Answer:
        if not path.endswith("_1.json"):  # one page: the newest rows
            return Answer(404, b"<html><body>404 Not Found</body></html>")
        return _json_answer(replay_feeds.latest_listing(self.root, self._feeds))

    def _company_tickers(self, path: str, query: dict[str, str], headers: dict[str, str]) -> Answer:
        found = self.root / SourceName.SEC / "company_tickers.json"
        return _json_answer(found.read_bytes()) if found.is_file() else Answer(404, b"")

    def _stock_list(self, path: str, query: dict[str, str], headers: dict[str, str]) -> Answer:
        found = self.root / SourceName.HKEX / path.rsplit("/", 1)[-1]
        if not found.is_file():
            return Answer(404, b"")
        return _json_answer(found.read_bytes())

    def _prefix(self, path: str, query: dict[str, str], headers: dict[str, str]) -> Answer:
        stocks = json.loads((self.root / SourceName.HKEX / "activestock_sehk_e.json").read_text())
        name = query.get("name", "")
        hits = [
            {"stockId": s["i"], "code": s["c"], "name": s["n"]}
            for s in stocks
            if str(s["c"]).startswith(name)
        ]
        body = "callback(" + json.dumps({"more": "0", "stockInfo": hits}) + ");"
        return Answer(200, body.encode(), {"Content-Type": "text/javascript"})

    def _title_search(self, path: str, query: dict[str, str], headers: dict[str, str]) -> Answer:
        start = datetime.strptime(query["fromDate"], "%Y%m%d").date()
        end = datetime.strptime(query["toDate"], "%Y%m%d").date()
        row_range = min(int(query.get("rowRange", "100")), 10_000)
        rows = self._rows_for(int(query["stockId"]))
        if (end - start).days > 366:  # HKEx silently answers nothing past 12 months
            rows = []
        hits = [r for r in rows if start <= _row_date(r) <= end]
        hits.sort(key=lambda r: datetime.strptime(r["DATE_TIME"], "%d/%m/%Y %H:%M"), reverse=True)
        page = hits[:row_range]
        envelope = {
            "result": json.dumps(page) if page else "null",
            "hasNextRow": len(hits) > row_range,
            "rowRange": row_range,
            "loadedRecord": len(page),
            "recordCnt": len(hits),
            "lang": "E",
        }
        return _json_answer(json.dumps(envelope).encode())

    def _rows_for(self, stock_id: int) -> list[dict[str, Any]]:
        stocks = json.loads((self.root / SourceName.HKEX / "activestock_sehk_e.json").read_text())
        codes = [str(s["c"]) for s in stocks if int(s["i"]) == stock_id]
        if (
            not codes
            or not (self.root / SourceName.HKEX / codes[0] / "titlesearch_rows.json").is_file()
        ):
            return []
        rows: list[dict[str, Any]] = json.loads(
            (self.root / SourceName.HKEX / codes[0] / "titlesearch_rows.json").read_text()
        )
        return rows

    def _hkex_document(self, path: str, query: dict[str, str], headers: dict[str, str]) -> Answer:
        stem = path.rsplit("/", 1)[-1].removesuffix(".pdf")
        named = [p.parent / "titlesearch_rows.json" for p in self.root.glob(f"hkex/*/{stem}.pdf")]
        everything = self.root.glob(f"{SourceName.HKEX}/*/titlesearch_rows.json")
        for rows_file in named or everything:  # a PDF named by its NEWS_ID: its folder only
            for row in json.loads(rows_file.read_text()):
                if row["FILE_LINK"] == path:
                    pdf = rows_file.parent / f"{row['NEWS_ID']}.pdf"
                    if pdf.is_file():
                        return Answer(200, pdf.read_bytes(), {"Content-Type": "application/pdf"})
        return Answer(404, b"<html><body>404 Not Found</body></html>")


def _row_date(row: dict[str, Any]) -> date:
    return datetime.strptime(row["DATE_TIME"], "%d/%m/%Y %H:%M").date()


def _json_answer(body: bytes) -> Answer:
    # data.sec.gov sends no validators: nothing to revalidate, clients diff by accession.
    return Answer(
        200, body, {"Content-Type": "application/json", "Cache-Control": "no-cache, no-store"}
    )


def _archive_file(path: Path, headers: dict[str, str]) -> Answer:
    since = headers.get("if-modified-since")
    if since and parsedate_to_datetime(since) >= parsedate_to_datetime(LAST_MODIFIED):
        return Answer(304, b"", {"Last-Modified": LAST_MODIFIED})
    kind = "application/pdf" if path.suffix == ".pdf" else "text/html"
    return Answer(
        200,
        path.read_bytes(),
        {
            "Content-Type": kind,
            "Last-Modified": LAST_MODIFIED,
            "ETag": f'"{path.stat().st_size:x}"',
        },
    )


class ReplayServer:
    """Serves a :class:`ReplayArchive` on 127.0.0.1; use as a context manager."""

    def __init__(
        self,
        root: Path,
        port: int = 0,
        sec_rate_limit: int | None = None,
        block_seconds: float = 600.0,
    ) -> None:
        self.archive = ReplayArchive(root)
        self.log: list[LoggedRequest] = []
        self._faults: list[tuple[str, list[Answer]]] = []
        self._lock = threading.Lock()
        self.throttle = SecThrottle(sec_rate_limit, block_seconds) if sec_rate_limit else None
        self._server = _QuietServer(("127.0.0.1", port), _handler_for(self))
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, args=(0.05,), daemon=True
        )

    @property
    def url(self) -> str:
        """Base URL to configure as every source's URL."""
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def inject(self, path_contains: str, *answers: Answer) -> None:
        """Answer the next requests whose path contains ``path_contains`` with ``answers``."""
        with self._lock:
            self._faults.append((path_contains, list(answers)))

    def next_fault(self, path: str) -> Answer | None:
        """Pop the first queued fault matching ``path`` (or the SEC block, when throttling)."""
        with self._lock:
            if self.throttle and path.startswith(SEC_PREFIXES) and not self.throttle.admit():
                return Answer(403, RATE_BLOCK, {"Content-Type": "text/html"})
            for needle, answers in self._faults:
                if needle in path and answers:
                    return answers.pop(0)
        return None

    def requests(self, path_contains: str = "") -> list[LoggedRequest]:
        """Logged requests whose path contains ``path_contains``."""
        with self._lock:
            return [r for r in self.log if path_contains in r.path]

    def record(self, path: str, status: int, fault: str = "") -> None:
        """Append to the request log."""
        with self._lock:
            self.log.append(LoggedRequest(time.monotonic(), path, status, fault))

    def __enter__(self) -> ReplayServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()


class _QuietServer(ThreadingHTTPServer):
    """A client that hangs up mid-answer (a fault test's timeout) is expected, not an error."""

    def handle_error(self, request: Any, client_address: Any) -> None:
        if isinstance(sys.exc_info()[1], ConnectionError | TimeoutError):
            return
        super().handle_error(request, client_address)


def _handler_for(server: ReplayServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:  # noqa: N802 - the stdlib's name
            split = urlsplit(self.path)
            query = {k: v[0] for k, v in parse_qs(split.query).items()}
            headers = {k.lower(): v for k, v in self.headers.items()}
            answer = server.next_fault(self.path) or server.archive.answer(
                split.path, query, headers
            )
            server.record(self.path, answer.status, answer.fault)
            self._send(answer)

        def _send(self, answer: Answer) -> None:
            replay_faults.send(self, answer)

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
            return  # the request log replaces stderr noise

    return Handler


def default_archive_root() -> Path:
    """The bundled replay archive: package data beside this module (``replay_archive/``)."""
    return Path(__file__).resolve().parent / "replay_archive"
