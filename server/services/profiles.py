"""Players' profiles, the archive of finished games and the leaderboards, as
plain data for the pages (web/people.py).

What a profile shows is its player's choice (User.show_*); the player sees
all of their own.  A game in progress is listed by name, kind and players
only: nothing of its position, hidden or not.  A private game (Game.private)
is in no archive and on nobody's profile but its own players'.  Every name
list of a game names each seat's holders in turn (services/tenures.py).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from peewee import fn

from engine import GAMES
from engine.words import N_, msg
from server.i18n import LANGUAGES
from server.models import Game, PlayerRating, RatingChange, Tenure, User
from server.services import ratings
from server.services.what_a_seat_sees import outcome_rows, result_names, seat_names

PAGE_SIZE = 20
BOARD_SIZE = 50
MAX_PAGE = 10_000


class BadFilter(ValueError):
    """A filter or page that cannot be read: the page answers 400."""


@dataclass
class Listed:
    """One game in a list: never more than its public face."""

    game: Game
    title: str
    names: list[str]
    result: list[dict] = field(default_factory=list)  # finished games only
    rank: int | None = None  # the profile's player's, when rated
    change: float | None = None  # their shown rating's change, when rated


def save_choices(
    user: User,
    languages: list[str],
    show_languages: bool,
    show_playing: bool,
    show_finished: bool,
    show_ratings: bool,
) -> None:
    spoken = [code for code in LANGUAGES if code in languages]
    User.update(
        languages=spoken,
        show_languages=show_languages,
        show_playing=show_playing,
        show_finished=show_finished,
        show_ratings=show_ratings,
    ).where(User.id == user.id).execute()


def player(user_id: int) -> User | None:
    if not 0 < user_id < 2**62:  # SQLite refuses ids past 2^63
        return None
    return User.get_or_none(User.id == user_id)


def _their_games(user: User, statuses: tuple[str, ...], own: bool):
    """Games ``user`` held a seat in (any tenure), public ones unless ``own``."""
    held = Tenure.select(Tenure.game).where(Tenure.user == user.id)
    query = Game.select().where(Game.id.in_(held) & Game.status.in_(statuses))
    return query if own else query.where(Game.private == False)  # noqa: E712 (SQL)


def playing(user: User, own: bool, language: str) -> list[Listed]:
    games = _their_games(user, ("active",), own).order_by(Game.id.desc()).limit(PAGE_SIZE)
    return [_listed(game, language) for game in games]


def finished(user: User, own: bool, page: int, language: str) -> tuple[list[Listed], bool]:
    """A page of ``user``'s finished games, newest first; and whether more follow."""
    games = list(
        _their_games(user, ("finished",), own)
        .order_by(Game.finished_at.desc(), Game.id.desc())
        .offset((page - 1) * PAGE_SIZE)
        .limit(PAGE_SIZE + 1)
    )
    changes = {
        c.game_id: c
        for c in RatingChange.select().where(
            (RatingChange.user == user.id) & RatingChange.game.in_([g.id for g in games])
        )
    }
    rows = []
    for game in games[:PAGE_SIZE]:
        listed = _listed(game, language, result=True)
        change = changes.get(game.id)
        if change is not None:
            listed.rank = change.rank
            listed.change = (change.mu_after - 3 * change.sigma_after) - (
                change.mu_before - 3 * change.sigma_before
            )
        rows.append(listed)
    return rows, len(games) > PAGE_SIZE


def _listed(game: Game, language: str, result: bool = False) -> Listed:
    names = result_names(game, seat_names(game), language)
    return Listed(
        game,
        GAMES[game.kind].title if game.kind in GAMES else game.kind,
        names,
        outcome_rows(game, names, language) if result else [],
    )


def ratings_of(user: User, settings) -> list[dict]:
    return [
        {
            "kind": row.kind,
            "title": GAMES[row.kind].title if row.kind in GAMES else row.kind,
            "shown": ratings.shown(row),
            "games": row.games,
            "provisional": ratings.provisional(row, settings),
        }
        for row in PlayerRating.select()
        .where((PlayerRating.user == user.id) & (PlayerRating.games > 0))
        .order_by(PlayerRating.kind)
    ]


# -- the archive ---------------------------------------------------------------
@dataclass(frozen=True)
class Filters:
    kind: str = ""
    player: str = ""
    since: dt.date | None = None
    until: dt.date | None = None
    page: int = 1

    @classmethod
    def read(cls, args) -> Filters:
        """From a query string; BadFilter on anything that does not fit."""
        kind = args.get("kind", "")
        if kind and kind not in GAMES:
            raise BadFilter(N_("There is no such game."))
        player = args.get("player", "").strip()
        if len(player) > 40 or any(ord(c) < 32 for c in player):
            raise BadFilter(N_("A player's name has at most 40 characters."))
        return cls(
            kind,
            player,
            _date(args.get("since", "")),
            _date(args.get("until", "")),
            page_number(args.get("page", "")),
        )


def _date(text: str) -> dt.date | None:
    if not text:
        return None
    try:
        day = dt.date.fromisoformat(text) if len(text) == 10 and text.isascii() else None
    except ValueError:
        day = None
    if day is None or not 2000 <= day.year <= 9000:
        raise BadFilter(N_("Give dates as YYYY-MM-DD, from the year 2000 on."))
    return day


def page_number(text: str) -> int:
    if not text:
        return 1
    if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= MAX_PAGE:
        raise BadFilter(msg("A page is a number from 1 to %(most)s.", most=MAX_PAGE))
    return int(text)


def archive(filters: Filters, viewer: User, language: str) -> tuple[list[Listed], bool]:
    """A page of the public finished games, newest first; and whether more follow."""
    query = Game.select().where((Game.status == "finished") & (Game.private == False))  # noqa: E712 (SQL)
    if filters.kind:
        query = query.where(Game.kind == filters.kind)
    if filters.since:
        query = query.where(Game.finished_at >= filters.since)
    if filters.until:
        query = query.where(Game.finished_at < filters.until + dt.timedelta(days=1))
    if filters.player:
        # Only players whose profile lists their finished games (or the viewer).
        found = User.select(User.id).where(
            fn.LOWER(User.name).contains(filters.player.lower())
            & (User.show_finished | (User.id == viewer.id))
        )
        query = query.where(Game.id.in_(Tenure.select(Tenure.game).where(Tenure.user.in_(found))))
    games = list(
        query.order_by(Game.finished_at.desc(), Game.id.desc())
        .offset((filters.page - 1) * PAGE_SIZE)
        .limit(PAGE_SIZE + 1)
    )
    return [_listed(g, language, result=True) for g in games[:PAGE_SIZE]], len(games) > PAGE_SIZE


# -- the leaderboard -------------------------------------------------------------
def leaderboard(kind: str, page: int, settings) -> tuple[list[dict], bool]:
    """A page of the players rated in ``kind`` who show their ratings, best
    shown (conservative) rating first."""
    shown = PlayerRating.mu - 3 * PlayerRating.sigma
    rows = list(
        PlayerRating.select(PlayerRating, User)
        .join(User)
        .where((PlayerRating.kind == kind) & (PlayerRating.games > 0) & User.show_ratings)
        .order_by(shown.desc(), PlayerRating.games.desc(), User.id)
        .offset((page - 1) * BOARD_SIZE)
        .limit(BOARD_SIZE + 1)
    )
    first = (page - 1) * BOARD_SIZE + 1
    return [
        {
            "place": first + i,
            "user": row.user,
            "shown": ratings.shown(row),
            "games": row.games,
            "provisional": ratings.provisional(row, settings),
        }
        for i, row in enumerate(rows[:BOARD_SIZE])
    ], len(rows) > BOARD_SIZE


def may_see_private(game: Game, user) -> bool:
    """Whether ``user`` (signed in or not) may see a private game's pages:
    the people who held a seat, the host, the site's moderators."""
    if not getattr(user, "is_authenticated", False):
        return False
    if game.host_id == user.id or user.is_moderator:
        return True
    return Tenure.select().where((Tenure.game == game.id) & (Tenure.user == user.id)).exists()
