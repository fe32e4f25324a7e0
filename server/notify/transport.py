"""Sending one notice: through apprise, or as the signed generic webhook.

Every connection the sender opens for a notice goes through ``guarded``:
the host is resolved and each address checked (guard.py) at connect time,
so neither a name that resolves elsewhere since the channel was saved nor a
redirect reaches the server's own network.  The answer (or the error) is
kept on the outbox row with the URL's secret parts blanked out."""

from __future__ import annotations

import contextlib
import json
import logging
import re
import socket
import time

import requests
import urllib3.util.connection as urllib3_connection

from server.models import NotifyChannel, Outbox
from server.notify import channels, crypto, guard

MAX_ANSWER = 1000


class SendError(Exception):
    """The notice did not get through; ``permanent``: trying again will not help."""

    def __init__(self, text: str, permanent: bool = False):
        super().__init__(text)
        self.permanent = permanent


def send(settings, row: Outbox, channel: NotifyChannel) -> str:
    """Deliver ``row``; the receiver's answer.  Raises SendError."""
    try:
        url = crypto.unseal(settings, channel.sealed_url)
        channels.check(settings, url)
    except (crypto.Unreadable, ValueError) as exc:
        raise SendError(str(exc), permanent=True) from None
    try:
        with guarded(settings):
            if channel.scheme in channels.WEBHOOK:
                key = crypto.unseal(settings, channel.sealed_signing_key)
                return scrub(_webhook(settings, url, key, row), url)
            return scrub(_apprise(settings, url, row), url)
    except SendError as exc:
        raise SendError(scrub(str(exc), url), exc.permanent) from None
    except Exception as exc:  # noqa: BLE001 - whatever a plugin raises is this notice's failure
        raise SendError(scrub(f"{exc.__class__.__name__}: {exc}", url)) from None


def _asset(settings):
    import apprise  # 0.4 s to import: only a process that sends to a channel pays it

    # Nothing on disk (apprise would cache logins there); no file paths or
    # templates read from what a player typed.
    return apprise.AppriseAsset(
        storage_mode=apprise.PersistentStoreMode.MEMORY,
        allow_templates=False,
        secure_logging=True,
        service_timeout=settings["NOTIFY_TIMEOUT"],
    )


def _apprise(settings, url: str, row: Outbox) -> str:
    import apprise

    plugin = apprise.Apprise.instantiate(url, asset=_asset(settings), suppress_exceptions=True)
    if plugin is None:
        raise SendError("the channel address is no longer understood", permanent=True)
    timeout = settings["NOTIFY_TIMEOUT"]
    plugin.socket_connect_timeout = plugin.socket_read_timeout = timeout
    with apprise.LogCapture(level=logging.INFO) as captured:
        ok = plugin.notify(body=row.body_text or row.subject, title=row.subject)
        said = " ".join(
            line.split(" - ", 2)[-1].strip()
            for line in captured.getvalue().splitlines()
            if line.strip()
        )
    if not ok:
        raise SendError(scrub(said or "refused", url))
    return f"delivered by {plugin.service_name}: {said}".strip()[:MAX_ANSWER]


def webhook_body(row: Outbox) -> bytes:
    return json.dumps(
        {
            "id": row.message_id,
            "kind": row.kind,
            "game": row.game_id,
            "title": row.subject,
            "body": row.body_text,
        },
        separators=(",", ":"),
        ensure_ascii=False,
    ).encode()


def _webhook(settings, url: str, key: str, row: Outbox) -> str:
    body, stamp = webhook_body(row), str(int(time.time()))
    headers = {
        "Content-Type": "application/json",
        "User-Agent": "pbem-notify",
        crypto.TIMESTAMP_HEADER: stamp,
        crypto.SIGNATURE_HEADER: crypto.signature(key, stamp, body),
    }
    timeout = settings["NOTIFY_TIMEOUT"]
    try:
        answer = requests.post(
            url, data=body, headers=headers, timeout=(timeout, timeout), allow_redirects=False
        )
    except requests.RequestException as exc:
        raise SendError(f"{exc.__class__.__name__}: {exc}") from None
    text = f"{answer.status_code} {answer.reason}: {answer.text[:300]}"
    if 200 <= answer.status_code < 300:
        return text[:MAX_ANSWER]
    code = answer.status_code
    raise SendError(text[:MAX_ANSWER], permanent=400 <= code < 500 and code not in (408, 429))


@contextlib.contextmanager
def guarded(settings):
    """urllib3 (under requests, under apprise) connects only to public
    addresses meanwhile: checked on the very address it connects to."""
    if settings.get("NOTIFY_ALLOW_PRIVATE_HOSTS"):
        yield
        return
    original = urllib3_connection.create_connection

    def checked(address, *args, **kwargs):
        host, port = address
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        if not infos or not all(guard.is_public(info[4][0]) for info in infos):
            raise OSError(f"refused to connect to {host}: not a public address")
        return original((infos[0][4][0], port), *args, **kwargs)

    urllib3_connection.create_connection = checked
    try:
        yield
    finally:
        urllib3_connection.create_connection = original


def scrub(text: str, url: str) -> str:
    """``text`` without the URL and any long part of it (a token, a key, a
    password) that an error message may quote."""
    text = text.replace(url, "…")
    for part in sorted(set(re.split(r"[/:@?&=#+]", url)), key=len, reverse=True):
        if len(part) >= 8:
            text = text.replace(part, "…")
    return text[:MAX_ANSWER]
