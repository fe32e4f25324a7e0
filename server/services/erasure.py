"""Deleting an account on its owner's request (Settings) or an operator's
(``pbem erase-account ADDRESS``).

The row stays: moves, tenures, ratings and table talk point to it, and the
records of finished games must still read.  What made it a person goes:
the address (freed, so it can sign up again as someone new), the password,
every way in (sessions, API tokens, channels), the profile, and the mail:
queued mail to the address is marked not sent, the bodies of mail sent to it
and the raw mails that came from it are deleted.  The name becomes "Former
player N" (models.FORMER_PLAYER, N the account's id), which every reader
sees in their own language, the same in every game and record.

A game in progress goes on, as its host chose (Game.departed_seat): the
table's bot plays the seat, as a moderator hands a departed seat to one
(services/bot_seats.py), or the seat passes on each turn, as a resigned
player's does.
Nothing other players wrote is changed.
"""

from __future__ import annotations

import datetime as dt
import secrets

import click
from flask import current_app
from flask.cli import with_appcontext

from engine import Event as EngineEvent
from engine.words import Words, msg, term
from server.db import db
from server.mail.compose import Mailer
from server.models import (
    ApiToken,
    DataExport,
    Event,
    Game,
    InboundMail,
    Invitation,
    NotifyChannel,
    Outbox,
    Seat,
    Tenure,
    User,
    Vacation,
    former_player_name,
    utcnow,
)
from server.services import accounts, open_games, sessions, tenures
from server.services import moderation as moderate
from server.services.what_a_seat_sees import bot_title

# The bot that takes over a deleted player's seat: the one offered to hosts.
SEAT_BOT = "heuristic"
# Outbox rows to the address that were still to go out end with this.
NOT_SENT = "not sent: the account was deleted"


def erased_address(user_id: int) -> str:
    """What the address column holds afterwards: unique, and no address
    (no "@"), so no form, mail or sign-up ever matches it."""
    return f"erased-account-{user_id}"


def erase(user: User, mailer: Mailer, now: dt.datetime | None = None) -> None:
    """Delete ``user`` as described above, in one transaction."""
    now = now or utcnow()
    address = user.email
    with db.atomic():
        if User.get_by_id(user.id).erased_at is not None:
            return
        _cancel_lobbies(user, mailer, now)
        _leave_lobbies(user)
        for game in _games_in_progress(user):
            _hand_seat_on(game, user, mailer, now)
        _rename_in_notes(user)
        _stop_mail(user, address)
        _close_ways_in(user, now)
        User.update(
            email=erased_address(user.id),
            name=former_player_name(user.id),
            password_hash=accounts.NO_PASSWORD,
            session_token=secrets.token_hex(16),
            email_verified_at=None,
            is_moderator=False,
            languages=[],
            show_languages=False,
            show_playing=False,
            show_finished=False,
            show_ratings=False,
            reminder_hours=None,
            quiet_from=None,
            quiet_until=None,
            digest_hour=None,
            next_digest_at=None,
            erased_at=now,
        ).where(User.id == user.id).execute()


def _cancel_lobbies(user: User, mailer: Mailer, now: dt.datetime) -> None:
    for game in Game.select().where((Game.host == user.id) & (Game.status == "open")):
        open_games.cancel(game.id, user, mailer, now)


def _leave_lobbies(user: User) -> None:
    lobbies = Game.select(Game.id).where(Game.status == "open")
    (
        Seat.update(user=None, joined_at=None)
        .where((Seat.user == user.id) & Seat.game.in_(lobbies))
        .execute()
    )


def _games_in_progress(user: User) -> list[Game]:
    return list(
        Game.select()
        .join(Seat, on=(Seat.game == Game.id))
        .where((Seat.user == user.id) & (Game.status == "active") & (Seat.withdrawn == False))  # noqa: E712
        .order_by(Game.id)
    )


def _hand_seat_on(game: Game, user: User, mailer: Mailer, now: dt.datetime) -> None:
    """The seat leaves its player, on the record: the bot plays it, or it
    passes on each turn, as the host chose (Game.departed_seat)."""
    seat = Seat.get((Seat.game == game.id) & (Seat.user == user.id))
    who = User.name.python_value(former_player_name(user.id))
    bot = SEAT_BOT if game.departed_seat != "passes" else None
    if bot:
        text = msg(
            "%(who)s deleted their account and left seat %(seat)s; "
            "the %(bot)s plays it from now on.",
            who=who,
            seat=seat.index + 1,
            bot=term(bot_title(bot)),
        )
    else:
        text = msg(
            "%(who)s deleted their account and left seat %(seat)s; "
            "it passes on each turn from now on.",
            who=who,
            seat=seat.index + 1,
        )
    note = {"note": "erase", "seat": seat.index, "bot": bot}
    new = moderate._note(game, game.seq, note, text, user, now, actor="player", seat=seat.index)
    if bot:
        tenures.hand_over(game, seat.index, new, None, bot, began="took_over")
    else:
        tenures.end(game, seat.index, new, "resigned")
    Seat.update(withdrawn=True, bot=bot, table_channel_only=False).where(
        Seat.id == seat.id
    ).execute()
    if game.to_move == seat.index:
        moderate._due_now(seat, now)
    moderate._tell(mailer, game, text, "", skip={seat.index})


def _rename_in_notes(user: User) -> None:
    """The log's notes (a proposal refused, a seat handed over) were written
    with the person's name in them: it becomes the pseudonym there too, so
    no record still names them.  Only whole values equal to the name change;
    what players wrote (table talk) is no note and stays as it is."""
    pseudonym = User.name.python_value(former_player_name(user.id))
    games = (
        Seat.select(Seat.game).where(Seat.user == user.id)
        | Tenure.select(Tenure.game).where(Tenure.user == user.id)
        | Event.select(Event.game).where(Event.user == user.id)
    )
    for note in Event.select().where((Event.kind == "note") & Event.game.in_(games)):
        action = _renamed(note.action, user.name, str(pseudonym))
        events = [_renamed_event(e, user.name, pseudonym) for e in note.events]
        if (action, events) != (note.action, note.events):
            Event.update(action=action, events=events).where(Event.id == note.id).execute()


def _renamed_event(data: dict, name: str, pseudonym: Words) -> dict:
    """The event written anew from its renamed words (its English text too)."""
    for key in ("words", "public_words"):
        if key in data:
            data = {**data, key: _renamed(data[key], name, pseudonym.to_json())}
    event = EngineEvent.from_json(data)
    if not isinstance(event.text, Words):
        event.text = event.text.replace(name, str(pseudonym))
    return event.to_json()


def _renamed(data, name: str, pseudonym):
    if isinstance(data, dict):  # a sentence's own words ("t", "p") are no name
        return {
            key: value if key in ("t", "p") else _renamed(value, name, pseudonym)
            for key, value in data.items()
        }
    if isinstance(data, list):
        return [_renamed(value, name, pseudonym) for value in data]
    return pseudonym if data == name else data


def _stop_mail(user: User, address: str) -> None:
    """Nothing more goes to the address; what it sent and got is deleted."""
    to_them = (Outbox.to_addr == address) | (Outbox.recipient == user.id)
    (
        Outbox.update(status="failed", permanent=True, last_error=NOT_SENT, claimed_until=None)
        .where(to_them & Outbox.status.in_(("queued", "deferred", "failed")))
        .execute()
    )
    (
        Outbox.update(to_addr=erased_address(user.id), body_text="", body_html="")
        .where(Outbox.to_addr == address)
        .execute()
    )
    InboundMail.delete().where(
        (InboundMail.user == user.id) | (InboundMail.from_addr == address)
    ).execute()
    Invitation.delete().where(Invitation.email == address).execute()


def _close_ways_in(user: User, now: dt.datetime) -> None:
    # Every seat link mailed to them stops (410), in every game.
    Seat.update(link_version=Seat.link_version + 1).where(Seat.user == user.id).execute()
    sessions.end_all(user.id)
    (
        ApiToken.update(revoked_at=now)
        .where((ApiToken.user == user.id) & ApiToken.revoked_at.is_null())
        .execute()
    )
    NotifyChannel.delete().where(NotifyChannel.user == user.id).execute()
    Vacation.delete().where(Vacation.user == user.id).execute()
    DataExport.delete().where(DataExport.user == user.id).execute()


@click.command("erase-account")
@click.argument("address")
@click.option("--yes", is_flag=True, help="Do not ask again.")
@with_appcontext
def erase_command(address: str, yes: bool):
    """Delete the account of ADDRESS on its owner's request (GDPR art. 17):
    games in progress go on with a bot in its seat, records keep it as
    "Former player N", its mail and ways in are gone, the address is free."""
    with db.connection_context():
        user = User.get_or_none(User.email == accounts.normal_email(address))
        if user is None:
            raise click.ClickException(f"there is no account for {address.strip()}")
        if not yes:
            click.confirm(
                f"Delete the account of {user.email} (id {user.id}) for good?", abort=True
            )
        erase(user, current_app.extensions["pbem_mailer"])
    click.echo(f"deleted: account {user.id} is now {former_player_name(user.id)}")
