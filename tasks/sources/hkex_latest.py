"""HKEXnews' latest-announcements listing: one cross-issuer answer of what was just published.

Pure. The listing (``/ncms/json/eds/lcisehk1relsde_1.json``: the last day's announcements of
the Main Board, newest first) names each announcement's stocks; the watch pass matches them
to the configured issuers' stock codes before asking anything per issuer.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from domain.errors import ParseError


def parse_latest(body: bytes, language: str = "en") -> dict[str, list[str]]:
    """NEWS ids by 5-digit stock code, newest first, of the edition ``language`` fetches."""
    try:
        data = json.loads(body)
    except ValueError:
        raise ParseError("HKEx latest listing is not JSON (truncated or an error page?)") from None
    news = data.get("newsInfoLst") if isinstance(data, Mapping) else None
    if not isinstance(news, list):
        raise ParseError("HKEx latest listing has no 'newsInfoLst' array")
    found: dict[str, list[str]] = {}
    for item in news:
        if not isinstance(item, Mapping) or not _wanted(item, language):
            continue
        for stock in item.get("stock") or []:
            code = str(stock.get("sc", "")).zfill(5)
            found.setdefault(code, []).append(str(item.get("newsId", "")))
    return found


def _wanted(item: Mapping[str, Any], language: str) -> bool:
    # the same edition rule as the title search's rows (tasks.sources.hkex.wanted)
    chinese = str(item.get("webPath", "")).lower().endswith("_c.pdf")
    return bool(item.get("newsId")) and (chinese if language == "zh" else not chinese)
