"""The source registry: one Source per SourceName, chosen in one place."""

from __future__ import annotations

from typing import get_args

from domain.enums import SourceName
from flows.ingest import ListedSource
from tasks.config import wiring
from tasks.config.settings import load_settings


def _sources():
    return wiring.build_sources(load_settings(sec_limiter="local"))


def test_every_source_name_has_one_registered_source() -> None:
    sources = _sources()
    # XBRL company facts are asked of SEC's source (a FactsProvider), not a source of their own
    assert set(wiring.REGISTRY) == set(SourceName) - {SourceName.XBRL}
    assert all(source.name == name for name, source in sources.by_name.items())


def test_the_flow_parameter_offers_exactly_the_listed_sources() -> None:
    # Prefect's parameter form is built from the Literal: it must match the registry.
    assert list(get_args(ListedSource)) == _sources().listed() == ["sec", "hkex"]
