"""Moderation services: what a site moderator, or the host of a game, may do
to keep it alive, and what a player may do to their own seat (resign).

Every action is on the record: it appends a note row (kind "note") to the
game's event log, which the game log shows to the players and replay skips,
and it mails the players it affects.  Every action also takes the ``seq`` its
form was made at and bumps it, so any older form (a second tab, a player's move
page from before an undo) is refused as stale.  Undo never deletes a row: it
marks moves undone and rebuilds the snapshot from the log.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from functools import partial

from peewee import fn

from engine import Event as EngineEvent
from engine.words import N_, Words, count, msg, nmsg, term
from server.db import db
from server.i18n import say, translate
from server.mail.compose import Mailer
from server.models import Event, Game, Seat, Snapshot, User, utcnow
from server.services import move_news, moves, ratings, state_store, tenures, what_a_seat_sees
from server.services.accounts import EMAIL, NO_PASSWORD
from server.services.clock import deadlines, own_time

REASON_MAX = 500
UNDO_MAX = 50


class ModerationError(moves.MoveRejected):
    """The action was not taken; the message says why."""

    status = 400


class Forbidden(moves.MoveRejected):
    status = 403


class NeedsAgreement(Forbidden):
    """A host who plays asked for what needs the other players' yes
    (services/proposals.py) or a site moderator."""


# -- who may do what ---------------------------------------------------------
def may_moderate(user, game: Game) -> bool:
    """Site moderators moderate every game; a host moderates their own."""
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    return bool(user.is_moderator) or game.host_id == user.id


# What a host who also plays in the game may not do alone: act against
# another player's seat, or hand any seat (their own left one included) to
# an account of their choosing.  A site moderator may (the powers are kept
# apart so that a host cannot bend a game they are trying to win).
NEEDS_NEUTRAL = {
    "default": "play another player's default move",
    "remove": "remove a player",
    "undo": "undo moves",
    "abandon": "abandon the game",
    "replace": "give a seat to someone else",
    # Time is an advantage too: a host who plays may give another player
    # more time alone, but not themselves.
    "extend": "give yourself more time",
    # A pause stops every clock, the host's own among them.
    "pause": "pause the game",
}


def plays_in(user, game: Game) -> bool:
    """Whether ``user`` holds a seat of ``game``, played or left: a host who
    resigned still holds theirs until it is given to someone else (with the
    other players' yes or by a site moderator); only then are they an
    ordinary host."""
    return Seat.select().where((Seat.game == game.id) & (Seat.user == user.id)).exists()


def may_alone(user, game: Game, action: str) -> bool:
    """May ``user`` take ``action`` in ``game`` without a site moderator?"""
    if not may_moderate(user, game):
        return False
    return bool(user.is_moderator) or action not in NEEDS_NEUTRAL or not plays_in(user, game)


def _require_neutral(user: User, game: Game, action: str, agreed_by=()) -> None:
    """``agreed_by``: every other player said yes to it (services/proposals.py)."""
    if not agreed_by and not may_alone(user, game, action):
        raise NeedsAgreement(
            f"You play in this game, so you may not {NEEDS_NEUTRAL[action]} "
            "alone: ask a site moderator, or propose it to the other players."
        )


def moderates_any(user) -> bool:
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    return (
        bool(user.is_moderator)
        or Game.select().where((Game.host == user.id) & (Game.status != "open")).exists()
    )


def is_autopass(seat: Seat) -> bool:
    """The seat plays its default action as soon as it is its turn: removed by
    a moderator, resigned, or marked absent by the clocks."""
    return bool(seat.withdrawn or seat.absent)


def set_moderator(email: str, value: bool) -> User:
    user = User.get_or_none(User.email == email.strip().lower())
    if user is None:
        raise ModerationError(
            msg("There is no account for %(email)s; they must sign up first.", email=email.strip())
        )
    User.update(is_moderator=value).where(User.id == user.id).execute()
    user.is_moderator = value
    return user


# -- the record ---------------------------------------------------------------
def _reason(text: str | None, required: bool = True) -> str:
    reason = " ".join((text or "").split())
    if required and len(reason) < 3:
        raise ModerationError(N_("Give a reason (a few words): the players will read it."))
    if len(reason) > REASON_MAX:
        raise ModerationError(msg("Keep the reason under %(most)s characters.", most=REASON_MAX))
    return reason


def _begin(game_id: int, user: User, seq: int, statuses=("active",)) -> Game:
    game = Game.get_or_none(Game.id == game_id)
    if game is None:
        raise moves.NotFound(N_("There is no such game."))
    if not may_moderate(user, game):
        raise Forbidden(N_("Only a moderator or the host of this game may do that."))
    if game.status not in statuses:
        raise ModerationError(
            N_("This game is over.")
            if game.status == "finished"
            else N_("This game has not started yet.")
        )
    if game.seq != seq:
        raise moves.StaleMove(N_("The game has changed since this page was made."))
    return game


def _note(
    game: Game,
    seq: int,
    note: dict,
    text: str,
    user: User,
    now: dt.datetime,
    actor: str = "moderator",
    seat: int | None = None,
    **changes,
) -> int:
    """Append a note to the log and apply ``changes`` to the game, if the game
    is still at ``seq``; the state does not change, so neither does the cache."""
    new = seq + 1
    claimed = (
        Game.update(seq=new, **changes).where((Game.id == game.id) & (Game.seq == seq)).execute()
    )
    if claimed != 1:
        raise moves.StaleMove(N_("The game has changed since this page was made."))
    Event.create(
        game=game.id,
        seq=new,
        seat=seat,
        kind="note",
        action=note,
        actor=actor,
        user=user.id,
        events=[EngineEvent(text).to_json()],
        created_at=now,
    )
    Snapshot.update(seq=new).where((Snapshot.game == game.id) & (Snapshot.seq == seq)).execute()
    game.seq = new
    for name, value in changes.items():
        setattr(game, name, value)
    return new


def _said(text: Words, reason: str) -> Words:
    """A note for the log and the mails; ``Words`` so each reader gets it in
    their language (the reason stays as the moderator wrote it)."""
    return msg("%(what)s Reason: %(reason)s", what=text, reason=reason) if reason else text


# -- seats, clocks and mail ---------------------------------------------------
def _seats(game: Game) -> list[Seat]:
    return list(Seat.select(Seat, User).join(User).where(Seat.game == game.id).order_by(Seat.index))


def _seat(game: Game, index: int | None) -> Seat:
    seat = (
        None if index is None else Seat.get_or_none((Seat.game == game.id) & (Seat.index == index))
    )
    if seat is None:
        raise ModerationError(
            N_("This game has no such seat.")
            if index is None
            else msg("This game has no seat %(number)s.", number=index + 1)
        )
    return seat


def _due_now(seat: Seat, now: dt.datetime) -> None:
    """An auto-passing seat's turn: due at once, so the scheduler plays it."""
    Seat.update(deadline=now, next_reminder_at=None, turn_started_at=now).where(
        Seat.id == seat.id
    ).execute()


def _shift(game: Game, seats, stopped_from: dt.datetime, stopped_to: dt.datetime) -> None:
    """The clocks stood still from ``stopped_from`` to ``stopped_to`` (to
    before from: undo that much of a stop): each keeps the clock time it had
    left, on its player's own time (own_time.after_stop)."""
    for seat in seats:
        user = seat.user if seat.user_id else None
        if seat.turn_started_at is not None:
            seat.turn_started_at += stopped_to - stopped_from
        if seat.deadline is not None:
            seat.deadline = own_time.after_stop(game, user, seat.deadline, stopped_from, stopped_to)
            if seat.next_reminder_at is not None:  # None: all of this turn's went out
                seat.next_reminder_at = own_time.first_reminder(
                    game, user, seat.deadline, stopped_to, deadlines.reminder_hours(game)
                )
        seat.save(only=[Seat.deadline, Seat.next_reminder_at, Seat.turn_started_at])


def _restart_turn(game: Game, now: dt.datetime, mailer: Mailer) -> None:
    """The seat to move gets a fresh clock and a turn mail (an auto-passing
    seat is due at once instead).  While paused the clock starts at resume."""
    Seat.update(deadline=None, next_reminder_at=None, turn_started_at=None).where(
        Seat.game == game.id
    ).execute()
    if game.to_move is None:
        return
    seat = _seat(game, game.to_move)
    if is_autopass(seat):
        _due_now(seat, now)
        return
    move_news.next_turn(game, now, mailer)
    if game.paused and game.paused_at is not None:  # pause() sets both
        _shift(game, [Seat.get_by_id(seat.id)], now, game.paused_at)


def _mail(
    mailer: Mailer,
    game: Game,
    user: User,
    what: str,
    reason: str,
    url: str,
    lines=(),
    subject: str = N_("Moderator note"),
    asking: dict | None = None,
) -> None:
    """``subject``: what the notice is, first in its subject (a msgid);
    ``asking``: the reader is asked to answer (``answer_url``, ``reply_to``)."""
    title = state_store.rules(game).title
    asking = asking or {}
    mailer.queue(
        "moderation_notice",
        user.email,
        mailer.subject_for(game, title, subject),
        {
            "name": user.name,
            "title": title,
            "what": say(user.language, what),
            "reason": reason,
            "lines": [
                line(user)
                if callable(line)
                else say(user.language, line if isinstance(line, Words) else term(line))
                for line in lines
            ],
            "url": url,
            "answer_url": asking.get("answer_url", ""),
            "reply_to": asking.get("reply_to", ""),
        },
        game,
        reply_to=asking.get("reply_to", ""),
    )


def _board_line(game: Game, state, names: list[str], index: int, user: User) -> str:
    """Section ``index`` of the board as everyone sees it, a line of a
    notice, in its reader's language."""
    section = what_a_seat_sees.board(game, state, None, names, user.language)[index]
    return f"{section.title}: " + "; ".join(f"{k} {v}" for k, v in section.rows)


def _deadline_line(seat: Seat, user: User) -> str:
    """A seat's deadline, as a notice's reader reads it (their language and zone)."""
    return translate(
        user.language,
        N_("Deadline of seat %(number)s: %(when)s"),
        {
            "number": seat.index + 1,
            "when": what_a_seat_sees.deadline_text(seat.deadline, user.timezone, user.language),
        },
    )


def _tell(
    mailer: Mailer,
    game: Game,
    what: str,
    reason: str,
    only=None,
    skip=(),
    lines=(),
    subject: str = N_("Moderator note"),
    asking: Callable[[User], dict | None] | None = None,
) -> None:
    """Mail ``what`` to the players (only the seat indexes in ``only``, if
    given); ``asking``: for a reader asked to answer, how (see _mail)."""
    for seat in _seats(game):
        if seat.user is None:  # _seats joins the users: never
            continue
        if (only is None or seat.index in only) and seat.index not in skip:
            url = mailer.links.seat_url(seat)
            ask = asking(seat.user) if asking else None
            _mail(mailer, game, seat.user, what, reason, url, lines, subject, ask)


def _game_url(mailer: Mailer, game: Game) -> str:
    return f"{mailer.links.base_url}/games/{game.id}"


# -- the actions --------------------------------------------------------------
def extend(
    game_id: int,
    user: User,
    seq: int,
    hours: int,
    reason: str,
    *,
    mailer: Mailer,
    now: dt.datetime | None = None,
    agreed_by=(),
) -> str:
    now, reason = now or utcnow(), _reason(reason)
    if not 1 <= hours <= 24 * 60:
        raise ModerationError(N_("Extend by 1 hour to 60 days."))
    with db.atomic():
        game = _begin(game_id, user, seq)
        seat = _seat(game, game.to_move)
        if seat.user_id == user.id:
            _require_neutral(user, game, "extend", agreed_by)
        if seat.withdrawn:
            raise ModerationError(N_("This seat passes automatically; replace the player instead."))
        name = what_a_seat_sees.seat_names(game)[seat.index]
        text = _said(
            nmsg(
                "%(who)s (moderator) gave %(name)s %(n)s more hour.",
                "%(who)s (moderator) gave %(name)s %(n)s more hours.",
                hours,
                who=user.name,
                name=name,
            ),
            reason,
        )
        _note(
            game,
            seq,
            {"note": "extend", "hours": hours, "reason": reason},
            text,
            user,
            now,
            seat=seat.index,
        )
        base = seat.deadline if seat.deadline and seat.deadline > now else now
        player = seat.user if seat.user_id else None
        seat.deadline = own_time.deadline_from(game, player, base, hours)  # clock hours
        seat.next_reminder_at = own_time.next_reminder(
            game, player, seat.deadline, now, now, deadlines.reminder_hours(game)
        )
        seat.mail_hold_since = None  # a clock held for a failing mail: the moderator decided
        seat.save(only=[Seat.deadline, Seat.next_reminder_at, Seat.mail_hold_since])
        deadline, paused = seat.deadline, game.paused
        _tell(
            mailer,
            game,
            text,
            reason,
            only={seat.index},
            lines=[
                lambda user: translate(
                    user.language,
                    N_("Your new deadline: %(when)s (plus the time the game stays paused)")
                    if paused
                    else N_("Your new deadline: %(when)s"),
                    {
                        "when": what_a_seat_sees.deadline_text(
                            deadline, user.timezone, user.language
                        )
                    },
                )
            ],
        )
    return f"{name} has {count(hours, 'more hour')}."


def play_default(
    game_id: int,
    user: User,
    seq: int,
    reason: str,
    *,
    mailer: Mailer,
    now: dt.datetime | None = None,
    agreed_by=(),
) -> str:
    now, reason = now or utcnow(), _reason(reason)
    with db.atomic():
        game = _begin(game_id, user, seq)
        _require_neutral(user, game, "default", agreed_by)
        seat = _seat(game, game.to_move)
        name = what_a_seat_sees.seat_names(game)[seat.index]
        text = _said(
            msg(
                "%(who)s (moderator) played the default action for %(name)s.",
                who=user.name,
                name=name,
            ),
            reason,
        )
        new = _note(
            game, seq, {"note": "default", "reason": reason}, text, user, now, seat=seat.index
        )
        kind = state_store.rules(game)
        action = kind.default_action(state_store.load_state(game))
        _tell(mailer, game, text, reason, only={seat.index})
        moves.play(
            game.id, seat.index, action, new, "moderator", now, mailer=mailer, user_id=user.id
        )
    return f"The default action was played for {name}."


def pause(
    game_id: int,
    user: User,
    seq: int,
    reason: str,
    *,
    mailer: Mailer,
    now: dt.datetime | None = None,
    agreed_by=(),
) -> str:
    now, reason = now or utcnow(), _reason(reason)
    with db.atomic():
        game = _begin(game_id, user, seq)
        if game.paused:
            raise ModerationError(N_("The game is paused already."))
        _require_neutral(user, game, "pause", agreed_by)
        text = _said(
            msg(
                "%(who)s (moderator) paused the game: the clocks stop and nobody can "
                "move until it resumes.",
                who=user.name,
            ),
            reason,
        )
        _note(
            game,
            seq,
            {"note": "pause", "reason": reason},
            text,
            user,
            now,
            paused=True,
            paused_at=now,
        )
        _tell(mailer, game, text, reason)
    return N_("The game is paused.")


def resume(
    game_id: int,
    user: User,
    seq: int,
    reason: str,
    *,
    mailer: Mailer,
    now: dt.datetime | None = None,
) -> str:
    now, reason = now or utcnow(), _reason(reason)
    with db.atomic():
        game = _begin(game_id, user, seq)
        if not game.paused:
            raise ModerationError(N_("The game is not paused."))
        paused_at = game.paused_at or now
        text = _said(msg("%(who)s (moderator) resumed the game.", who=user.name), reason)
        _note(
            game,
            seq,
            {"note": "resume", "reason": reason},
            text,
            user,
            now,
            paused=False,
            paused_at=None,
        )
        pending = list(Seat.select().where((Seat.game == game.id) & Seat.deadline.is_null(False)))
        _shift(game, pending, paused_at, max(now, paused_at))
        lines = [partial(_deadline_line, s) for s in pending]
        _tell(mailer, game, text, reason, lines=lines)
    return N_("The game goes on.")


def replace(
    game_id: int,
    user: User,
    seq: int,
    index: int,
    email: str,
    name: str,
    reason: str,
    *,
    mailer: Mailer,
    now: dt.datetime | None = None,
    agreed_by=(),
) -> str:
    """Give seat ``index`` to the account of ``email`` (made if there is none):
    the old player's links and page stop working, the new one gets the history."""
    now, reason, email = now or utcnow(), _reason(reason), email.strip().lower()
    with db.atomic():
        game = _begin(game_id, user, seq)
        seat = _seat(game, index)
        # Any seat, even a departed one: a host who plays and could hand a
        # seat to an account of their own would play two seats.
        _require_neutral(user, game, "replace", agreed_by)
        newcomer = _account(email, name, game)
        if newcomer.id == seat.user_id:
            raise ModerationError(
                msg("%(name)s already plays seat %(number)s.", name=newcomer.name, number=index + 1)
            )
        if Seat.get_or_none((Seat.game == game.id) & (Seat.user == newcomer.id)):
            raise ModerationError(
                msg("%(name)s already plays another seat of this game.", name=newcomer.name)
            )
        old = seat.user
        if old is None:
            raise ValueError(f"seat {index} of game {game.id} has no player to replace")
        text = _said(
            msg(
                "%(who)s (moderator) handed seat %(seat)s over from %(old)s to %(new)s.",
                who=user.name,
                seat=index + 1,
                old=old.name,
                new=newcomer.name,
            ),
            reason,
        )
        # The player who leaves reads it about themselves, not by their name.
        told_old = _said(
            msg(
                "%(who)s (moderator) handed your seat %(seat)s over to %(new)s.",
                who=user.name,
                seat=index + 1,
                new=newcomer.name,
            ),
            reason,
        )
        new = _note(
            game,
            seq,
            {"note": "replace", "seat": index, "old": old.id, "new": newcomer.id, "reason": reason},
            text,
            user,
            now,
            seat=index,
        )
        tenures.hand_over(game, index, new, newcomer.id)  # the log keeps naming the old
        Seat.update(
            user=newcomer,
            link_version=Seat.link_version + 1,
            joined_at=now,
            withdrawn=False,
            absent=False,
            timeouts_in_row=0,
            last_move_seq=0,
        ).where(Seat.id == seat.id).execute()
        _mail(
            mailer,
            game,
            old,
            told_old,
            reason,
            _game_url(mailer, game),
            [N_("Your links to this seat no longer work.")],
        )
        _tell(mailer, game, text, reason, skip={index})
        _welcome(mailer, game, Seat.get_by_id(seat.id), user, old.name, reason)
        if game.to_move == index:
            _restart_turn(game, now, mailer)
    return f"{newcomer.name} now plays seat {index + 1}; they have been mailed."


def _account(email: str, name: str, game: Game) -> User:
    if not re.match(EMAIL, email) or len(email) > 254:
        raise ModerationError(msg("'%(email)s' is not an email address.", email=email))
    user = User.get_or_none(User.email == email)
    if user is None:
        # No password: they sign in with the links in their mails.
        user = User.create(
            email=email,
            name=(name or "").strip()[:40] or email.split("@")[0],
            password_hash=NO_PASSWORD,
            timezone=table_zone(game),
        )
    return user


def table_zone(game: Game) -> str:
    """The time zone a newcomer to ``game`` most likely lives in: the one
    most of its players chose (a sign-up guesses from the browser; a
    replacement account has none).  UTC when nobody chose one; a tie goes
    to the zone named first in the alphabet, the same on every run."""
    zones = (
        User.select(User.timezone, fn.COUNT(User.id).alias("n"))
        .join(Seat, on=(Seat.user == User.id))
        .where((Seat.game == game.id) & (User.timezone != "UTC"))
        .group_by(User.timezone)
        .order_by(fn.COUNT(User.id).desc(), User.timezone)
        .limit(1)
    )
    row = zones.first()
    return row.timezone if row is not None else "UTC"


def _welcome(
    mailer: Mailer, game: Game, seat: Seat, moderator: User, old: str, reason: str
) -> None:
    """The newcomer's mail: the whole log as their seat may see it, and a link."""
    names = what_a_seat_sees.seat_names(game)
    history = [
        line.text
        for line in what_a_seat_sees.log_lines(game, seat.index, names, language=seat.user.language)
    ]
    title = state_store.rules(game).title
    mailer.queue(
        "moderation_seat",
        seat.user.email,
        mailer.subject_for(game, title, N_("A seat for you")),
        {
            "name": seat.user.name,
            "title": title,
            "seat": seat.index + 1,
            "moderator": moderator.name,
            "old": old,
            "reason": reason,
            "history": history,
            "your_turn": game.to_move == seat.index,
            "seat_url": mailer.links.seat_url(seat),
            # Turn mails wait until the address is confirmed.
            "confirm_url": ""
            if seat.user.verified
            else mailer.links.confirm_url(seat.user, f"/games/{game.id}"),
        },
        game,
    )


def remove(
    game_id: int,
    user: User,
    seq: int,
    index: int,
    reason: str,
    *,
    mailer: Mailer,
    now: dt.datetime | None = None,
    agreed_by=(),
) -> str:
    now, reason = now or utcnow(), _reason(reason)
    with db.atomic():
        game = _begin(game_id, user, seq)
        _require_neutral(user, game, "remove", agreed_by)
        seat = _seat(game, index)
        name = what_a_seat_sees.seat_names(game)[index]
        text = _said(
            msg(
                "%(who)s (moderator) removed %(name)s from seat %(seat)s; the seat "
                "passes automatically from now on.",
                who=user.name,
                name=name,
                seat=index + 1,
            ),
            reason,
        )
        _withdraw(
            game, seq, seat, {"note": "remove", "seat": index, "reason": reason}, text, user, now
        )
        _tell(mailer, game, text, reason)
    return f"{name} was removed; seat {index + 1} passes automatically."


def resign(
    game_id: int,
    user: User,
    seq: int,
    reason: str,
    *,
    mailer: Mailer,
    now: dt.datetime | None = None,
) -> str:
    """A player leaves their own seat; it auto-passes, the host may replace them."""
    now, reason = now or utcnow(), _reason(reason, required=False)
    with db.atomic():
        game = Game.get_or_none(Game.id == game_id)
        if game is None:
            raise moves.NotFound(N_("There is no such game."))
        seat = Seat.get_or_none((Seat.game == game.id) & (Seat.user == user.id))
        if seat is None:
            raise Forbidden(N_("You have no seat in this game."))
        if game.status != "active":
            raise ModerationError(N_("Only a game in progress can be left."))
        if game.seq != seq:
            raise moves.StaleMove(N_("The game has changed since this page was made."))
        text = _said(
            msg(
                "%(who)s resigned and left seat %(seat)s; the seat passes "
                "automatically from now on.",
                who=user.name,
                seat=seat.index + 1,
            ),
            reason,
        )
        _withdraw(
            game,
            seq,
            seat,
            {"note": "resign", "seat": seat.index, "reason": reason},
            text,
            user,
            now,
            actor="player",
        )
        _tell(mailer, game, text, reason, skip={seat.index})
        host = User.get_by_id(game.host_id)
        if not Seat.get_or_none((Seat.game == game.id) & (Seat.user == host.id)):
            _mail(mailer, game, host, text, reason, _game_url(mailer, game))
    return N_("You left the game; your seat passes automatically from now on.")


def _withdraw(
    game: Game,
    seq: int,
    seat: Seat,
    note: dict,
    text: str,
    user: User,
    now: dt.datetime,
    actor: str = "moderator",
) -> None:
    if seat.withdrawn:
        raise ModerationError(
            msg("Seat %(number)s has left the game already.", number=seat.index + 1)
        )
    new = _note(game, seq, note, text, user, now, actor=actor, seat=seat.index)
    tenures.end(game, seat.index, new, {"remove": "removed", "resign": "resigned"}[note["note"]])
    Seat.update(withdrawn=True).where(Seat.id == seat.id).execute()
    if game.to_move == seat.index:
        _due_now(seat, now)


def undo(
    game_id: int,
    user: User,
    seq: int,
    count: int,
    reason: str,
    *,
    mailer: Mailer,
    now: dt.datetime | None = None,
    agreed_by=(),
) -> str:
    """Mark the last ``count`` moves undone and rebuild the state from the log."""
    now, reason = now or utcnow(), _reason(reason)
    with db.atomic():
        game = _begin(game_id, user, seq, statuses=("active", "finished"))
        _require_neutral(user, game, "undo", agreed_by)
        if (game.outcome or {}).get("abandoned"):
            raise ModerationError(N_("This game was abandoned; it cannot be taken back."))
        rows = list(
            Event.select(Event.id, Event.seq)
            .where((Event.game == game.id) & (Event.kind == "move") & (Event.undone == False))  # noqa: E712 (SQL)
            .order_by(Event.seq.desc())
            .limit(max(count, 1))
        )
        if not 1 <= count <= min(UNDO_MAX, len(rows)):
            raise ModerationError(
                msg(
                    "There are %(moves)s moves to undo; undo 1 to %(most)s at a time.",
                    moves=len(rows),
                    most=min(UNDO_MAX, len(rows)) or 1,
                )
            )
        seqs = sorted(r.seq for r in rows)
        text = _said(
            nmsg(
                "%(who)s (moderator) undid the last move (log #%(first)s to #%(last)s).",
                "%(who)s (moderator) undid the last %(n)s moves (log #%(first)s to #%(last)s).",
                count,
                who=user.name,
                first=seqs[0],
                last=seqs[-1],
            ),
            reason,
        )
        _note(game, seq, {"note": "undo", "seqs": seqs, "reason": reason}, text, user, now)
        Event.update(undone=True).where(Event.id.in_([r.id for r in rows])).execute()
        _rebuild(game, now)
        _tell(mailer, game, text, reason)
        _restart_turn(game, now, mailer)
    return f"Undid {_moves(count)}."


def _moves(count: int) -> str:
    return "move" if count == 1 else f"{count} moves"


def _rebuild(game: Game, now: dt.datetime) -> None:
    """The snapshot and the game row from the log alone."""
    kind = state_store.rules(game)
    state = state_store.replay(game)
    state_store.save_snapshot(game, kind, state, game.seq)
    to_move = kind.to_move(state)
    changes = {
        "to_move": to_move,
        "prompt": "" if to_move is None else kind.prompt(state)[:250],
        "status": "finished" if to_move is None else "active",
        "outcome": kind.outcome(state).to_json() if to_move is None else None,
        "finished_at": now if to_move is None else None,
    }
    was_over = game.status == "finished"
    Game.update(**changes).where(Game.id == game.id).execute()
    for name, value in changes.items():
        setattr(game, name, value)
    if was_over and to_move is not None:
        ratings.game_reopened(game)
    elif to_move is None:
        ratings.game_ended(game, now)


def abandon(
    game_id: int,
    user: User,
    seq: int,
    reason: str,
    *,
    mailer: Mailer,
    now: dt.datetime | None = None,
    agreed_by=(),
) -> str:
    """End the game with the scores as they stand (the engine's standing);
    an abandoned game names no winner."""
    now, reason = now or utcnow(), _reason(reason)
    with db.atomic():
        game = _begin(game_id, user, seq)
        _require_neutral(user, game, "abandon", agreed_by)
        kind, names = state_store.rules(game), what_a_seat_sees.seat_names(game)
        state = state_store.load_state(game)
        board = what_a_seat_sees.board(game, state, None, names)
        standing = kind.standing(state).to_json()
        text = _said(
            msg(
                "%(who)s (moderator) abandoned the game: it ends with the scores as "
                "they stand, with no winner.",
                who=user.name,
            ),
            reason,
        )
        outcome = {
            "reason": text,
            "reason_words": text.to_json(),
            "winners": [],
            "scores": standing["scores"],
            "abandoned": True,
        }
        _note(
            game,
            seq,
            {"note": "abandon", "reason": reason},
            text,
            user,
            now,
            status="finished",
            finished_at=now,
            to_move=None,
            prompt="",
            outcome=outcome,
            paused=False,
            paused_at=None,
        )
        ratings.game_ended(Game.get_by_id(game.id), now)  # recorded as not rated
        Seat.update(deadline=None, next_reminder_at=None, turn_started_at=None).where(
            Seat.game == game.id
        ).execute()
        lines = [partial(_board_line, game, state, names, i) for i in range(len(board))]
        _tell(
            mailer,
            game,
            text,
            reason,
            lines=[msg("The board as it stands (%(title)s):", title=kind.title)] + lines,
        )
    return N_("The game is abandoned.")


# -- shared with the services that act on a game's record ---------------------
# Takebacks and proposals write their notes, mails and clock changes the way
# moderation does; these are the names they use for it.
begin = _begin
clean_reason = _reason
note = _note
noted_with_reason = _said
players_seats = _seats
shift_clocks = _shift
restart_turn = _restart_turn
rebuild = _rebuild
tell = _tell
