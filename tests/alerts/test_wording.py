"""How alert messages word amounts: as an analyst writes them, a loss with its sign first."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tasks.delivery.wording import amount


@pytest.mark.parametrize(
    ("value", "unit", "decimals", "said"),
    [
        ("1798800000", "CNY", -5, "RMB1,798.8m"),
        # QFIN's Q4 2023 other comprehensive loss as its Q4 2024 announcement prints it
        ("-3606000", "CNY", -3, "-RMB3.606m"),
        ("-47000", "CNY", -3, "-RMB47,000"),
        ("-0.030", "CNY/share", 3, "-RMB0.03"),
        ("0.29", "USD/share", 2, "US$0.29"),
        ("3.35", "percent", 2, "3.35%"),
    ],
)
def test_amount(value: str, unit: str, decimals: int, said: str) -> None:
    assert amount(Decimal(value), unit, decimals) == said
