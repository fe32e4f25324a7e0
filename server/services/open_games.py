"""Finding a game: the lobbies listed among the open games, joining one from
the list, a host cancelling a lobby, and the host hearing who came and went.

A lobby is listed while it is open, its host made it public and a seat is
free (no person and no bot in it).  Each shows what it is (game, options,
seats, clock, language) and the range of its seated players' ratings in that
game, so a newcomer can find a table of their strength.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from peewee import JOIN

from engine import get_game
from engine.words import N_, Words, msg
from server.db import db
from server.mail.compose import Mailer
from server.models import Game, PlayerRating, Seat, User, utcnow
from server.services import games, ratings, reply_menu

LISTED = 100  # open games on one page, newest first


@dataclass(frozen=True)
class OpenGame:
    game: Game
    host: str
    seats: int
    free: int
    players: list[str]
    # The seated players' shown ratings in this game (lowest, highest), and
    # how many of them have none yet.
    ratings: tuple[float, float] | None = None
    unrated: int = 0


def listing(
    limit: int = LISTED,
    kind: str | None = None,
    language: str | None = None,
    clubs_first: tuple[int, ...] = (),
) -> list[OpenGame]:
    """The open public lobbies with a free seat, newest first; only those of
    game ``kind`` and table ``language`` when given.  The lobbies made for
    the clubs ``clubs_first`` (the reader's) come before the others."""
    query = (
        Game.select(Game, User)
        .join(User, on=(Game.host == User.id))
        .where((Game.status == "open") & (Game.public == True))  # noqa: E712 (SQL)
    )
    if kind:
        query = query.where(Game.kind == kind)
    if language:
        query = query.where(Game.language == language)
    found = list(query.order_by(Game.id.desc()).limit(limit))
    seats: dict[int, list[Seat]] = {g.id: [] for g in found}
    for seat in (
        Seat.select(Seat, User)
        .join(User, JOIN.LEFT_OUTER, on=(Seat.user == User.id))
        .where(Seat.game.in_(list(seats)))
        .order_by(Seat.index)
    ):
        seats[seat.game_id].append(seat)
    rated = _ratings(found, seats)
    rows = []
    for game in found:
        free = len([s for s in seats[game.id] if s.user_id is None and not s.bot])
        if free:
            people = [s.user_id for s in seats[game.id] if s.user_id]
            known = [rated[(game.kind, p)] for p in people if (game.kind, p) in rated]
            rows.append(
                OpenGame(
                    game,
                    game.host.name,
                    len(seats[game.id]),
                    free,
                    [s.user.name for s in seats[game.id] if s.user_id],
                    (min(known), max(known)) if known else None,
                    len(people) - len(known),
                )
            )
    rows.sort(key=lambda row: row.game.club_id not in clubs_first)  # stable: newest first
    return rows


def _ratings(found: list[Game], seats: dict[int, list[Seat]]) -> dict[tuple[str, int], float]:
    """The shown rating of each seated player in each listed game's kind."""
    people = {s.user_id for listed in seats.values() for s in listed if s.user_id}
    kinds = {g.kind for g in found}
    if not people:
        return {}
    return {
        (row.kind, row.user_id): ratings.shown(row)
        for row in PlayerRating.select().where(
            PlayerRating.user.in_(list(people)) & PlayerRating.kind.in_(list(kinds))
        )
    }


def join_listed(game_id: int, user: User, mailer: Mailer) -> tuple[Seat, bool]:
    """Take the first free seat of a listed lobby: (the seat, whether it is new).
    The host is told by mail."""
    with db.atomic():
        game = games.get_open_game(game_id)
        if not game.public:
            raise games.LobbyError(
                N_("This game is not among the open games; ask its host for the join link.")
            )
        mine = Seat.get_or_none((Seat.game == game.id) & (Seat.user == user.id))
        if mine is not None:
            return mine, False
        free = [
            s.index
            for s in Seat.select(Seat.index)
            .where((Seat.game == game.id) & Seat.user.is_null() & Seat.bot.is_null())
            .order_by(Seat.index)
        ]
        if not free:
            raise games.LobbyError(N_("Every seat of this game is taken; choose another game."))
        seat = games.join(game.id, user, free[0])
        tell_host(game, user, joined_text(user, seat), mailer)
    return seat, True


def join_seat(game_id: int, user: User, index: int, mailer: Mailer) -> Seat:
    """games.join from the lobby page; the host is told when the seat is new."""
    with db.atomic():
        before = Seat.get_or_none((Seat.game == game_id) & (Seat.user == user.id))
        seat = games.join(game_id, user, index)
        if before is None or before.index != seat.index:
            tell_host(seat.game, user, joined_text(user, seat), mailer)
    return seat


def leave(game_id: int, user: User, mailer: Mailer) -> None:
    """games.leave from the lobby page; the host is told."""
    with db.atomic():
        if games.leave(game_id, user):
            tell_host(Game.get_by_id(game_id), user, left_text(user), mailer)


def joined_text(user: User, seat: Seat) -> Words:
    return msg("%(name)s now sits in seat %(seat)s.", name=user.name, seat=seat.index + 1)


def left_text(user: User) -> Words:
    return msg("%(name)s left the game.", name=user.name)


def tell_host(game: Game, user: User, what: Words, mailer: Mailer) -> None:
    """Mail the host what ``user`` did in the lobby (not when the host did it).
    With replies on, the host may answer it with /start."""
    if game.host_id == user.id:
        return
    host = User.get_by_id(game.host_id)
    game = Game.get_by_id(game.id)
    people = (
        Seat.select(Seat, User)
        .join(User, JOIN.LEFT_OUTER, on=(Seat.user == User.id))
        .where(Seat.game == game.id)
        .order_by(Seat.index)
    )
    mailer.lobby_news(
        game,
        get_game(game.kind).title,
        host,
        what,
        [s.user.name if s.user_id else None for s in people],
        reply_menu.lobby_address(mailer.settings, game),
        author=user,
    )


def cancel(game_id: int, user: User, mailer: Mailer, now: dt.datetime | None = None) -> Game:
    """The host calls off a lobby that has not started; the players who had
    joined are told by mail.  It leaves the open games list at once."""
    with db.atomic():
        game = games.get_open_game(game_id)
        if game.host_id != user.id:
            raise games.LobbyError(N_("Only the host of this game may do that."))
        won = (
            Game.update(status="closed", closed_at=now or utcnow())
            .where((Game.id == game.id) & (Game.status == "open"))
            .execute()
        )
        if won != 1:
            raise games.LobbyError(N_("This game has already started."))
        game = Game.get_by_id(game.id)
        title = get_game(game.kind).title
        for person in (
            User.select()
            .join(Seat, on=(Seat.user == User.id))
            .where((Seat.game == game.id) & (User.id != user.id))
            .order_by(Seat.index)
        ):
            mailer.lobby_cancelled(game, title, person, user.name)
    return game
