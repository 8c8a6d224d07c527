"""The cross-issuer listings: EDGAR's getcurrent Atom feed and HKEXnews' latest listing, as
parsed, as the replay server builds them, and as the generated universe publishes into them."""

import json
from datetime import UTC, datetime
from pathlib import Path

import lxml.etree

from tasks.sources import edgar_feed, hkex_latest
from tasks.sources.replay import ReplayArchive, default_archive_root
from tasks.sources.replay_universe import Member, build_universe, publish

REF = Path(__file__).resolve().parents[1] / "fixtures" / "reference"
ATOM = "{http://www.w3.org/2005/Atom}"


def _answer(root: Path, path: str) -> bytes:
    answer = ReplayArchive(root).answer(path, {}, {})
    assert answer.status == 200, answer.body[:200]
    return answer.body


class TestRecordedGetcurrentFeed:
    """sec_getcurrent_atom_page0.xml: every form, none of them a 6-K."""

    def test_other_forms_match_nobody(self):
        xml = (REF / "sec" / "sec_getcurrent_atom_page0.xml").read_bytes()
        assert edgar_feed.parse_all(xml) == {}

    def test_replay_feed_entries_have_the_recorded_shape(self):
        recorded = lxml.etree.fromstring(
            (REF / "sec" / "sec_getcurrent_atom_page0.xml").read_bytes()
        )
        played = lxml.etree.fromstring(_answer(default_archive_root(), "/cgi-bin/browse-edgar"))
        shape = [c.tag for c in recorded.find(f"{ATOM}entry")]
        assert [c.tag for c in played.find(f"{ATOM}entry")] == shape
        rows = edgar_feed.parse_all(lxml.etree.tostring(played))
        assert list(rows) == ["0001741530"]
        assert [r.accession for r in rows["0001741530"]][:2] == [
            "0001104659-24-095871",
            "0001104659-24-088431",
        ]  # newest first, 6-Ks only


class TestLatestListingShape:
    """The newsInfoLst shape of /ncms/json/eds/lcisehk1relsde_1.json."""

    def test_every_stock_of_an_item_and_only_the_wanted_edition(self):
        body = {
            "genDate": "1742169600000",
            "maxNumOfFile": 5,
            "newsInfoLst": [
                {"newsId": 11, "webPath": "/listedco/a.pdf", "stock": [
                    {"sc": "3660", "sn": "QIFU TECH-S"}, {"sc": "00700", "sn": "TENCENT"}]},
                {"newsId": 12, "webPath": "/listedco/b_c.pdf", "stock": [{"sc": "03660"}]},
                {"newsId": 13, "webPath": "/listedco/c.pdf", "stock": []},
            ],
        }  # fmt: skip
        raw = json.dumps(body).encode()
        assert hkex_latest.parse_latest(raw) == {"03660": ["11"], "00700": ["11"]}
        assert hkex_latest.parse_latest(raw, "zh") == {"03660": ["12"]}

    def test_replay_listing_is_the_archive_newest_first(self):
        news = hkex_latest.parse_latest(
            _answer(default_archive_root(), "/ncms/json/eds/lcisehk1relsde_1.json")
        )
        assert news == {"03660": ["11480512", "11452087", "11448390", "11255790", "11126844"]}


class TestUniverse:
    """A generated universe: issuers as configuration, publications seen by the listings."""

    def test_issuers_file_and_listings(self, tmp_path):
        members = build_universe(tmp_path, 3, 2)
        issuers = (tmp_path / "issuers.toml").read_text()
        assert issuers.count("[[issuer]]") == 3 and 'cik = "0009000002"' in issuers
        assert [m.ticker for m in members] == ["QFIN", "U0001", "U0002"]
        feed = edgar_feed.parse_all(_answer(tmp_path, "/cgi-bin/browse-edgar"))
        assert sorted(feed) == [m.cik for m in members]
        assert all(len(rows) == 2 for rows in feed.values())
        news = hkex_latest.parse_latest(_answer(tmp_path, "/ncms/json/eds/lcisehk1relsde_1.json"))
        assert sorted(news) == [m.hkex_code for m in members]

    def test_publication_is_seen_from_the_next_request(self, tmp_path):
        build_universe(tmp_path, 2, 0)
        archive = ReplayArchive(tmp_path)
        assert archive.answer("/cgi-bin/browse-edgar", {}, {}).body.count(b"<entry>") == 0
        sec_id, hkex_id = publish(tmp_path, Member(1), 0, datetime(2026, 3, 2, 9, tzinfo=UTC))
        feed = edgar_feed.parse_all(archive.answer("/cgi-bin/browse-edgar", {}, {}).body)
        assert [f"sec:{r.accession}" for r in feed["0009000001"]] == [sec_id]
        pdf = f"/listedco/listconews/sehk/2026/0302/{hkex_id.split(':')[1]}.pdf"
        assert archive.answer(pdf, {}, {}).body.startswith(b"%PDF")
        folder = sec_id.split(":")[1].replace("-", "")
        index = archive.answer(
            f"/Archives/edgar/data/9000001/{folder}/{sec_id.split(':')[1]}-index.htm", {}, {}
        )
        assert f"/Archives/edgar/data/9000001/{folder}/" in index.body.decode()
