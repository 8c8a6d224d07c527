"""Fiscal calendars: the fiscal year and quarter a period belongs to, by its issuer's year end.

An issuer's fiscal year ends on a month and day ("MMDD", SEC's ``fiscalYearEnd``). A 52/53-week
year ends on a weekday near a month end (The Buckle: the Saturday nearest January 31, so
"0201" or "0203"), so a period's end is placed at the nearest month end: a day up to the 15th
belongs to the month before. Quarters count three months from the year's start. A fiscal year
is named after the calendar year most of its months fall in: one ending in January or March
2025 is fiscal 2024 (as The Buckle and HKEx's "2024/25" say it), one ending in June or
December 2025 is fiscal 2025.

The ``facts_fiscal`` view computes the same in SQL (storage/consumer_views.py); a test holds
the two together.
"""

from __future__ import annotations

from datetime import date

DECEMBER = "1231"  # the year end of an issuer that sets none
_DAYS = (31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def valid_year_end(mmdd: str) -> bool:
    """True for a month and day as "MMDD" ("0201", "1231")."""
    if len(mmdd) != 4 or not mmdd.isdigit():
        return False
    month, day = int(mmdd[:2]), int(mmdd[2:])
    return 1 <= month <= 12 and 1 <= day <= _DAYS[month - 1]


def year_end_month(mmdd: str) -> int:
    """The month whose end is nearest the year end: "0201" -> 1, "0103" -> 12, "" -> 12."""
    month, day = int((mmdd or DECEMBER)[:2]), int((mmdd or DECEMBER)[2:])
    return (month + 10) % 12 + 1 if day <= 15 else month


def fiscal_period(end: date, mmdd: str) -> tuple[int, int]:
    """(fiscal year, fiscal quarter) of a period ending on ``end`` (or an instant)."""
    index = end.year * 12 + end.month - 1 - (1 if end.day <= 15 else 0)  # nearest month end
    year_end = year_end_month(mmdd)
    month_of_year = (index % 12 - year_end + 12) % 12 + 1  # 1 .. 12 within the fiscal year
    ends_in = index // 12 + (1 if index % 12 + 1 > year_end else 0)
    return ends_in - (1 if year_end < 6 else 0), (month_of_year + 2) // 3


# A longer period less a reported part of it gives the rest only when the rest is a quarter
# or a half: their lengths in days (end minus start), wide enough for 13- and 26-week periods.
DERIVED_DAYS = ((80, 100), (170, 190))


def derivable(start: date, end: date) -> bool:
    """True when ``start``..``end`` is a quarter or a half (the ``facts_derived`` view's rule)."""
    days = (end - start).days
    return any(low <= days <= high for low, high in DERIVED_DAYS)
