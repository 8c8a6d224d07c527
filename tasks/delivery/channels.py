"""Alert delivery channels: e-mail over SMTP, a JSON webhook, a Slack-compatible webhook.

Each channel is configured from the environment (FILINGS_SMTP_URL, FILINGS_WEBHOOK_URL,
FILINGS_SLACK_WEBHOOK_URL) or from Prefect Secret blocks named in FILINGS_*_BLOCK settings.
Every send carries the alert id as an idempotency key (e-mail Message-ID, webhook
Idempotency-Key header and body) so a receiver can drop the rare repeat after a crash.
"""

from __future__ import annotations

import smtplib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formatdate
from urllib.parse import parse_qs, quote, unquote, urlsplit, urlunsplit

import requests

from tasks.config.settings import Settings
from tasks.core.enums import ChannelName
from tasks.core.errors import ConfigError
from tasks.core.records import PendingDelivery
from tasks.delivery.digest import digest_key, digest_subject, digest_text

SEND_TIMEOUT_SECONDS = 20
# Failures a delivery records and retries next run; anything else is a bug and propagates.
DELIVERY_ERRORS = (OSError, smtplib.SMTPException, requests.RequestException)


Send = Callable[[Sequence[PendingDelivery]], None]


@dataclass(frozen=True, slots=True)
class Channel:
    """A configured channel: its name, how to send alerts (one message for the alerts given:
    one alert, or a run's digest), and the secrets it holds."""

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
    # requests puts the full URL (a secret for webhooks) in its messages: keep the status or
    # the exception type and the host only.
    if isinstance(exc, requests.HTTPError) and exc.response is not None:
        return f"HTTP {exc.response.status_code} from {_host(exc.response.url)}"
    if isinstance(exc, requests.RequestException):
        where = _host(exc.request.url) if exc.request is not None and exc.request.url else ""
        return f"{type(exc).__name__} reaching {where}".strip()
    lines = str(exc).splitlines()
    return f"{type(exc).__name__}: {lines[0] if lines else ''}"[:300]


def _host(url: str | None) -> str:
    parts = urlsplit(url or "")
    return f"{parts.scheme}://{parts.hostname}" if parts.hostname else "the endpoint"


def channels_from_settings(settings: Settings) -> list[Channel]:
    """The configured channels: e-mail, JSON webhook, Slack webhook (each optional)."""
    channels = []
    smtp = _smtp_url(settings)
    if smtp is not None and settings.alert_email_to:
        sender, to = settings.alert_email_from, settings.alert_email_to
        secrets = tuple(s for s in (smtp, unquote(urlsplit(smtp).password or "")) if s)
        channels.append(
            Channel(ChannelName.EMAIL, lambda a: send_email(smtp, sender, to, a), secrets=secrets)
        )
    hook = _secret(settings.webhook_url, settings.webhook_url_block, "WEBHOOK_URL")
    if hook is not None:
        channels.append(
            Channel(ChannelName.WEBHOOK, lambda a: post_json(hook, webhook_body(a), a), (hook,))
        )
    slack = _secret(
        settings.slack_webhook_url, settings.slack_webhook_url_block, "SLACK_WEBHOOK_URL"
    )
    if slack is not None:
        channels.append(
            Channel(ChannelName.SLACK, lambda a: post_json(slack, slack_body(a), a), (slack,))
        )
    return channels


def _secret(value: object, block: str, what: str) -> str | None:
    """An environment secret (SecretStr) or, when a block is named, that Secret block's value."""
    if block:
        return load_secret_block(block, what)
    get = getattr(value, "get_secret_value", None)
    return None if get is None else str(get())


def _smtp_url(settings: Settings) -> str | None:
    """FILINGS_SMTP_URL, with the password from FILINGS_SMTP_PASSWORD_BLOCK when set."""
    url = _secret(settings.smtp_url, settings.smtp_url_block, "SMTP_URL")
    if url is None or not settings.smtp_password_block:
        return url
    password = load_secret_block(settings.smtp_password_block, "SMTP_PASSWORD")
    parts = urlsplit(url)
    user = parts.username or ""
    netloc = f"{user}:{quote(password, safe='')}@{parts.hostname}"
    netloc += f":{parts.port}" if parts.port else ""
    return urlunsplit(parts._replace(netloc=netloc))


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
    message["Subject"] = digest_subject(alerts)
    message["From"], message["To"] = sender, to
    message["Date"] = formatdate(usegmt=True)
    message["Message-ID"] = f"<{_key(alerts)}@filings-pipeline>"  # same id on a re-send
    message["Auto-Submitted"] = "auto-generated"  # no vacation replies
    message["X-Filings-Alert-Id"] = ", ".join(a.alert_id for a in alerts)
    body = alerts[0].message if len(alerts) == 1 else digest_text(alerts)
    message.set_content(body + "\n")
    return message


def send_email(smtp_url: str, sender: str, to: str, alerts: Sequence[PendingDelivery]) -> None:
    """Send alerts as one e-mail over SMTP (``smtp://user:pass@host:port[?starttls]`` or
    ``smtps://``)."""
    parts = urlsplit(smtp_url)
    message = email_message(sender, to, alerts)
    ssl = parts.scheme == "smtps"
    client_cls = smtplib.SMTP_SSL if ssl else smtplib.SMTP
    host, port = parts.hostname or "localhost", parts.port or (465 if ssl else 25)
    with client_cls(host, port, timeout=SEND_TIMEOUT_SECONDS) as client:
        if "starttls" in parse_qs(parts.query, keep_blank_values=True):
            client.starttls()
        if parts.username:
            client.login(unquote(parts.username), unquote(parts.password or ""))
        client.send_message(message)


def post_json(url: str, body: dict[str, object], alerts: Sequence[PendingDelivery]) -> None:
    """POST a JSON body with the alert (or digest) id as Idempotency-Key; non-2xx is a failed
    delivery."""
    headers = {"Idempotency-Key": _key(alerts)}
    response = requests.post(url, json=body, headers=headers, timeout=SEND_TIMEOUT_SECONDS)
    response.raise_for_status()


def webhook_body(alerts: Sequence[PendingDelivery]) -> dict[str, object]:
    """The generic webhook's JSON: one alert row as the ``alerts`` view has it, or a digest
    ``{"digest_id", "subject", "alerts": [rows]}``."""
    if len(alerts) == 1:
        return _row(alerts[0])
    return {
        "digest_id": digest_key(alerts),
        "subject": digest_subject(alerts),
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
    }


def slack_body(alerts: Sequence[PendingDelivery]) -> dict[str, object]:
    """Slack's incoming-webhook JSON (also understood by Mattermost and Teams connectors)."""
    if len(alerts) == 1:
        return {"text": f"*{alerts[0].subject}*\n{alerts[0].message}"}
    return {"text": f"*{digest_subject(alerts)}*\n{digest_text(alerts, bullet='•')}"}
