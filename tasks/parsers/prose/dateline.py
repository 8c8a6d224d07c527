"""When a document says it was published: its dateline, in the forms the world prints.

Over cleaned running text (one line, see :func:`running_text.clean`), in this order (a release's own
dateline before an HKEx cover note's, which is dated a day later):

- a wire service's: "SHANGHAI, China, May 19, 2024 (GLOBE NEWSWIRE) --", "NEW YORK, March 5,
  2024 /PRNewswire/ --", "BEIJING--(BUSINESS WIRE)--Dec. 4, 2024--", "... / ACCESSWIRE / ...":
  the date nearest the wire's mark;
- a mainland city's: "Shanghai, China, March 16, 2025";
- Hong Kong's: "Hong Kong, 30 March 2015" (either order);
- a signature or form line: "Date: March 12, 2024", "Announcement date: 13 March 2024",
  "Date Submitted", "For immediate release";
- a Chinese edition's: "香港，二零一五年三月三十日" (or in Arabic digits), any city.
"""

from __future__ import annotations

import calendar
import re
from datetime import date

from tasks.parsers.documents import running_text
from tasks.parsers.documents.zh import zh_number

_FULL = [m for m in calendar.month_name if m]
_MONTH = r"(?P<month>" + "|".join(_FULL) + r"|(?:Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec)\.?)"
_MONTH_FIRST = rf"{_MONTH} (?P<day>\d{{1,2}}), (?P<year>(?:19|20)\d{{2}})"
_DAY_FIRST = rf"(?P<day>\d{{1,2}}) {_MONTH},? (?P<year>(?:19|20)\d{{2}})"
_DATE = re.compile(rf"\b(?:{_MONTH_FIRST}|{_DAY_FIRST.replace('?P<', '?P<d_')})\b")
_WIRE = re.compile(
    r"\(\s*(?:GLOBE NEWSWIRE|BUSINESS WIRE|PR ?Newswire|ACCESSWIRE)\s*\)"
    r"|/\s*(?:PR ?Newswire(?:-[A-Za-z]+)?|ACCESSWIRE|GLOBE NEWSWIRE)\s*/",
    re.IGNORECASE,
)
_REACH = 60  # characters either side of a wire mark its date is printed within
_CITY = re.compile(
    r"\b(?:Shanghai|Beijing|Shenzhen|Guangzhou|Hangzhou), (?:the )?(?:PRC|China), "
    rf"(?={_DATE.pattern})"
)
_HONG_KONG = re.compile(rf"\bHong Kong(?:, China)?, (?={_DATE.pattern})")
_LABELLED = re.compile(
    r"\bDate:\s*|(?i:announcement date|date submitted|date of (?:this )?announcement"
    r"|for immediate release)\s*:?\s*"
)
_ZH_NUM = r"[零〇○一二三四五六七八九十\d]+"
_ZH_DATE = re.compile(
    rf"(?:香港|[\u4e00-\u9fff]{{2,4}})\s*[，,]\s*({_ZH_NUM})\s*年\s*({_ZH_NUM})\s*月\s*({_ZH_NUM})\s*日"
)


def dateline(cleaned: str) -> date | None:
    """The publication date a document prints, or None (never today by default)."""
    return (
        _wire(cleaned)
        or _after(_CITY, cleaned)
        or _after(_HONG_KONG, cleaned)
        or _after(_LABELLED, cleaned)
        or _zh(cleaned)
    )


def _wire(text: str) -> date | None:
    for mark in _WIRE.finditer(text):
        window = _DATE.finditer(text, max(0, mark.start() - _REACH), mark.end() + _REACH)
        near = [(min(abs(m.end() - mark.start()), abs(m.start() - mark.end())), m) for m in window]
        found = [_date(m) for _, m in sorted(near, key=lambda pair: pair[0])]
        dated = next((d for d in found if d is not None), None)
        if dated is not None:
            return dated
    return None


def _after(label: re.Pattern[str], text: str) -> date | None:
    for match in label.finditer(text):
        found = _DATE.match(text, match.end())
        dated = _date(found) if found else None
        if dated is not None:
            return dated
    return None


def _date(match: re.Match[str]) -> date | None:
    month = match["month"] or match["d_month"]
    day, year = match["day"] or match["d_day"], match["year"] or match["d_year"]
    number = next(i for i, m in enumerate(_FULL, 1) if m.startswith(month.rstrip(".")[:3]))
    try:
        return date(int(year), number, int(day))
    except ValueError:
        return None


def _zh(text: str) -> date | None:
    for match in _ZH_DATE.finditer(running_text.join_cjk(text)):
        try:
            return date(*(zh_number(part) for part in match.groups()))
        except (KeyError, ValueError):
            continue
    return None
