"""Writing notices beside the mails, in the same transaction (Mailer calls
in here): a mail of a kind a channel asked for gets a notice on that
channel; a turn begins with a line on the game's table channel.

A turn notice holds the seat's clock like a turn mail (services/clock/reach.py):
the clock waits until one of the turn's notices, mail or channel, got
through.  Quiet hours put off every notice but the turn and the last call,
which come at once as the turn mail does."""

from __future__ import annotations

import datetime as dt
import uuid
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from server import wakeup
from server.db import db
from server.models import Game, NotifyChannel, Outbox, Seat, User, utcnow
from server.notify import channels, texts

# Mail kinds (compose.Mailer templates) and the channel event each tells of.
MAIL_EVENTS = {
    "turn": "turn",
    "reminder": "reminder",
    "final": "result",
    "talk": "talk",
    "takeback_request": "proposals",
    "moderation_notice": "proposals",
    "started": "lobby",
    "lobby_reminder": "lobby",
    "lobby_closed": "lobby",
}
URGENT = ("turn", "last_call")
OF_THE_TURN = ("turn", "reminder", "last_call")


def follow_mail(
    mailer,
    template: str,
    user: User | None,
    game: Game | None,
    context: dict,
    turn_of: dt.datetime | None,
    to_addr: str = "",
    holds_clock: bool = True,
) -> int:
    """Notices on ``user``'s own channels (the account of ``to_addr`` when the
    mail names no user) for a mail of kind ``template``; how many were written.
    ``holds_clock``: a turn notice holds the seat's clock until it got through."""
    event = MAIL_EVENTS.get(template)
    if event is None or game is None:
        return 0
    if user is None and to_addr:
        user = User.get_or_none(User.email == to_addr.strip().lower())
    if user is None or not user.verified:
        return 0
    if event == "reminder" and context.get("last_call"):
        event = "last_call"
    wanted = [c for c in channels.own_list(user) if event in (c.events or ())]
    if not wanted:
        return 0
    # A moderation notice tells what happened (no question): titled as news.
    title = "lobby" if template == "moderation_notice" else event
    text = texts.personal(
        user.language,
        event,
        game.name,
        prompt=context.get("prompt", ""),
        deadline=context.get("deadline", ""),
        url=context.get("seat_url") or context.get("url", ""),
        author=context.get("author", ""),
        text=context.get("text") or context.get("what", ""),
        title=title,
    )
    for channel in wanted:
        queue(
            mailer.settings,
            channel,
            event,
            text,
            game,
            recipient=user,
            turn_of=turn_of if event in OF_THE_TURN else None,
            holds_clock=holds_clock and event == "turn",
        )
    return len(wanted)


def any_for(game_id: int, user_id: int) -> bool:
    """Whether a turn of this player in this game has any channel to go to."""
    return (
        NotifyChannel.select()
        .where(
            ((NotifyChannel.user == user_id) & NotifyChannel.game.is_null())
            | (NotifyChannel.game == game_id)
        )
        .exists()
    )


def announce_turn(mailer, game: Game, seat: Seat) -> bool:
    """A line on the game's table channel saying whose turn it is; True when
    it stands in for the player's turn mail (they chose so)."""
    channel = channels.table_channel(game.id)
    if channel is None or "turn" not in (channel.events or ()):
        return False
    language = User.get_by_id(channel.user_id).language
    # A shared channel has no one zone: the deadline in UTC.
    deadline = f"{seat.deadline:%Y-%m-%d %H:%M} UTC" if seat.deadline else ""
    text = texts.table_turn(
        language, game.name, seat.user.name, deadline, f"{mailer.links.base_url}/games/{game.id}"
    )
    queue(
        mailer.settings,
        channel,
        "turn",
        text,
        game,
        recipient=seat.user,
        turn_of=seat.turn_started_at,
        holds_clock=seat.table_channel_only,
    )
    return seat.table_channel_only


def announce_result(mailer, game: Game) -> None:
    channel = channels.table_channel(game.id)
    if channel is None or "result" not in (channel.events or ()):
        return
    language = User.get_by_id(channel.user_id).language
    queue(
        mailer.settings,
        channel,
        "result",
        texts.table_result(language, game.name, f"{mailer.links.base_url}/games/{game.id}"),
        game,
    )


def queue_test(settings, channel: NotifyChannel, user: User) -> Outbox:
    return queue(settings, channel, "test", texts.test(user.language), None, urgent=True)


def queue(
    settings,
    channel: NotifyChannel,
    kind: str,
    text: texts.Text,
    game: Game | None,
    *,
    recipient: User | None = None,
    turn_of: dt.datetime | None = None,
    holds_clock: bool = False,
    urgent: bool = False,
    now: dt.datetime | None = None,
) -> Outbox:
    now = now or utcnow()
    due = now if urgent or kind in URGENT else after_quiet(channel, now)
    row = Outbox.create(
        game=game,
        kind=kind,
        to_addr=f"channel:{channel.id}",
        subject=text.title[:250],
        body_text=text.body,
        body_html="",
        channel=channel,
        recipient=recipient,
        message_id=f"<{uuid.uuid4().hex}@{settings['MAIL_ID_DOMAIN']}>",
        turn_of=turn_of,
        holds_clock=holds_clock,
        next_attempt_at=due,
        created_at=now,
    )
    if due <= now:  # a notice put off past quiet hours is found by a later look
        wakeup.outbox_written(db.obj)
    return row


def after_quiet(channel: NotifyChannel, now: dt.datetime) -> dt.datetime:
    """``now``, or the end of the channel's quiet hours (in its owner's zone)
    when ``now`` falls in them."""
    start, end = channel.quiet_from, channel.quiet_until
    if start is None or end is None or start == end:
        return now
    try:
        tz = ZoneInfo(User.get_by_id(channel.user_id).timezone)
    except (ZoneInfoNotFoundError, ValueError):
        tz = ZoneInfo("UTC")
    wall = now.replace(tzinfo=dt.UTC).astimezone(tz)
    if (wall.hour - start) % 24 >= (end - start) % 24:
        return now
    day = wall.date() if wall.hour < end else wall.date() + dt.timedelta(days=1)
    ends = dt.datetime.combine(day, dt.time(end), tzinfo=tz)
    return ends.astimezone(dt.UTC).replace(tzinfo=None)
