"""running_text.clean works a stretch of lines at a time (memory); it must equal one pass over the
whole.

The reference below is the whole-text algorithm. Texts are built from the pieces the patterns
act on (footnote marks, stars, glued digits, runs of spaces, line breaks of every kind), and
the stretch length is made tiny so that stretch boundaries fall everywhere.
"""

from __future__ import annotations

import random

import pytest

from tasks.parsers.documents import running_text

_PIECES = [
    "loans^{*7}", "rate*¹³", "income**14", "**bold**", "Non-GAAP9 net", "GAAP12 ", "RMB12 ",
    "US\\$1.00", "ab12", "a", " ", "  ", "   ", "\n", "\r\n", "\n\n", "\t", "\xa0", "\u2028",
    "\u3000", "word", "7", "*", "^{3}", "¹", "x12\n", "“quoted”", "—", ".", "\n12\n", "\n- 3 -\n",
]  # fmt: skip


def _whole(text: str) -> str:
    """The single-pass algorithm clean() must reproduce."""
    text = running_text._PAGE_NUMBER.sub("", text)
    text = text.replace("\\$", "$").translate(running_text._WHITESPACE)
    for pattern in running_text._FOOTNOTES:
        text = pattern.sub("", text)
    return running_text._SPACES.sub(" ", text).strip()


def _text(rng: random.Random) -> str:
    return "".join(rng.choice(_PIECES) for _ in range(rng.randint(0, 120)))


@pytest.mark.parametrize("stretch", [1, 3, 7, 40])
def test_stretches_clean_like_the_whole(stretch: int, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(stretch)
    texts = [_text(rng) for _ in range(400)] + ["", " ", "\n\n", " \n a \n ", "\u3000x\n"]
    monkeypatch.setattr(running_text, "_STRETCH", stretch)
    differing = [t for t in texts if running_text.clean(t) != _whole(t)]
    assert not differing, differing[:3]
    assert (
        sum(len(list(running_text._stretches(t))) > 2 for t in texts) > 100
    )  # boundaries were hit


def test_default_stretch_on_a_long_text() -> None:
    rng = random.Random(0)
    text = "\n".join(_text(rng) for _ in range(3000))
    assert len(text) > 3 * running_text._STRETCH
    assert running_text.clean(text) == _whole(text)
