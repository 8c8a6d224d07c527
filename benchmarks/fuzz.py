"""Malformed and hostile documents: seeded byte-level mutations of real documents, per format.

Each case is a real document of the replay archive (or a seed text) mutated: truncated, bytes
flipped, garbage inserted, chunks deleted or repeated, deep nesting, non-UTF-8 bytes, emptied.
A case passes when the stage that reads it (extraction for HTML, PDF and text; the source's
parsers for the JSON feeds) returns, or raises one of the project's errors
(``domain.errors.PipelineError``) with a one-line message; anything else is "unhandled".
Used by ``tests/faults/test_fuzz_documents.py`` (a few cases) and ``benchmarks.faults``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from domain.errors import ParseError, PipelineError
from domain.records import Issuer
from tasks.sources.replay import default_archive_root

ROOT = default_archive_root()
SEEDS = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "seeds"
QFIN = Issuer("QFIN", "Qifu Technology, Inc.", "0001741530", "03660")


def _sources(fmt: str) -> list[tuple[str, bytes]]:
    sec = ROOT / "sec" / "0001741530"
    if fmt == "html":
        return [
            (p.name, p.read_bytes()) for p in sorted(sec.glob("*/*.htm")) if "-index" not in p.name
        ]
    if fmt == "pdf":
        return [(p.name, p.read_bytes()) for p in sorted((ROOT / "hkex").glob("*/*.pdf"))]
    if fmt == "text":
        return [(p.name, p.read_bytes()) for p in sorted(SEEDS.glob("*.txt"))]
    if fmt == "json":
        rows = ROOT / "hkex" / "03660" / "titlesearch_rows.json"
        envelope = {"result": rows.read_text(), "hasNextRow": False}
        return [
            ("submissions.json", (sec / "submissions" / "CIK0001741530.json").read_bytes()),
            ("titlesearch.json", json.dumps(envelope).encode()),
        ]
    raise ValueError(f"unknown format {fmt!r}")


def _nest(rng: random.Random, data: bytes) -> bytes:
    depth = rng.choice([100, 1000, 20000])
    opener, closer = rng.choice([(b"<div>", b"</div>"), (b"[", b"]"), (b"<<", b">>"), (b"(", b")")])
    at = rng.randrange(len(data) + 1)
    return data[:at] + opener * depth + closer * rng.choice([0, depth]) + data[at:]


def mutate(rng: random.Random, data: bytes) -> bytes:
    """One to three seeded mutations of ``data``."""
    for _ in range(rng.randint(1, 3)):
        size = len(data)
        at = rng.randrange(size + 1)
        kind = rng.randrange(9)
        if kind == 0:  # truncated
            data = data[:at]
        elif kind == 1 and size:  # bytes flipped
            chars = bytearray(data)
            for _ in range(rng.randint(1, 50)):
                chars[rng.randrange(size)] = rng.randrange(256)
            data = bytes(chars)
        elif kind == 2:  # garbage inserted
            data = data[:at] + rng.randbytes(rng.randint(1, 4096)) + data[at:]
        elif kind == 3:  # a chunk deleted
            data = data[:at] + data[at + rng.randint(1, 20000) :]
        elif kind == 4:  # a chunk repeated
            data = data[:at] + data[at : at + 2000] * rng.randint(2, 50) + data[at:]
        elif kind == 5:
            data = _nest(rng, data)
        elif kind == 6:  # non-UTF-8 text
            data = data.decode("utf-8", "replace").encode(
                rng.choice(["utf-16", "latin-1", "cp1252"]), "replace"
            )
        elif kind == 7:  # hostile labels
            hostile = rng.choice(
                [b"<script>alert(1)</script>", b"'; DROP TABLE facts; --", b"\x00\x00"]
            )
            data = data[:at] + hostile + data[at:]
        else:  # emptied, or all whitespace
            data = rng.choice([b"", b" \n\t" * rng.randint(0, 100)])
    return data


_ODD_VALUES: list[Any] = [
    None,
    "",
    "x",
    -1,
    0,
    1e308,
    [],
    {},
    [1, "a"],
    {"a": 1},
    "2024-13-45",
    "9" * 40,
]


def _twist(rng: random.Random, value: Any, depth: int = 0) -> Any:
    """A JSON value with one part replaced, removed or reshaped."""
    if isinstance(value, dict) and value and depth < 6:
        key = rng.choice(sorted(value))
        copy = dict(value)
        if rng.random() < 0.2:
            del copy[key]
        else:
            copy[key] = _twist(rng, copy[key], depth + 1)
        return copy
    if isinstance(value, list) and value and depth < 6:
        copy = list(value)
        at = rng.randrange(len(copy))
        if rng.random() < 0.2:
            del copy[at]
        else:
            copy[at] = _twist(rng, copy[at], depth + 1)
        return copy
    if isinstance(value, str) and value.startswith("[") and rng.random() < 0.5:
        try:  # HKEx nests its rows as a JSON string: reach into it
            return json.dumps(_twist(rng, json.loads(value), depth + 1))
        except ValueError:
            pass
    return rng.choice(_ODD_VALUES)


def mutate_json(rng: random.Random, data: bytes) -> bytes:
    """A structural mutation (half the time) or a byte-level one."""
    if rng.random() < 0.5:
        return mutate(rng, data)
    value = json.loads(data)
    for _ in range(rng.randint(1, 4)):
        value = _twist(rng, value)
    return json.dumps(value).encode()


def _extract(name: str, content: bytes) -> object:
    from tasks.extract import extract_file

    return extract_file(name, content, "QFIN")


class _Answers:
    """A source client that answers every question with the fuzzed body (JSON feeds)."""

    def __init__(self, body: Mapping[str, Any]) -> None:
        self.body = body

    def submissions(self, cik: str) -> Mapping[str, Any]:
        return self.body

    def submissions_page(self, name: str) -> Mapping[str, Any]:
        return self.body

    def title_search(self, *args: object) -> Mapping[str, Any]:
        return self.body

    def active_stocks(self) -> list[Mapping[str, Any]]:
        return [{"c": "03660", "i": 1}]


def _json_feed(name: str, content: bytes) -> object:
    from tasks.sources import edgar, hkex, transfer
    from tasks.sources.listing import guarded

    data = transfer.json_body(f"https://fuzz.test/{name}", content, "fuzzed answer")
    if not isinstance(data, Mapping):  # as the clients do (edgar_source, hkex_source)
        raise ParseError(f"{name}: JSON is not an object")
    client: Any = _Answers(data)
    if name.startswith("submissions"):
        since = date(2024, 1, 1)
        return guarded(
            "EDGAR submissions",
            lambda: edgar.list_edgar(client, QFIN, since, "https://fuzz.test", {}),
        )
    return guarded(
        "HKEx title search",
        lambda: hkex.list_hkex(
            client, QFIN, date(2024, 1, 1), date(2025, 6, 30), "https://fuzz.test", "en", {}
        ),
    )


TARGETS: dict[str, Callable[[str, bytes], object]] = {
    "html": _extract,
    "pdf": _extract,
    "text": _extract,
    "json": _json_feed,
}


@dataclass
class FuzzTally:
    """Outcomes of one format's cases."""

    cases: int = 0
    read: int = 0
    refused: int = 0
    unhandled: list[str] = field(default_factory=list)


def fuzz(fmt: str, cases: int, seed: int = 0) -> FuzzTally:
    """Run ``cases`` mutated documents of ``fmt`` through its stage."""
    rng = random.Random(f"{fmt}:{seed}")
    originals = _sources(fmt)
    target = TARGETS[fmt]
    tally = FuzzTally()
    for index in range(cases):
        name, original = originals[index % len(originals)]
        content = mutate_json(rng, original) if fmt == "json" else mutate(rng, original)
        tally.cases += 1
        try:
            target(name, content)
            tally.read += 1
        except PipelineError as exc:
            message = str(exc)
            if "\n" in message or not message:
                tally.unhandled.append(f"{fmt} #{index} {name}: not one line: {message[:200]!r}")
            tally.refused += 1
        except Exception as exc:  # noqa: BLE001 - what the suite counts as unhandled
            tally.unhandled.append(f"{fmt} #{index} {name}: {type(exc).__name__}: {exc}"[:300])
    return tally
