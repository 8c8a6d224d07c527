"""Chinese statement headers read as the English words the header reader knows.

HKEx Chinese editions print periods, years and currencies in Chinese, in traditional or
simplified characters, with Chinese or Arabic numerals: "截至二零二四年十二月三十一日止年度",
"於十二月三十一日", "二零二三年" / "2023年", "人民幣千元" / "人民币百万元", "千港元".
:func:`englished` turns them into "Year ended December 31, 2024", "As at December 31",
"2023", "RMB", "HK$"; everything else (labels, titles) is left as printed. The scale ("千"
thousands, "百萬" millions) is read from the original text by ``statement_titles.scale_of``.
"""

from __future__ import annotations

import calendar
import re

_DIGITS = {c: i for i, c in enumerate("零一二三四五六七八九")} | {"〇": 0, "○": 0}
_NUM = r"[零〇○一二三四五六七八九十\d]{1,4}"
_DATE = rf"(?:({_NUM})\s*年\s*)?({_NUM})\s*月\s*({_NUM})\s*日"
_MONTHS_ENDED = {"三": "Three", "六": "Six", "九": "Nine", "十二": "Twelve"}
_MONTHS_ENDED |= {"3": "Three", "6": "Six", "9": "Nine", "12": "Twelve"}
_ENDED = re.compile(rf"截至\s*{_DATE}\s*止\s*(?:(年度|年)|(十二|[三六九]|1[2]|[369])\s*[個个]月)")
_AT = re.compile(rf"[於于]\s*{_DATE}")
_ON = re.compile(_DATE)
_YEAR = re.compile(rf"({_NUM})\s*年度?(?!\s*{_NUM}\s*月)")
_CURRENCY = (
    (re.compile(r"人民[幣币](?:千|百萬|百万)?元"), "RMB"),
    (re.compile(r"(?:千|百萬|百万)?港元|港[幣币](?:千|百萬|百万)?元"), "HK$"),
    (re.compile(r"(?:千|百萬|百万)?美元"), "US$"),
)
_HAN = re.compile(r"[\u3400-\u9fff]")


def has_han(text: str) -> bool:
    """True when the text holds Chinese characters."""
    return _HAN.search(text) is not None


def zh_number(text: str) -> int:
    """ "二零二五" -> 2025, "二十七" -> 27, "十" -> 10, "6" -> 6."""
    if text.isdigit():
        return int(text)
    if "十" in text:
        tens, _, units = text.partition("十")
        return _DIGITS.get(tens, 1) * 10 + (_DIGITS[units] if units else 0)
    return int("".join(str(_DIGITS[c]) for c in text))


def englished(text: str) -> str:
    """Chinese periods, years and currencies in ``plain_text`` as English header words."""
    if not has_han(text):
        return text
    text = _ENDED.sub(_ended, text)
    text = _AT.sub(lambda m: f" As at {_date(m)} ", text)
    text = _ON.sub(lambda m: f" {_date(m)} ", text)
    text = _YEAR.sub(lambda m: f" {_number(m[1])} ", text)
    for pattern, code in _CURRENCY:
        text = pattern.sub(f" {code} ", text)
    return " ".join(text.split())


def _ended(match: re.Match[str]) -> str:
    months = match[5]
    duration = "Year" if match[4] else f"{_MONTHS_ENDED.get(months, months)} months"
    return f" {duration} ended {_date(match)} "


def _date(match: re.Match[str]) -> str:
    year, month, day = match[1], match[2], match[3]
    try:
        named = f"{calendar.month_name[zh_number(month)]} {zh_number(day)}"
    except (KeyError, IndexError, ValueError):
        return match[0]
    return f"{named}, {_number(year)}" if year else named


def _number(text: str) -> str:
    try:
        return str(zh_number(text))
    except (KeyError, ValueError):
        return text
