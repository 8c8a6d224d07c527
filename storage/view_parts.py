"""SQL pieces the views share: enum literals and the precision rule as a VALUES list."""

from __future__ import annotations

from enum import StrEnum

from domain.precision import PRINTED_DECIMALS, half_unit


def sql_literal(value: StrEnum) -> str:
    """An enum value as a SQL string literal."""
    return f"'{value.value}'"


def precision_steps() -> str:
    """Each printed precision (XBRL decimals) -> half a unit of its last digit, as SQL VALUES:
    the precision rule of :mod:`domain.precision`, which the views compare with."""
    rows = (f"({d}, {format(half_unit(d), 'f')})" for d in PRINTED_DECIMALS)
    return "VALUES " + ", ".join(rows)
