"""One period grammar over a column's composed header (what is printed above it plus the title
block), English and Chinese: year-only columns take their month and day from the title's
period phrase, day-first dates, half years, a 31 March year end, "(Restated)" comparatives,
and a NOTES column that is no value."""

from __future__ import annotations

from datetime import date

from tasks.parsers.tables.headers import Column, resolve_columns


def _periods(
    header: list[tuple[str, ...]], title: str
) -> list[tuple[str, date | None, date | None]]:
    width = len(header[0])
    return [(c.role, c.start, c.end) for c in resolve_columns(header, width, title)]


class TestYearOnlyColumnsUnderATitle:
    def test_the_comparative_year_takes_the_titles_month_and_day(self) -> None:
        header = [("", "NOTES", "2014", "2013"), ("", "", "HK$'000", "HK$'000")]
        assert _periods(header, "FOR THE YEAR ENDED 31 DECEMBER 2014") == [
            ("notes", None, None),
            ("value", date(2014, 1, 1), date(2014, 12, 31)),
            ("value", date(2013, 1, 1), date(2013, 12, 31)),
        ]

    def test_a_31_march_year_end_in_chinese(self) -> None:
        header = [("", "附註", "二零二五年", "二零二四年"), ("", "", "千港元", "千港元")]
        assert _periods(header, "截至二零二五年三月三十一日止年度")[1:] == [
            ("value", date(2024, 4, 1), date(2025, 3, 31)),
            ("value", date(2023, 4, 1), date(2024, 3, 31)),
        ]

    def test_a_balance_sheet_at_a_day_first_date(self) -> None:
        header = [("", "2014", "2013"), ("", "HK$'000", "HK$'000")]
        assert _periods(header, "AT 31 DECEMBER 2014") == [
            ("value", None, date(2014, 12, 31)),
            ("value", None, date(2013, 12, 31)),
        ]

    def test_restated_comparatives_keep_their_year(self) -> None:
        header = [("", "2024", "2023"), ("", "RMB'000", "RMB'000"), ("", "", "(Restated)")]
        assert _periods(header, "截至二零二四年六月三十日止六個月") == [
            ("value", date(2024, 1, 1), date(2024, 6, 30)),
            ("value", date(2023, 1, 1), date(2023, 6, 30)),
        ]


class TestPeriodsPrintedAboveTheColumns:
    def test_a_spanning_half_year_over_years(self) -> None:
        header = [
            ("", "For the six months ended 30 June", "For the six months ended 30 June"),
            ("", "2014", "2013"),
            ("", "(Unaudited)", "(Unaudited)"),
        ]
        assert _periods(header, "") == [
            ("value", date(2014, 1, 1), date(2014, 6, 30)),
            ("value", date(2013, 1, 1), date(2013, 6, 30)),
        ]

    def test_two_instants_day_first(self) -> None:
        header = [("", "As at", "As at"), ("", "30 June", "31 December"), ("", "2014", "2013")]
        assert _periods(header, "At 30 June 2014") == [
            ("value", None, date(2014, 6, 30)),
            ("value", None, date(2013, 12, 31)),
        ]

    def test_a_quarter_spanning_three_columns_with_a_usd_one(self) -> None:
        quarter = "Three months ended March 31,"
        header = [
            ("", quarter, quarter, quarter),
            ("", "2023", "2024", "2024"),
            ("", "RMB", "RMB", "US$"),
        ]
        assert _periods(header, "") == [
            ("value", date(2023, 1, 1), date(2023, 3, 31)),
            ("value", date(2024, 1, 1), date(2024, 3, 31)),
            ("usd", date(2024, 1, 1), date(2024, 3, 31)),
        ]

    def test_fifty_two_weeks(self) -> None:
        header = [
            ("", "52 Weeks Ended", "52 Weeks Ended"),
            ("", "February 1, 2025", "February 3, 2024"),
        ]
        columns: list[Column] = resolve_columns(header, 3, "")
        assert [(c.start, c.end) for c in columns] == [
            (date(2024, 2, 4), date(2025, 2, 1)),
            (date(2023, 2, 5), date(2024, 2, 3)),
        ]


class TestHeadersThatNameMoreThanTheirColumn:
    """Text renderings glue or overprint header words; a column whose header names two
    periods is refused (no period), never given the first one."""

    def test_two_dates_over_two_columns_and_a_notes_column(self) -> None:
        header = [
            ("", "", "As at", "As at"),
            ("", "", "30 June 31 December", "30 June 31 December"),
            ("", "NOTES", "2014", "2013"),
        ]
        assert _periods(header, "At 30 June 2014") == [
            ("notes", None, None),
            ("value", None, date(2014, 6, 30)),
            ("value", None, date(2013, 12, 31)),
        ]

    def test_a_column_naming_two_dates_has_no_period(self) -> None:
        header = [("", "30 June 31 December 2014", "31 December 2013")]
        assert _periods(header, "")[0] == ("value", None, None)

    def test_a_column_naming_two_durations_has_no_period(self) -> None:
        both = "Three months ended December 31, Year ended December 31,"
        header = [("", both, "2023"), ("", "2022", "")]
        assert [p[1:] for p in _periods(header, "")] == [(None, None), (None, None)]

    def test_an_overprinted_fragment_of_a_neighbours_duration_is_no_duration(self) -> None:
        header = [("", "Three months ended June 30, Six m"), ("", "2024")]
        assert _periods(header, "") == [("value", date(2024, 4, 1), date(2024, 6, 30))]

    def test_a_duration_split_inside_its_word(self) -> None:
        header = [("", "Six mo nths ended June 30,"), ("", "2024")]
        assert _periods(header, "") == [("value", date(2024, 1, 1), date(2024, 6, 30))]

    def test_a_day_glued_to_its_month(self) -> None:
        header = [("", "As at 30June", "As at 31 December"), ("", "2014", "2013")]
        assert _periods(header, "") == [
            ("value", None, date(2014, 6, 30)),
            ("value", None, date(2013, 12, 31)),
        ]
