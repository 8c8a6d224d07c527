"""A generated universe for the replay server: N issuers x Q quarters of results (test and
benchmark infrastructure; ``scripts/universe.py`` is its command line).

Every issuer is configuration (a generated ``issuers.toml``), never code: its documents are
the bundled archive's results releases (two 6-Ks with their exhibits, one HKEx results PDF)
filed again under its own CIK, accession numbers, stock code and NEWS ids, in the real shapes
(submissions JSON, filing index pages, title-search rows). :func:`publish` adds one quarter of
one issuer at any moment, atomically: the replay server's cross-issuer listings
(:mod:`tasks.sources.replay_feeds`) and per-issuer answers show it from the next request on.
"""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from domain.enums import SourceName
from tasks.sources.replay import default_archive_root

EASTERN = ZoneInfo("America/New_York")
HONG_KONG = ZoneInfo("Asia/Hong_Kong")
TEMPLATE_CIK = "0001741530"
TEMPLATE_CODE = "03660"
SEC_TEMPLATES = ("0001104659-24-032436", "0001104659-24-088431")  # results 6-Ks
HKEX_TEMPLATES = ("11480512",)  # the English results announcement
_COLUMNS = ("accessionNumber", "filingDate", "reportDate", "acceptanceDateTime", "form")
_MORE = ("primaryDocument", "primaryDocDescription")


@dataclass(frozen=True, slots=True)
class Member:
    """One issuer of the universe; the first is the bundled archive's own issuer (QFIN), so a
    universe always holds one issuer whose label catalog ships with the package."""

    index: int

    @property
    def ticker(self) -> str:
        return "QFIN" if self.index == 0 else f"U{self.index:04d}"

    @property
    def name(self) -> str:
        return "Qifu Technology, Inc." if self.index == 0 else f"Universe Issuer {self.index:04d}"

    @property
    def cik(self) -> str:
        return TEMPLATE_CIK if self.index == 0 else f"{9_000_000 + self.index:010d}"

    @property
    def hkex_code(self) -> str:
        return TEMPLATE_CODE if self.index == 0 else f"{10_000 + self.index:05d}"

    @property
    def stock_id(self) -> int:
        return 1_000_158_063 if self.index == 0 else 2_000_000_000 + self.index


def member_of(cik_or_code: str) -> Member:
    """The member a CIK or stock code belongs to."""
    number = int(cik_or_code)
    if number in (int(TEMPLATE_CIK), int(TEMPLATE_CODE)):
        return Member(0)
    return Member(number - (9_000_000 if number >= 9_000_000 else 10_000))


def build_universe(
    root: Path, issuers: int, quarters: int, first: datetime | None = None
) -> list[Member]:
    """Write a universe of ``issuers`` x ``quarters`` under ``root`` (plus ``issuers.toml``);
    quarter q of issuer i is published at ``first`` + q x 91 days + i minutes."""
    start = first or datetime(2024, 1, 15, 8, 0, tzinfo=UTC)
    members = [Member(i) for i in range(issuers)]
    _write_stock_list(root, members)
    lines = []
    for m in members:
        lines += ["[[issuer]]", f'ticker = "{m.ticker}"', f'name = "{m.name}"']
        lines += [f'cik = "{m.cik}"', f'hkex_code = "{m.hkex_code}"']
        # its documents are QFIN's filed again: they print QFIN's name, which is its alias
        lines += [] if m.index == 0 else ['aliases = ["Qifu Technology, Inc."]']
        lines += [""]
        _atomic_json(_submissions(root, m), _empty_submissions(m))
        _atomic_json(_rows_file(root, m), [])
        for q in range(quarters):
            publish(root, m, q, start + timedelta(days=91 * q, minutes=m.index))
    (root / "issuers.toml").write_text("\n".join(lines), encoding="utf-8")
    return members


def publish(root: Path, member: Member, quarter: int, when: datetime) -> tuple[str, str]:
    """Publish one quarter's results of ``member`` at ``when`` on both sources; returns the
    SEC and HKEx document ids."""
    return _publish_sec(root, member, quarter, when), _publish_hkex(root, member, quarter, when)


def _publish_sec(root: Path, m: Member, quarter: int, when: datetime) -> str:
    template = SEC_TEMPLATES[quarter % len(SEC_TEMPLATES)]
    source = default_archive_root() / SourceName.SEC / TEMPLATE_CIK / template
    accession = f"{m.cik}-{when.year % 100:02d}-{quarter + 1:06d}"
    target = root / SourceName.SEC / m.cik / accession
    target.mkdir(parents=True, exist_ok=True)
    for path in source.iterdir():
        if path.name.endswith("-index.htm"):
            text = path.read_text(encoding="utf-8")
            text = text.replace(f"/data/{int(TEMPLATE_CIK)}/", f"/data/{int(m.cik)}/")
            text = text.replace(template.replace("-", ""), accession.replace("-", ""))
            (target / f"{accession}-index.htm").write_text(text.replace(template, accession))
        else:
            _link(path, target / path.name)
    primary = _template_row(template)
    eastern = when.astimezone(EASTERN)
    row = {
        "accessionNumber": accession,
        "filingDate": eastern.date().isoformat(),
        "reportDate": (eastern.date() - timedelta(days=eastern.day)).isoformat(),
        "acceptanceDateTime": eastern.strftime("%Y-%m-%dT%H:%M:%S.000Z"),
        "form": "6-K",
        "primaryDocument": primary["primaryDocument"],
        "primaryDocDescription": "6-K",
    }
    body = json.loads(_submissions(root, m).read_text())
    recent = body["filings"]["recent"]
    for column in (*_COLUMNS, *_MORE):
        recent[column].insert(0, row[column])
    _atomic_json(_submissions(root, m), body)
    return f"{SourceName.SEC}:{accession}"


def _publish_hkex(root: Path, m: Member, quarter: int, when: datetime) -> str:
    template_id = HKEX_TEMPLATES[quarter % len(HKEX_TEMPLATES)]
    folder = default_archive_root() / SourceName.HKEX / TEMPLATE_CODE
    rows = json.loads((folder / "titlesearch_rows.json").read_text())
    template = next(r for r in rows if r["NEWS_ID"] == template_id)
    news_id = str(3_000_000_000 + m.index * 1000 + quarter)
    local = when.astimezone(HONG_KONG)
    _link(folder / f"{template_id}.pdf", _rows_file(root, m).parent / f"{news_id}.pdf")
    row = {
        **template,
        "NEWS_ID": news_id,
        "DATE_TIME": local.strftime("%d/%m/%Y %H:%M"),
        "FILE_LINK": f"/listedco/listconews/sehk/{local:%Y/%m%d}/{news_id}.pdf",
        "STOCK_CODE": m.hkex_code,
        "STOCK_NAME": m.name.upper()[:20],
    }
    current = json.loads(_rows_file(root, m).read_text())
    _atomic_json(_rows_file(root, m), [row, *current])
    return f"{SourceName.HKEX}:{news_id}"


def _template_row(accession: str) -> dict[str, Any]:
    path = default_archive_root() / SourceName.SEC / TEMPLATE_CIK / "submissions"
    recent = json.loads((path / f"CIK{TEMPLATE_CIK}.json").read_text())["filings"]["recent"]
    i = recent["accessionNumber"].index(accession)
    return {column: values[i] for column, values in recent.items()}


def _empty_submissions(m: Member) -> dict[str, Any]:
    recent: dict[str, list[Any]] = {c: [] for c in (*_COLUMNS, *_MORE)}
    return {"cik": m.cik, "name": m.name, "filings": {"recent": recent, "files": []}}


def _submissions(root: Path, m: Member) -> Path:
    return root / SourceName.SEC / m.cik / "submissions" / f"CIK{m.cik}.json"


def _rows_file(root: Path, m: Member) -> Path:
    return root / SourceName.HKEX / m.hkex_code / "titlesearch_rows.json"


def _write_stock_list(root: Path, members: list[Member]) -> None:
    bundled = default_archive_root() / SourceName.HKEX / "activestock_sehk_e.json"
    stocks = json.loads(bundled.read_text())
    stocks += [
        {"c": m.hkex_code, "i": m.stock_id, "n": m.name.upper()[:20]} for m in members if m.index
    ]
    _atomic_json(root / SourceName.HKEX / "activestock_sehk_e.json", stocks)


def _atomic_json(path: Path, value: object) -> None:
    # the server reads while a publication writes: a rename is all or nothing
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(json.dumps(value), encoding="utf-8")
    os.replace(temporary, path)


def _link(source: Path, target: Path) -> None:
    # identical bytes for every issuer: a hard link costs no space (a copy across devices)
    if target.exists():
        return
    try:
        os.link(source, target)
    except OSError:
        shutil.copyfile(source, target)
