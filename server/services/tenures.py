"""Who held each seat when: a seat's tenures (models.Tenure).  The log, the
record, earlier positions and the result name the person who made each move
(the holder of the seat at that row), not the seat's holder today.

A tenure begins when the game starts ("joined"), when a moderator gives the
seat to someone else ("replaced") or when a bot takes over a departed seat
("took_over"); it ends at the row of the note that replaced, removed or
let the player resign.  A bot playing for an absent player who may come back
holds no tenure: its moves say "[bot for …]" in the log.
"""

from __future__ import annotations

from dataclasses import dataclass

from peewee import JOIN

from engine.bots import BOTS
from engine.words import msg
from server.db import Prepared
from server.i18n import say
from server.models import Game, Seat, Tenure, User


def begin_game(game: Game, seats: list[Seat]) -> None:
    """Every seat's first tenure, at the start (row 0)."""
    for seat in seats:
        Tenure.create(
            game=game.id,
            seat=seat.index,
            user=seat.user_id,
            bot=None if seat.user_id else seat.bot,
            from_seq=0,
            began="joined",
        )


def end(game: Game, index: int, seq: int, how: str) -> None:
    """The seat's current tenure ends at row ``seq`` (replaced, removed, resigned)."""
    (
        Tenure.update(to_seq=seq, ended=how)
        .where((Tenure.game == game.id) & (Tenure.seat == index) & Tenure.to_seq.is_null())
        .execute()
    )


def hand_over(
    game: Game,
    index: int,
    seq: int,
    user_id: int | None,
    bot: str | None = None,
    began: str = "replaced",
) -> None:
    """The seat changes hands at row ``seq``."""
    end(game, index, seq, "replaced")
    Tenure.create(game=game.id, seat=index, user=user_id, bot=bot, from_seq=seq, began=began)


@dataclass(frozen=True)
class Held:
    seat: int
    name: str  # the person's (or bot's) own name
    person: bool
    from_seq: int
    to_seq: int | None
    began: str
    ended: str


# Plain rows, not a Tenure and a User model each: only the name of the user.
TENURES = Prepared(
    lambda game_id: (
        Tenure.select(
            Tenure.seat,
            Tenure.user.alias("user_id"),
            Tenure.bot,
            Tenure.from_seq,
            Tenure.to_seq,
            Tenure.began,
            Tenure.ended,
            User.name.alias("user_name"),
        )
        .join(User, JOIN.LEFT_OUTER, on=(Tenure.user == User.id))
        .where(Tenure.game == game_id)
        .order_by(Tenure.seat, Tenure.from_seq, Tenure.id)
        .namedtuples()
    )
)


class Roster:
    """A game's tenures, seat by seat, asked for the names at a log row."""

    def __init__(self, held: list[Held], fallback: list[str]):
        self.fallback = fallback
        self.by_seat: dict[int, list[Held]] = {}
        for h in held:
            self.by_seat.setdefault(h.seat, []).append(h)

    def names_at(self, seq: int, language: str | None = None) -> list[str]:
        """The seats' names as of log row ``seq``: the person holding each seat
        then (a departed seat keeps its last person's name), "N, who took over
        from P" once a seat has changed hands."""
        names = list(self.fallback)
        for index, held in self.by_seat.items():
            people = [h for h in held if h.person]
            before = [h for h in people if h.from_seq < seq or h.from_seq == 0]
            if before and index < len(names):
                names[index] = self._long(before[-1], people[: people.index(before[-1])], language)
        return names

    def final_names(self, language: str | None = None) -> list[str]:
        """Each seat's last holder, with everybody who held it before."""
        names = list(self.fallback)
        for index, held in self.by_seat.items():
            if index < len(names) and (len(held) > 1 or held[0].person):
                names[index] = self._long(held[-1], held[:-1], language)
        return names

    @staticmethod
    def _long(last: Held, earlier: list[Held], language: str | None) -> str:
        if not earlier:
            return last.name
        return say(
            language,
            msg(
                "%(name)s, who took over from %(earlier)s",
                name=last.name,
                earlier=", ".join(h.name for h in earlier),
            ),
        )

    def tenures(self) -> list[Held]:
        return [h for index in sorted(self.by_seat) for h in self.by_seat[index]]


def roster(game: Game | int, fallback: list[str]) -> Roster:
    game_id = game if isinstance(game, int) else game.id
    held = []
    for row in TENURES.rows(game_id):
        person = row.user_id is not None
        bot = BOTS.get(row.bot or "")
        name = row.user_name if person else (bot.title if bot else "bot").capitalize()
        held.append(Held(row.seat, name, person, row.from_seq, row.to_seq, row.began, row.ended))
    return Roster(held, fallback)


def holder_at(game: Game, index: int, seq: int) -> int | None:
    """The user id of the person who held seat ``index`` at row ``seq``."""
    for row in TENURES.rows(game.id):
        if (
            row.seat == index
            and row.user_id is not None
            and row.from_seq < seq
            and (row.to_seq is None or seq <= row.to_seq)
        ):
            return row.user_id
    return None
