"""Text from documents as text in each channel's markup: never a mention, a link or a header.

An alert's subject and message quote documents (a row label, an HKEx title), so anything a
document says must reach a person as written. Slack reads ``<...>`` as a control sequence
(``<!channel>``, ``<@U...>``, ``<https://...|label>``); its rules: escape ``&``, ``<`` and
``>`` as HTML entities, nothing else
(https://api.slack.com/reference/surfaces/formatting#escaping). E-mail is sent as plain text
(no HTML part to interpret); its headers are one line each.
"""

from __future__ import annotations


def slack_text(text: str) -> str:
    """``plain_text`` as Slack mrkdwn shows it literally."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def header_line(text: str) -> str:
    """One line for a header or a title (a document's line breaks become spaces)."""
    return " ".join(text.split())
