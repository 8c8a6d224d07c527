"""Alert delivery channels: e-mail over SMTP, a JSON webhook, a Slack-compatible webhook.

Each channel is configured from the environment (FILINGS_SMTP_URL, FILINGS_WEBHOOK_URL,
FILINGS_SLACK_WEBHOOK_URL) or from Prefect Secret blocks named in FILINGS_*_BLOCK settings.
Every send carries the alert id as an idempotency key (e-mail Message-ID, webhook
Idempotency-Key header and body) so a receiver can drop the rare repeat after a crash.
"""

from __future__ import annotations

import smtplib
import socket
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from email.message import EmailMessage
from email.utils import formatdate
from typing import TypeVar
from urllib.parse import quote, urlsplit

import requests
import urllib3

from domain.enums import ChannelName
from domain.errors import ConfigError, NotSentError, SendInDoubtError
from domain.records import PendingDelivery
from tasks.config.secret_urls import SecretUrl, SmtpUrl, WebhookUrl
from tasks.config.settings import Settings
from tasks.delivery.digest import digest_key, digest_subject, digest_text
from tasks.delivery.markup import header_line, slack_text

SEND_TIMEOUT_SECONDS = 20
U = TypeVar("U", bound=SecretUrl)

Send = Callable[[Sequence[PendingDelivery]], None]


@dataclass(frozen=True, slots=True)
class Channel:
    """A configured channel: its name, how to send alerts (one message for the alerts given:
    one alert, or a run's digest), and the secrets it holds.

    ``send`` raises :class:`NotSentError` when the message cannot have reached the receiver
    and :class:`SendInDoubtError` when it may have; nothing else but a bug."""

    name: ChannelName
    send: Send
    secrets: tuple[str, ...] = ()

    def describe_error(self, exc: BaseException) -> str:
        """One line saying what went wrong, with every secret of the channel masked."""
        return scrub(_one_line(exc), self.secrets)


def scrub(text: str, secrets: tuple[str, ...]) -> str:
    """Replace each secret (and its URL-quoted form) with ***."""
    for secret in sorted((s for s in secrets if s), key=len, reverse=True):
        for form in {secret, quote(secret, safe=""), quote(secret)}:
            text = text.replace(form, "***")
    return text


def _one_line(exc: BaseException) -> str:
    if isinstance(exc, NotSentError | SendInDoubtError):
        return str(exc)
    lines = str(exc).splitlines()
    return f"{type(exc).__name__}: {lines[0] if lines else ''}"[:300]


def _http_problem(exc: requests.RequestException) -> str:
    # requests puts the full URL (a secret for webhooks) in its messages: keep the status or
    # the exception type and the host only.
    if isinstance(exc, requests.HTTPError) and exc.response is not None:
        return f"HTTP {exc.response.status_code} from {_host(exc.response.url)}"
    where = _host(exc.request.url) if exc.request is not None and exc.request.url else ""
    return f"{type(exc).__name__} reaching {where}".strip()


def _host(url: str | None) -> str:
    parts = urlsplit(url or "")
    return f"{parts.scheme}://{parts.hostname}" if parts.hostname else "the endpoint"


def channels_from_settings(settings: Settings) -> list[Channel]:
    """The configured channels: e-mail, JSON webhook, Slack webhook (each optional)."""
    channels = []
    smtp = _smtp_url(settings)
    if smtp is not None and settings.alert_email_to:
        sender, to = settings.alert_email_from, settings.alert_email_to
        channels.append(
            Channel(ChannelName.EMAIL, lambda a: send_email(smtp, sender, to, a), smtp.secrets())
        )
    hook = _secret(settings.webhook_url, settings.webhook_url_block, "WEBHOOK_URL")
    if hook is not None:
        channels.append(
            Channel(
                ChannelName.WEBHOOK, lambda a: post_json(hook, webhook_body(a), a), hook.secrets()
            )
        )
    slack = _secret(
        settings.slack_webhook_url, settings.slack_webhook_url_block, "SLACK_WEBHOOK_URL"
    )
    if slack is not None:
        channels.append(
            Channel(
                ChannelName.SLACK, lambda a: post_json(slack, slack_body(a), a), slack.secrets()
            )
        )
    return channels


def _secret(value: WebhookUrl | None, block: str, what: str) -> WebhookUrl | None:
    """The setting's URL or, when a block is named, that Secret block's value (checked)."""
    if not block:
        return value
    return _parsed(WebhookUrl, load_secret_block(block, what), block, what)


def _parsed(kind: type[U], text: str, block: str, what: str) -> U:
    try:
        return kind(text.strip())
    except ValueError as exc:  # the problem in words, never the value
        raise ConfigError(f"FILINGS_{what}_BLOCK: Prefect Secret block {block!r}: {exc}") from None


def _smtp_url(settings: Settings) -> SmtpUrl | None:
    """FILINGS_SMTP_URL (or its block), with the password from FILINGS_SMTP_PASSWORD_BLOCK."""
    url = settings.smtp_url
    if settings.smtp_url_block:
        text = load_secret_block(settings.smtp_url_block, "SMTP_URL")
        url = _parsed(SmtpUrl, text, settings.smtp_url_block, "SMTP_URL")
    if url is None or not settings.smtp_password_block:
        return url
    return url.with_password(load_secret_block(settings.smtp_password_block, "SMTP_PASSWORD"))


def load_secret_block(name: str, what: str) -> str:
    """The value of the Prefect Secret block ``name`` (needs the Prefect API)."""
    # deferred heavy import: Prefect's blocks, only when a Secret block is configured
    from prefect.blocks.system import Secret

    try:
        value = Secret.load(name).get()  # type: ignore[union-attr]
    except ValueError as exc:
        raise ConfigError(
            f"FILINGS_{what}_BLOCK: Prefect Secret block {name!r} not found ({type(exc).__name__});"
            f" create it with prefect.blocks.system.Secret(value=...).save({name!r})"
        ) from None
    return str(value)


def _key(alerts: Sequence[PendingDelivery]) -> str:
    """One alert's id, or the digest's (the same on a re-send of the same alerts)."""
    return alerts[0].alert_id if len(alerts) == 1 else digest_key(alerts)


def email_message(sender: str, to: str, alerts: Sequence[PendingDelivery]) -> EmailMessage:
    """The e-mail of one alert or of a digest, with the headers mail systems expect."""
    message = EmailMessage()
    message["Subject"] = header_line(digest_subject(alerts))
    message["From"], message["To"] = sender, to
    message["Date"] = formatdate(usegmt=True)
    message["Message-ID"] = f"<{_key(alerts)}@filings-pipeline>"  # same id on a re-send
    message["Auto-Submitted"] = "auto-generated"  # no vacation replies
    message["X-Filings-Alert-Id"] = ", ".join(a.alert_id for a in alerts)
    lines = [replace(a, subject=header_line(a.subject)) for a in alerts]
    body = alerts[0].message if len(alerts) == 1 else digest_text(lines)
    message.set_content(body + "\n")
    return message


def send_email(url: SmtpUrl, sender: str, to: str, alerts: Sequence[PendingDelivery]) -> None:
    """Send alerts as one e-mail over SMTP (``smtp://user:pass@host:port[?starttls]`` or
    ``smtps://``). Until the message is handed over, a failure is :class:`NotSentError`;
    while it is, :class:`SendInDoubtError`, unless the server answered with a refusal."""
    message = email_message(sender, to, alerts)
    where = f"{url.scheme}://{url.host}:{smtp_port(url)}"  # the port too: 25, 465 or 587?
    try:
        client = _smtp_session(url)
    except (OSError, smtplib.SMTPException) as exc:
        raise NotSentError(f"{_smtp_problem(exc)} connecting to {where}") from None
    try:
        client.send_message(message)
    except (smtplib.SMTPResponseException, smtplib.SMTPRecipientsRefused) as exc:
        raise NotSentError(f"{_smtp_problem(exc)} from {where}") from None
    except (OSError, smtplib.SMTPException) as exc:
        raise SendInDoubtError(
            f"{_smtp_problem(exc)} from {where} while the message was handed over;"
            " it may have arrived"
        ) from None
    finally:
        _close(client)


def smtp_port(url: SmtpUrl) -> int:
    """The port a send connects to: the URL's, else 465 (smtps) or 25."""
    return url.port or (465 if url.ssl else 25)


def _smtp_session(url: SmtpUrl) -> smtplib.SMTP:
    """Connected (and logged in) to the server; nothing of the message sent yet."""
    client_cls = smtplib.SMTP_SSL if url.ssl else smtplib.SMTP
    client = client_cls(url.host, smtp_port(url), timeout=SEND_TIMEOUT_SECONDS)
    try:
        if url.starttls:
            client.starttls()
        if url.username:
            client.login(url.username, url.password)
    except BaseException:
        _close(client)
        raise
    return client


def _close(client: smtplib.SMTP) -> None:
    try:
        client.quit()
    except (OSError, smtplib.SMTPException):
        client.close()  # the message's fate was decided before; a failed goodbye changes nothing


def _smtp_problem(exc: BaseException) -> str:
    """The SMTP error in words: its code (and the server's words, which hold no secret we
    sent), or the exception's type; never a part of the URL."""
    if isinstance(exc, smtplib.SMTPResponseException):
        said = exc.smtp_error
        said = said.decode(errors="replace") if isinstance(said, bytes) else str(said)
        return (
            f"{type(exc).__name__}: ({exc.smtp_code}, {said.splitlines()[0][:150] if said else ''})"
        )
    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        return "recipients refused"
    if isinstance(exc, socket.gaierror):
        return "host name not found"
    return type(exc).__name__


def post_json(url: WebhookUrl, body: dict[str, object], alerts: Sequence[PendingDelivery]) -> None:
    """POST a JSON body with the alert (or digest) id as Idempotency-Key. No connection or a
    non-2xx answer: :class:`NotSentError`; the connection lost after the request went out:
    :class:`SendInDoubtError`."""
    headers = {"Idempotency-Key": _key(alerts)}
    try:
        response = requests.post(
            url.reveal(), json=body, headers=headers, timeout=SEND_TIMEOUT_SECONDS
        )
        response.raise_for_status()
    except requests.RequestException as exc:
        if _before_the_wire(exc) or isinstance(exc, requests.HTTPError):
            raise NotSentError(_http_problem(exc)) from None
        raise SendInDoubtError(
            f"{_http_problem(exc)} after the request went out; it may have arrived"
        ) from None


def _before_the_wire(exc: requests.RequestException) -> bool:
    """No connection was made, so nothing was sent (DNS, refused, connect timeout)."""
    if isinstance(exc, requests.ConnectTimeout | requests.exceptions.InvalidURL):
        return True
    reason = getattr(exc.args[0] if exc.args else None, "reason", None)
    return isinstance(exc, requests.ConnectionError) and isinstance(
        reason, urllib3.exceptions.NewConnectionError
    )


# The structured fields of each alert a program reads (null when the finding has none):
# amounts as exact decimal strings in whole units of ``unit``, periods as ISO dates.
PAYLOAD_FIELDS = ("metric", "period_start", "period_end", "old_value", "new_value", "unit",
                  "guidance_low", "guidance_high", "document_url", "run_url")  # fmt: skip


def webhook_body(alerts: Sequence[PendingDelivery]) -> dict[str, object]:
    """The generic webhook's JSON: one alert row as the ``alerts`` view has it plus its
    structured fields (:data:`PAYLOAD_FIELDS`) and a Slack-compatible ``plain_text``, or a digest
    ``{"digest_id", "subject", "text", "alerts": [rows]}``."""
    if len(alerts) == 1:
        return _row(alerts[0])
    return {
        "digest_id": digest_key(alerts),
        "subject": digest_subject(alerts),
        "text": slack_body(alerts)["text"],
        "alerts": [_row(a) for a in alerts],
    }


def _row(alert: PendingDelivery) -> dict[str, object]:
    return {
        "alert_id": alert.alert_id,
        "kind": alert.kind,
        "issuer": alert.issuer,
        "subject": alert.subject,
        "message": alert.message,
        "created_at": alert.created_at.isoformat(),
        **{name: _field(alert.details.get(name)) for name in PAYLOAD_FIELDS},
        "text": slack_body([alert])["text"],
    }


def _field(value: object) -> str | None:
    return None if value is None or value == "" else str(value)


def slack_body(alerts: Sequence[PendingDelivery]) -> dict[str, object]:
    """Slack's incoming-webhook JSON (also understood by Mattermost and Teams connectors)."""
    one = [replace(a, subject=header_line(a.subject)) for a in alerts]
    if len(one) == 1:
        subject, text = one[0].subject, one[0].message
    else:
        subject, text = digest_subject(one), digest_text(one, bullet="•")
    # the markup we add (bold, bullets) around document text escaped by Slack's rules
    return {"text": f"*{slack_text(subject)}*\n{slack_text(text)}"}
