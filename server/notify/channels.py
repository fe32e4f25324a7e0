"""Checking, storing and listing channels.

A URL in apprise's form (discord://, slack://, matrix://, tgram://, ntfy://,
pover://, json://, form://) goes through apprise; an http(s):// URL is the
signed generic webhook (transport.py).  The URL is sealed when stored and
shown only masked; the webhook's signing key is shown once, when made."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from urllib.parse import urlsplit

from engine.words import N_
from server.db import Prepared, db
from server.models import Game, NotifyChannel, Outbox, User
from server.notify import crypto, guard

APPRISE_SCHEMES = frozenset(
    {
        "discord",
        "slack",
        "matrix",
        "matrixs",
        "tgram",
        "ntfy",
        "ntfys",
        "pover",
        "json",
        "jsons",
        "form",
        "forms",
    }
)
# Schemes whose host the player names: checked against private addresses.
# (The others post to their service's own fixed host.)
SELF_HOSTED = frozenset(
    {"matrix", "matrixs", "ntfy", "ntfys", "json", "jsons", "form", "forms", "http", "https"}
)
WEBHOOK = frozenset({"http", "https"})
EVENTS = ("turn", "reminder", "last_call", "result", "proposals", "talk", "lobby")
EVENT_NAMES = {
    "turn": N_("Your turn"),
    "reminder": N_("Reminders"),
    "last_call": N_("Last calls"),
    "result": N_("Results"),
    "proposals": N_("Proposals and takebacks"),
    "talk": N_("Table talk"),
    "lobby": N_("Lobby news"),
}
# A table channel is shared: it says whose turn it is and how games end.
TABLE_EVENTS = ("turn", "result")
MAX_URL = 1000


class ChannelError(ValueError):
    """A channel that cannot be saved; the message is for the form."""


@dataclass(frozen=True)
class Checked:
    url: str
    scheme: str
    masked: str
    place: str  # where it posts to (for the per-destination limit)


def check(settings, url: str) -> Checked:
    """The URL checked (ChannelError with a message for the form)."""
    try:
        return _check(settings, url)
    except guard.Refused as exc:
        raise ChannelError(str(exc)) from None
    except ValueError as exc:  # urlsplit's "Invalid IPv6 URL" and the like
        if isinstance(exc, ChannelError):
            raise
        raise ChannelError(N_("That channel address is not complete or not valid.")) from None


def _check(settings, url: str) -> Checked:
    url = (url or "").strip()
    if not url or len(url) > MAX_URL or any(ord(c) < 33 for c in url):
        raise ChannelError(N_("Enter one channel address (no spaces)."))
    scheme = url.split("://", 1)[0].lower() if "://" in url else ""
    if scheme in WEBHOOK:
        parts = urlsplit(url)
        host, port = parts.hostname or "", _port(parts)
        place = f"{scheme}://{host}:{port or ''}{parts.path}"
    elif scheme in APPRISE_SCHEMES:
        import apprise  # 0.4 s to import: only where a channel is checked or sent to

        plugin = apprise.Apprise.instantiate(url, suppress_exceptions=True)
        if plugin is None:
            raise ChannelError(N_("That channel address is not complete or not valid."))
        host, port = getattr(plugin, "host", "") or "", getattr(plugin, "port", None)
        place = plugin.url(privacy=False).split("?")[0]
    else:
        raise ChannelError(
            N_(
                "Use an apprise address (discord://, slack://, matrix://, "
                "tgram://, ntfy://, pover://, json://, form://) or an "
                "https:// address for a signed webhook."
            )
        )
    if scheme in SELF_HOSTED and (host or scheme in WEBHOOK):
        guard.check_host(settings, host, port)
        masked = f"{scheme}://{host}{f':{port}' if port else ''}/…"
    else:
        masked = plugin.url(privacy=True).split("?")[0][:120]
    return Checked(url, scheme, masked[:300], place)


def _port(parts) -> int | None:
    try:
        return parts.port
    except ValueError:
        raise ChannelError(N_("That channel address is not complete or not valid.")) from None


def clean_events(events, allowed=EVENTS) -> list[str]:
    return [e for e in allowed if e in set(events or ())]


def add(
    settings,
    user: User,
    url: str,
    events,
    quiet_from: int | None = None,
    quiet_until: int | None = None,
    game: Game | None = None,
) -> tuple[NotifyChannel, str]:
    """The new channel and, for a signed webhook, its signing key (to show
    once; "" otherwise)."""
    checked = check(settings, url)
    if game is None and own(user).count() >= settings["NOTIFY_MAX_CHANNELS"]:
        raise ChannelError(N_("You have as many channels as you may; remove one first."))
    if (quiet_from is None) != (quiet_until is None) or (
        quiet_from is not None and quiet_from == quiet_until
    ):
        raise ChannelError(N_("Quiet hours need a start and a different end, or neither."))
    key = crypto.new_signing_key() if checked.scheme in WEBHOOK else ""
    channel = NotifyChannel.create(
        user=user,
        game=game,
        scheme=checked.scheme,
        masked=checked.masked,
        sealed_url=crypto.seal(settings, checked.url),
        sealed_signing_key=crypto.seal(settings, key) if key else "",
        destination=crypto.destination(settings, checked.place),
        events=clean_events(events, TABLE_EVENTS if game is not None else EVENTS),
        quiet_from=quiet_from,
        quiet_until=quiet_until,
    )
    return channel, key


def own(user: User):
    return (
        NotifyChannel.select()
        .where((NotifyChannel.user == user.id) & NotifyChannel.game.is_null())
        .order_by(NotifyChannel.id)
    )


def table_channel(game_id: int) -> NotifyChannel | None:
    return TABLE_CHANNEL.first(game_id)


def own_list(user: User) -> list[NotifyChannel]:
    """``own``'s rows, read with SQL built once (every mail asks)."""
    return OWN_CHANNELS.rows(user.id)


# Asked for every turn mail.
TABLE_CHANNEL = Prepared(
    lambda game_id: NotifyChannel.select().where(NotifyChannel.game == game_id).limit(1)
)
OWN_CHANNELS = Prepared(lambda user_id: own(User(id=user_id)))


def set_table_channel(settings, game: Game, host: User, url: str) -> str:
    """The host's channel for the whole table, replacing the one before;
    returns the signing key of a webhook ("" for apprise)."""
    with db.atomic():
        NotifyChannel.delete().where(NotifyChannel.game == game.id).execute()
        _, key = add(settings, host, url, TABLE_EVENTS, game=game)
    return key


def remove(user: User, channel_id: int) -> bool:
    return (
        NotifyChannel.delete()
        .where((NotifyChannel.id == channel_id) & (NotifyChannel.user == user.id))
        .execute()
    ) == 1


def get_own(user: User, channel_id: int) -> NotifyChannel | None:
    return NotifyChannel.get_or_none(
        (NotifyChannel.id == channel_id) & (NotifyChannel.user == user.id)
    )


@dataclass(frozen=True)
class Health:
    """What the owner sees of a channel: its latest notice and, when notices
    have stopped getting through, since when."""

    last: Outbox | None
    failing_since: dt.datetime | None


def health(channel: NotifyChannel) -> Health:
    rows = list(
        Outbox.select(
            Outbox.id,
            Outbox.status,
            Outbox.attempts,
            Outbox.last_error,
            Outbox.smtp_reply,
            Outbox.created_at,
            Outbox.sent_at,
        )
        .where(Outbox.channel == channel.id)
        .order_by(Outbox.id.desc())
        .limit(20)
    )
    since = None
    for row in rows:
        if row.status == "sent":
            break
        if row.status == "failed" or (row.status == "deferred" and row.attempts >= 2):
            since = row.created_at
    return Health(rows[0] if rows else None, since)
