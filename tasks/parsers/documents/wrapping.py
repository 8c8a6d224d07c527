"""When a line of a label goes on from the line above it: one rule for every reader of laid-out
text (the rows below a label's figures, and the lines above them).

A label wrapped in a narrow column goes on in lower case ("Credit driven" / "services"), after
a line that stops mid-phrase ("... shareholders of the" / "Company"), or with the alternative
a statement prints in parentheses right after a word ("Net increase" / "(decrease) in cash",
"Foreign exchange" / "(loss) gain").
"""

from __future__ import annotations

import re

# a label line that stops mid-phrase goes on below: "... ordinary shareholders of the" / "Company"
UNFINISHED = re.compile(
    r"(?:[,;]|\b(?:of|the|and|or|for|to|in|from|on|by|with|at|attributable|per|less|net of))\)?$",
    re.I,
)
# "(decrease) in cash", "(loss) gain", "(used in) financing": an alternative in lower case,
# then more words (not "(loss)/profit for the period", which opens a row of its own)
_ALTERNATIVE = re.compile(r"^\([a-z][a-z ]*\)\s+\S")
# a name after "of" or "to" that the narrow column wrapped: "... shareholders of Qifu" /
# "Technology," / "Inc."
_NAME_OPENS = re.compile(r"\b(?:of|to)\s+[A-Z][\w&.-]*$")
_NAME_GOES_ON = re.compile(r"^[A-Z][\w&-]*(?:,|\.$|\s+(?:Inc|Ltd|Limited|Corp|plc)\b)")


def goes_on(line: str) -> bool:
    """``line`` can only be the rest of the label above it: it opens in lower case or with a
    lower-case alternative in parentheses."""
    return line[:1].islower() or bool(_ALTERNATIVE.match(line))


def unfinished(line: str) -> bool:
    """``line`` stops mid-phrase: the label goes on below it."""
    return bool(UNFINISHED.search(line))


def name_goes_on(above: str, line: str) -> bool:
    """``line`` is the rest of a company's name ``above`` began ("of Qifu" / "Technology,")."""
    return bool(_NAME_OPENS.search(above)) and bool(_NAME_GOES_ON.match(line))


def continues(above: str, line: str) -> bool:
    """``line``, printed below the label ``above``, is the rest of it."""
    return goes_on(line) or unfinished(above) or name_goes_on(above, line)
