"""Takebacks by consent: a player asks to take back their own move (their
last one, or an earlier one with every move after it, each named with whose
it is); every other player is asked, on the game page and by mail.  One no
ends it; silence for TAKEBACK_HOURS ends it (the scheduler's sweep lapses
it); when everybody has said yes the moves are undone as a moderator's undo
is (marked undone, the snapshot rebuilt from the log), on the record with a
note naming who asked and who agreed.

While a request is open the clock of the seat to move stands still: its
deadline is kept on the request and given back at the end, moved on by the
time the request was open (as a pause does).  A request holds only while
the game stays where it was asked (its note's ``seq``): any move or note
since makes it lapse, as it makes every older form stale.

An undo never removes a move its maker did not agree to lose: the players
asked include everybody whose move would go (``makers``), and a host's undo
proposal needs their yes too (services/proposals.py).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from functools import partial

from peewee import Case, Select, fn

from engine import Event as EngineEvent
from engine.words import N_, Words, listing, msg, nmsg
from server.db import Prepared, db
from server.i18n import say
from server.mail.compose import Mailer
from server.models import Event, Game, Seat, Takeback, User, utcnow
from server.services import (
    acting,
    consent,
    moderation,
    moves,
    question_links,
    state_store,
    what_a_seat_sees,
)

LISTED = 5  # own moves offered to take back, newest first


class TakebackError(moves.MoveRejected):
    status = 400


@dataclass(frozen=True)
class Offer:
    """One of the player's own moves they may ask to take back."""

    seq: int
    text: str  # what the move was, as the player reads it
    after: list[str]  # the moves after it: "Ann (log #58)"


def _live_moves(game: Game, limit: int):
    return list(
        Event.select(Event.id, Event.seq, Event.seat, Event.actor, Event.user, Event.events)
        .where((Event.game == game.id) & (Event.kind == "move") & (Event.undone == False))  # noqa: E712 (SQL)
        .order_by(Event.seq.desc())
        .limit(limit)
    )


def offers(
    game: Game, seat: Seat, language: str | None = None, names: list[str] | None = None
) -> list[Offer]:
    """The moves of ``seat``'s player that they may ask to take back, newest
    first.  ``names``: the seats' names when the caller has them."""
    if game.status != "active" or not acting.may_act(seat, seat.user_id).ok:
        return []
    # Only the rows the offers name: the newest down to the oldest listed
    # move, with the events of the listed ones.
    rows = OFFER_ROWS.rows(game.id, seat.index, seat.user_id, moderation.UNDO_MAX, LISTED)
    if not rows:
        return []
    names = names or what_a_seat_sees.seat_names(game)
    # Each later move is named once, however many offers list it.
    later = [say(language, _named_move(names[r.seat], r.seq)) for r in rows]
    return [
        Offer(
            row.seq,
            " ".join(what_a_seat_sees.event_texts(row.events, seat.index, names, language))
            or f"#{row.seq}",
            later[:at][::-1],
        )
        for at, row in enumerate(rows)
        if _own(row, seat)
    ]


def _offer_rows(game_id: int, seat: int, user_id: int, limit: int, listed: int):
    """The last ``limit`` live moves ("live"), newest first, down to the
    oldest of the seat's player's own ``listed`` newest ones ("own"); the
    events (JSON text) of those own moves only."""
    live = (
        Event.select(Event.seq, Event.seat, Event.actor, Event.user.alias("user_id"), Event.events)
        .where((Event.game == game_id) & (Event.kind == "move") & (Event.undone == False))  # noqa: E712 (SQL)
        .order_by(Event.seq.desc())
        .limit(limit)
        .cte("live")
    )
    own = (
        Select([live], [live.c.seq])
        .where((live.c.actor == "player") & (live.c.seat == seat) & (live.c.user_id == user_id))
        .order_by(live.c.seq.desc())
        .limit(listed)
        .cte("own")
    )
    events = Case(None, [(live.c.seq.in_(Select([own], [own.c.seq])), live.c.events)])
    return (
        Select(
            [live], [live.c.seq, live.c.seat, live.c.actor, live.c.user_id, events.alias("events")]
        )
        .where(live.c.seq >= Select([own], [fn.MIN(own.c.seq)]))
        .order_by(live.c.seq.desc())
        .with_cte(live, own)
        .bind(db)  # not a model's query: the database says how to write it
        .namedtuples()
    )


# Plain rows, not models, and only those the offers name (a dozen, not fifty).
OFFER_ROWS = Prepared(_offer_rows)


def _own(row: Event, seat: Seat) -> bool:
    return row.actor == "player" and row.seat == seat.index and row.user_id == seat.user_id


def makers(rows) -> set[int]:
    """The people who made these moves themselves (not the clock, a bot, a moderator)."""
    return {r.user_id for r in rows if r.actor == "player" and r.user_id}


def makers_of_last(game: Game, count: int) -> set[int]:
    """Who made the last ``count`` moves (a host's undo proposal asks them too)."""
    return makers(_live_moves(game, max(count, 0)))


def open_takeback(game: Game, now: dt.datetime | None = None) -> Takeback | None:
    """The request waiting for answers, if the game is still where it was asked."""
    found = OPEN_TAKEBACK.first(game.id, game.seq)
    if found is None or found.expires_at <= (now or utcnow()):
        return None
    return found


OPEN_TAKEBACK = Prepared(
    lambda game_id, seq: (
        Takeback.select()
        .where((Takeback.game == game_id) & (Takeback.status == "open") & (Takeback.seq == seq))
        .order_by(Takeback.id.desc())
        .limit(1)
    )
)


def describe(game: Game, takeback: Takeback, language: str | None = None) -> str:
    """The request as its note says it, in ``language``."""
    note = Event.get_or_none((Event.game == game.id) & (Event.seq == takeback.seq))
    if note is None:
        return ""
    return " ".join(
        EngineEvent.from_json(data).text_for(None, [], partial(say, language))
        for data in note.events
    )


# -- asking -------------------------------------------------------------------
def ask(
    game_id: int,
    user: User,
    seq: int,
    back_to: int,
    *,
    mailer: Mailer,
    now: dt.datetime | None = None,
) -> str:
    """``user`` asks to take back their move at log row ``back_to`` and every
    move after it."""
    now = now or utcnow()
    with db.atomic():
        game, seat = _game_and_seat(game_id, user, seq)
        if game.paused:
            raise TakebackError(N_("The game is paused; ask when it goes on."))
        if open_takeback(game, now) is not None:
            raise TakebackError(N_("A takeback is being asked already; wait for its answers."))
        for stale in Takeback.select().where(
            (Takeback.game == game.id) & (Takeback.status == "open")
        ):
            # Run out but not swept yet: it ends first and gives its clock back.
            _end(game, stale, "lapsed", None, None, mailer, now, note=False)
        rows = _rows_back_to(game, seat, back_to)
        asked = _asked(game, user, rows)
        seqs = sorted(r.seq for r in rows)
        if not asked:  # nobody else plays (a practice game): nobody to ask
            return _take_back(game, user, seqs, [], mailer, now)
        names = what_a_seat_sees.seat_names(game)
        later = [
            _named_move(names[r.seat], r.seq)
            for r in sorted(rows, key=lambda r: r.seq)[1:]
            if r.seat is not None
        ]  # moves: every one has its seat
        text = _request_text(user, back_to, later)
        new = moderation.note(
            game,
            seq,
            {"note": "takeback_request", "seqs": seqs},
            text,
            user,
            now,
            actor="player",
            seat=seat.index,
        )
        takeback = Takeback.create(
            game=game.id,
            requester=user.id,
            seat=seat.index,
            seqs=seqs,
            asked=sorted(asked),
            seq=new,
            created_at=now,
            expires_at=consent.deadline(mailer.settings, "TAKEBACK_HOURS", 24, now),
            **_hold_clock(game),
        )
        _mail_the_asked(mailer, game, takeback, user, text)
    return N_("Your request is on the record: the other players are asked.")


def _game_and_seat(game_id: int, user: User, seq: int) -> tuple[Game, Seat]:
    game = Game.get_or_none(Game.id == game_id)
    if game is None:
        raise moves.NotFound(N_("There is no such game."))
    seat = Seat.get_or_none((Seat.game == game.id) & (Seat.user == user.id))
    if seat is None or not acting.may_act(seat, user.id).ok:  # resigned, removed
        raise moderation.Forbidden(N_("Only the players of this game take back their moves."))
    if game.status != "active":
        raise TakebackError(N_("Only a game in progress takes moves back."))
    if game.seq != seq:
        raise moves.StaleMove(N_("The game has changed since this page was made."))
    return game, seat


def _rows_back_to(game: Game, seat: Seat, back_to: int) -> list[Event]:
    rows = _live_moves(game, moderation.UNDO_MAX)
    upto = [r for r in rows if r.seq >= back_to]
    if not upto or upto[-1].seq != back_to or not _own(upto[-1], seat):
        raise TakebackError(N_("Choose one of your own moves offered on the game page."))
    return upto


def _asked(game: Game, user: User, rows: list[Event]) -> set[int]:
    """Every other player still in the game, and whoever made a move that goes."""
    playing = {
        s.user_id
        for s in Seat.select(Seat.user).where(
            (Seat.game == game.id)
            & (Seat.withdrawn == False)  # noqa: E712 (SQL)
            & Seat.user.is_null(False)
        )
    }
    return (playing | makers(rows)) - {user.id}


def _named_move(who: str, seq: int) -> Words:
    return msg("%(who)s (log #%(seq)s)", who=who, seq=seq)


def _request_text(user: User, back_to: int, later: list[Words]) -> Words:
    if not later:
        return msg(
            "%(who)s asks to take back their move (log #%(seq)s); it happens when every "
            "other player agrees.",
            who=user.name,
            seq=back_to,
        )
    return nmsg(
        "%(who)s asks to take back their move (log #%(seq)s) and the move after it: "
        "%(later)s; it happens when every other player agrees.",
        "%(who)s asks to take back their move (log #%(seq)s) and the %(n)s moves after "
        "it: %(later)s; it happens when every other player agrees.",
        len(later),
        who=user.name,
        seq=back_to,
        later=listing(later),
    )


def _hold_clock(game: Game) -> dict:
    """Stop the clock of the seat to move; what it had is kept on the request."""
    if game.to_move is None:
        return {}
    seat = Seat.get((Seat.game == game.id) & (Seat.index == game.to_move))
    Seat.update(deadline=None, next_reminder_at=None).where(Seat.id == seat.id).execute()
    return {
        "held_seat": seat.index,
        "held_deadline": seat.deadline,
        "held_reminder": seat.next_reminder_at,
    }


def _mail_the_asked(
    mailer: Mailer, game: Game, takeback: Takeback, user: User, text: Words
) -> None:
    title = state_store.rules(game).title
    url = f"{mailer.links.base_url}/games/{game.id}#takeback"
    for person in User.select().where(User.id.in_(takeback.asked)):
        asking = (game.id, question_links.TAKEBACK, takeback.id, person.id)
        reply_to = question_links.reply_to(mailer.settings, *asking)
        mailer.queue(
            "takeback_request",
            person.email,
            mailer.subject_for(game, title, N_("Takeback request")),
            {
                "name": person.name,
                "title": title,
                "what": say(person.language, text),
                "url": url,
                "expires": what_a_seat_sees.deadline_text(
                    takeback.expires_at, person.timezone, person.language
                ),
                "answer_url": question_links.url(mailer, *asking),
                "reply_to": reply_to,
            },
            game,
            user=person,
            reply_to=reply_to,
        )


# -- answering ----------------------------------------------------------------
def answer(
    game_id: int,
    user: User,
    takeback_id: int,
    seq: int,
    agree: bool,
    *,
    mailer: Mailer,
    now: dt.datetime | None = None,
) -> str:
    now = now or utcnow()
    with db.atomic():
        game = Game.get_or_none(Game.id == game_id)
        takeback = consent.locked_request(Takeback, takeback_id, game_id)
        if game is None or takeback is None:
            raise moves.NotFound(N_("There is no such request."))
        if game.seq != seq or open_takeback(game, now) != takeback:
            raise moves.StaleMove(N_("This request no longer holds: the game has moved on."))
        if user.id not in takeback.asked:
            raise moderation.Forbidden(N_("Only the players asked answer this request."))
        requester = User.get_by_id(takeback.requester_id)
        if not agree:
            text = msg(
                "%(who)s said no to the takeback %(asker)s asked for; the game goes on.",
                who=user.name,
                asker=requester.name,
            )
            _end(game, takeback, "refused", text, user, mailer, now)
            return N_("You said no: nothing is taken back.")
        agreed = consent.add_yes(Takeback, takeback, user.id, takeback.asked)
        if agreed is None:
            return N_("Your yes is noted; it waits for the other players.")
        _claim(takeback, "done", now)
        return _take_back(game, requester, takeback.seqs, agreed, mailer, now)


def _take_back(
    game: Game,
    requester: User,
    seqs: list[int],
    agreed: list[int],
    mailer: Mailer,
    now: dt.datetime,
) -> str:
    """Undo the moves, as moderation.undo does, on the record."""
    names = [u.name for u in User.select().where(User.id.in_(agreed)).order_by(User.name)]
    said = dict(who=requester.name, first=seqs[0], last=seqs[-1], agreed=", ".join(names))
    text = (
        msg(
            "%(who)s took back their move (log #%(first)s to #%(last)s), agreed by %(agreed)s.",
            **said,
        )
        if names
        else msg("%(who)s took back their move (log #%(first)s to #%(last)s).", **said)
    )
    moderation.note(
        game,
        game.seq,
        {"note": "takeback", "seqs": seqs, "asked_by": requester.id, "agreed": agreed},
        text,
        requester,
        now,
        actor="player",
    )
    (
        Event.update(undone=True)
        .where((Event.game == game.id) & Event.seq.in_(seqs) & (Event.kind == "move"))
        .execute()
    )
    moderation.rebuild(game, now)
    moderation.tell(mailer, game, text, "", subject=N_("Takeback"))
    moderation.restart_turn(game, now, mailer)
    return (
        N_("The move is taken back; it is your turn again.")
        if not names
        else N_("Everybody agreed: the move is taken back.")
    )


def _claim(takeback: Takeback, status: str, now: dt.datetime) -> None:
    """End the request once: of two answers or sweeps at the same moment one wins."""
    consent.close(Takeback, takeback, status, now, _no_longer_holds())


def _no_longer_holds() -> moves.StaleMove:
    return moves.StaleMove(N_("This request no longer holds: the game has moved on."))


def _end(
    game: Game,
    takeback: Takeback,
    status: str,
    text: Words | None,
    user: User | None,
    mailer: Mailer,
    now: dt.datetime,
    note: bool = True,
) -> None:
    """The request ends without taking anything back; the clock runs again."""
    _claim(takeback, status, now)
    if note:
        if text is None or user is None:
            raise ValueError("a request that ends with a note needs its text and its user")
        moderation.note(
            game,
            game.seq,
            {"note": f"takeback_{status}", "takeback": takeback.id},
            text,
            user,
            now,
            actor="player" if status == "refused" else "timeout",
        )
        moderation.tell(mailer, game, text, "", subject=N_("Takeback"))
    _give_clock_back(game, takeback, now)


def _give_clock_back(game: Game, takeback: Takeback, now: dt.datetime) -> None:
    """The seat to move gets its deadline back, moved on by the time the
    request was open, if it is still that seat's turn and nothing else set it."""
    if (
        takeback.held_seat is None
        or takeback.held_deadline is None
        or game.to_move != takeback.held_seat
        or game.status != "active"
    ):
        return
    seat = Seat.get((Seat.game == game.id) & (Seat.index == takeback.held_seat))
    if seat.deadline is not None:
        return
    seat.deadline, seat.next_reminder_at = takeback.held_deadline, takeback.held_reminder
    until = min(now, game.paused_at) if game.paused and game.paused_at else now
    moderation.shift_clocks(game, [seat], takeback.created_at, max(until, takeback.created_at))


# -- the scheduler ------------------------------------------------------------
def sweep(mailer: Mailer, now: dt.datetime) -> int:
    """Requests nobody finished in time lapse (on the record); those the game
    moved past lapse quietly.  Either way the clock runs again."""
    return consent.sweep(
        Takeback.select().where(Takeback.status == "open"),
        partial(_lapse, mailer=mailer, now=now),
        moves.StaleMove,
    )


def _lapse(takeback: Takeback, mailer: Mailer, now: dt.datetime) -> int:
    game = Game.get_by_id(takeback.game_id)
    if game.seq != takeback.seq or game.status != "active":
        _end(game, takeback, "lapsed", None, None, mailer, now, note=False)
        return 1
    if takeback.expires_at > now:
        return 0
    requester = User.get_by_id(takeback.requester_id)
    text = msg(
        "Not every player answered the takeback %(asker)s asked for in time; the game goes on.",
        asker=requester.name,
    )
    _end(game, takeback, "lapsed", text, requester, mailer, now)
    return 1
