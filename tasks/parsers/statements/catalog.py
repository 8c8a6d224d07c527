"""The per-issuer label catalog: which printed labels and phrases mean which metric.

Its statement sections are an overlay of labels on the shared mapping over the statement rows
(:mod:`tasks.parsers.statements.metric_mapping`); its narrative phrases and guidance words read the
running text.

The catalogs are data, one TOML file per issuer in
``tasks/parsers/statements/catalogs/<ticker>.toml``;
every metric they name must be a row of ``metrics.csv`` (:mod:`domain.metrics`).
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from domain.errors import ConfigError
from domain.metrics import MetricDef
from domain.metrics import metrics as catalog_metrics

CATALOG_DIR = Path(__file__).resolve().parent / "catalogs"


@dataclass(frozen=True, slots=True)
class Section:
    """One statement kind: how its tables are recognised and what its rows mean."""

    name: str
    titles: tuple[str, ...]  # normalised substrings of the title (or IFRS header) text
    ifrs: bool
    contexts: tuple[str, ...]  # normalised sub-section prefixes
    labels: dict[str, str]  # normalised "label" or "context > label" -> metric
    ignored: frozenset[str]
    negate: frozenset[str]


@dataclass(frozen=True, slots=True)
class Phrase:
    """Words that open a narrative clause about one metric."""

    metric: str
    words: str  # as written in the catalog; matched case-insensitively
    context: str | None = None  # metric whose clause must come first in the section
    figure_first: bool = False  # "{n}" in ``words`` marks where the figure stands


@dataclass(frozen=True, slots=True)
class LabelCatalog:
    """Everything needed to turn one issuer's statement rows into metrics."""

    issuer: str
    sections: tuple[Section, ...]
    metrics: dict[str, MetricDef]
    phrases: tuple[Phrase, ...] = ()
    guidance: tuple[tuple[str, str], ...] = ()  # (words, metric), longest words first
    call_metric: str = "net_income"  # metric of a "guidance on the call" record


def normalize_label(text: str) -> str:
    """Case, punctuation and spacing free form of a label, used for every comparison (Chinese
    characters kept: "資產總值" is a label too)."""
    return " ".join(re.sub(r"[^0-9a-z\u3400-\u9fff]+", " ", text.lower()).split())


def load_catalog_file(path: Path, metrics: dict[str, MetricDef] | None = None) -> LabelCatalog:
    """Load and check one catalog file: every metric it names must exist in metrics.csv."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"label catalog {path}: {exc}") from exc
    known = metrics if metrics is not None else catalog_metrics()
    sections = tuple(
        _section(name, body, known, path) for name, body in data.get("sections", {}).items()
    )
    narrative = data.get("narrative", {})
    phrases = _phrases(narrative, known, path)
    outlook = dict(narrative.get("guidance", {}))
    call_metric = str(outlook.pop("call_metric", "net_income"))
    guidance = _guidance(outlook, known, path)
    issuer = str(data.get("issuer", path.stem.upper()))
    return LabelCatalog(issuer, sections, known, phrases, guidance, call_metric)


def _guidance(body: dict, known: dict[str, MetricDef], path: Path) -> tuple[tuple[str, str], ...]:
    pairs = []
    for metric, spellings in body.items():
        if metric not in known:
            raise ConfigError(f"label catalog {path}: unknown metric {metric!r} in guidance")
        pairs += [(str(words), metric) for words in spellings]
    return tuple(sorted(pairs, key=lambda p: -len(p[0])))


def _phrases(body: dict, known: dict[str, MetricDef], path: Path) -> tuple[Phrase, ...]:
    out: list[Phrase] = []
    for table, first in (("phrases", False), ("figure_first", True)):
        for metric, spellings in body.get(table, {}).items():
            if metric not in known:
                raise ConfigError(f"label catalog {path}: unknown metric {metric!r} in {table}")
            for spelling in spellings:
                context, _, words = spelling.rpartition(" > ")
                if context and context not in known:
                    raise ConfigError(f"label catalog {path}: unknown context {context!r}")
                if first and "{n}" not in words:
                    raise ConfigError(f"label catalog {path}: {words!r} lacks the {{n}} mark")
                out.append(Phrase(metric, words, context or None, first))
    return tuple(out)


def _section(name: str, body: dict, known: dict[str, MetricDef], path: Path) -> Section:
    contexts = tuple(normalize_label(c) for c in body.get("contexts", []))
    labels: dict[str, str] = {}
    for metric, spellings in body.get("metrics", {}).items():
        if metric not in known:
            raise ConfigError(f"label catalog {path}: unknown metric {metric!r} in {name}")
        for spelling in spellings:
            labels[_key(spelling, contexts, path)] = metric
    return Section(
        name=name,
        titles=tuple(t.lower() for t in body.get("titles", [])),
        ifrs=bool(body.get("ifrs", False)),
        contexts=contexts,
        labels=labels,
        ignored=frozenset(normalize_label(x) for x in body.get("ignored", [])),
        negate=frozenset(body.get("negate", [])),
    )


def _key(spelling: str, contexts: tuple[str, ...], path: Path) -> str:
    if ">" not in spelling:
        return normalize_label(spelling)
    context, label = (normalize_label(part) for part in spelling.split(">", 1))
    if context not in contexts:
        raise ConfigError(f"label catalog {path}: context {context!r} not declared")
    return f"{context} > {label}"


IGNORED = "<ignored>"


def context_of(section: Section, label: str) -> str | None:
    """The sub-section a heading (or a row's own label) opens, if the section declares it."""
    norm = normalize_label(label)
    return next((c for c in section.contexts if norm.startswith(c)), None)


def lookup(section: Section, label: str, context: str | None) -> str | None:
    """Metric id for a label, IGNORED for a known non-metric row, None when never seen."""
    norm = normalize_label(label)
    if context and f"{context} > {norm}" in section.labels:
        return section.labels[f"{context} > {norm}"]
    if norm in section.labels:
        return section.labels[norm]
    return IGNORED if norm in section.ignored else None
