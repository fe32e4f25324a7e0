"""Rematches: any player of a finished game proposes to play it again with
the same players in the same seats and the same options (a new seed, so a
new deal).  Every other player is asked, on the game page and by mail; the
new game starts when all said yes.  One no ends it; silence for
REMATCH_HOURS ends it too (the scheduler's sweep lapses it).  Everybody
asked and the proposer are told how it ended.

The request mails go out on the proposer's behalf and count among their
invitations, but no invitation limit ever refuses a rematch: it
asks only players who sat at the table with the proposer.  What keeps it
from becoming a nuisance is that one request is open at a time and, after a
no, the next waits a day (REFUSED_WAIT).
"""

from __future__ import annotations

import datetime as dt
import secrets

from engine import get_game
from engine.words import N_, Words, msg
from server.db import db
from server.mail.compose import Mailer
from server.models import Game, Rematch, Seat, User, utcnow
from server.services import consent, games, question_links
from server.services.moderation import Forbidden
from server.services.moves import MoveRejected, NotFound
from server.services.what_a_seat_sees import deadline_text


class RematchError(MoveRejected):
    status = 400


REFUSED_WAIT = dt.timedelta(days=1)


def _seats(game: Game) -> list[Seat]:
    return list(Seat.select().where(Seat.game == game.id).order_by(Seat.index))


def _players(seats: list[Seat]) -> list[int]:
    return [s.user_id for s in seats if s.user_id is not None]


def _playable(seats: list[Seat]) -> bool:
    """Every seat is still a player's who stayed to the end, or a practice bot's."""
    return all(
        (s.user_id is not None and not s.withdrawn) or (s.user_id is None and s.bot) for s in seats
    )


def latest(game: Game) -> Rematch | None:
    return Rematch.select().where(Rematch.game == game.id).order_by(Rematch.id.desc()).first()


def box(
    game: Game,
    user,
    now: dt.datetime | None = None,
    seats: list[Seat] | None = None,
    maybe: bool = True,
) -> dict | None:
    """What the finished game's page shows ``user`` about a rematch; None:
    nothing.  ``seats``: the game's seats in order when the caller has them;
    ``maybe``: False when the caller knows the game has no rematch request."""
    if game.status != "finished" or not user.is_authenticated:
        return None
    seats = seats if seats is not None else _seats(game)
    if user.id not in _players(seats):
        return None
    now, last = now or utcnow(), latest(game) if maybe else None
    if last is not None and last.status == "started":
        return {"new_game": last.new_game_id}
    pending = last if last is not None and last.status == "open" and last.expires_at > now else None
    if pending is None:
        return {"may_propose": _playable(seats), "ended": last.status if last else ""}
    waiting = set(pending.asked) - set(pending.agreed)
    return {
        "open": pending,
        "asked": user.id in waiting,
        "proposer": User.get_by_id(pending.proposer_id).name,
        "waiting": [
            u.name
            for u in User.select(User.name).where(User.id.in_(list(waiting))).order_by(User.name)
        ],
        "expires": deadline_text(pending.expires_at, user.timezone, user.language),
    }


# -- proposing ------------------------------------------------------------------
def propose(game_id: int, user: User, mailer: Mailer, now: dt.datetime | None = None) -> str:
    now = now or utcnow()
    with db.atomic():
        game = Game.get_or_none(Game.id == game_id)
        if game is None:
            raise NotFound(N_("There is no such game."))
        seats = _seats(game)
        if user.id not in _players(seats):
            raise Forbidden(N_("Only the players of this game propose a rematch."))
        if game.status != "finished":
            raise RematchError(N_("Only a finished game is played again."))
        if not _playable(seats):
            raise RematchError(
                N_(
                    "A player left this game before its end; make a new game "
                    "and invite the players you want instead."
                )
            )
        last = latest(game)
        if last is not None and last.status == "started":
            raise RematchError(N_("This game has been played again already."))
        if last is not None and last.status == "open":
            if last.expires_at > now:
                raise RematchError(N_("A rematch is being asked already; wait for its answers."))
            _end(game, last, "lapsed", _lapsed_text(), mailer, now)
        if last is not None and last.status == "refused" and _refused_lately(last, now):
            raise RematchError(
                N_(
                    "A player said no to a rematch of this game less than a day ago; "
                    "ask again tomorrow."
                )
            )
        asked = sorted(set(_players(seats)) - {user.id})
        people = list(User.select().where(User.id.in_(asked)).order_by(User.id))
        rematch = Rematch.create(
            game=game.id,
            proposer=user.id,
            asked=asked,
            created_at=now,
            expires_at=consent.deadline(mailer.settings, "REMATCH_HOURS", 72, now),
        )
        if not asked:  # a practice game: nobody else to ask
            _start(game, rematch, user, mailer, now)
            return N_("The new game has started.")
        title = get_game(game.kind).title
        for person in people:
            mail_request(mailer, game, rematch, title, person, user)
    return N_("Your rematch is proposed: the other players are asked.")


def mail_request(
    mailer: Mailer, game: Game, rematch: Rematch, title: str, person: User, proposer: User
) -> None:
    """The request mail, on the proposer's behalf (counted as an invitation),
    answered by reply or by its link as well as on the game page."""
    asking = (game.id, question_links.REMATCH, rematch.id, person.id)
    reply_to = question_links.reply_to(mailer.settings, *asking)
    mailer.queue(
        "rematch",
        person.email,
        mailer.subject_for(game, title, N_("Rematch proposal")),
        {
            "name": person.name,
            "title": title,
            "proposer": proposer.name,
            "expires": deadline_text(rematch.expires_at, person.timezone, person.language),
            "game_url": f"{mailer.links.base_url}/games/{game.id}#rematch",
            "answer_url": question_links.url(mailer, *asking),
            "reply_to": reply_to,
        },
        game,
        person,
        reply_to=reply_to,
        author=proposer,
    )


def _refused_lately(rematch: Rematch, now: dt.datetime) -> bool:
    return (rematch.ended_at or rematch.created_at) > now - REFUSED_WAIT


# -- answering --------------------------------------------------------------------
def answer(
    game_id: int,
    rematch_id: int,
    user: User,
    agree: bool,
    mailer: Mailer,
    now: dt.datetime | None = None,
) -> str:
    now = now or utcnow()
    with db.atomic():
        rematch = consent.locked_request(Rematch, rematch_id, game_id)
        if rematch is None:
            raise NotFound(N_("There is no such request."))
        if user.id not in rematch.asked:
            raise Forbidden(N_("Only the players asked answer this request."))
        if rematch.status != "open" or rematch.expires_at <= now:
            raise RematchError(N_("This rematch request no longer holds."))
        game = Game.get_by_id(game_id)
        if not agree:
            _end(
                game,
                rematch,
                "refused",
                msg("%(who)s said no: there is no rematch.", who=user.name),
                mailer,
                now,
            )
            return N_("You said no: there is no rematch.")
        if consent.add_yes(Rematch, rematch, user.id, rematch.asked) is None:
            return N_("Your yes is noted; it waits for the other players.")
        _claim(rematch, "started", now)
        _start(game, rematch, User.get_by_id(rematch.proposer_id), mailer, now)
    return N_("Everybody agreed: the new game has started.")


def _start(game: Game, rematch: Rematch, proposer: User, mailer: Mailer, now: dt.datetime) -> Game:
    """The new game: same kind, name, options, clock and seats; a new seed.
    Its host is the old game's if they play, else the proposer."""
    seats = _seats(game)
    host = game.host_id if game.host_id in _players(seats) else proposer.id
    new = Game.create(
        kind=game.kind,
        name=game.name,
        host=host,
        seat_count=len(seats),
        options=game.options,
        seed=secrets.randbits(48),
        move_hours=game.move_hours,
        reminder_hours=game.reminder_hours,
        thread_id=mailer.thread_id(),
        clock_policy=game.clock_policy,
        night_from=game.night_from,
        night_until=game.night_until,
        language=game.language,
        created_at=now,
    )
    for seat in seats:
        Seat.create(
            game=new,
            index=seat.index,
            user=seat.user_id,
            joined_at=now,
            bot=None if seat.user_id else seat.bot,
        )
    Rematch.update(status="started", new_game=new.id, ended_at=now).where(
        Rematch.id == rematch.id
    ).execute()
    return games.start(new.id, User.get_by_id(host), mailer)


def _claim(rematch: Rematch, status: str, now: dt.datetime) -> None:
    """End the request once: of two answers or sweeps at the same moment one wins."""
    consent.close(
        Rematch, rematch, status, now, RematchError(N_("This rematch request no longer holds."))
    )


def _end(
    game: Game, rematch: Rematch, status: str, text: Words, mailer: Mailer, now: dt.datetime
) -> None:
    _claim(rematch, status, now)
    title = get_game(game.kind).title
    for person in User.select().where(User.id.in_([rematch.proposer_id, *rematch.asked])):
        mailer.rematch_ended(game, title, person, text, None)


def _lapsed_text() -> Words:
    return msg("Not every player answered in time: there is no rematch.")


# -- the scheduler ----------------------------------------------------------------
def sweep(mailer: Mailer, now: dt.datetime) -> int:
    """Requests not answered by all in time lapse; everybody involved is told."""

    def lapse(rematch: Rematch) -> int:
        _end(Game.get_by_id(rematch.game_id), rematch, "lapsed", _lapsed_text(), mailer, now)
        return 1

    return consent.sweep(
        Rematch.select().where((Rematch.status == "open") & (Rematch.expires_at <= now)),
        lapse,
        RematchError,
    )
