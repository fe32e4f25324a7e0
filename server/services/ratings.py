"""Ratings per game kind: openskill's Plackett-Luce model, which rates a
whole table at once from its final ranking, ties included.

A game is rated when it ends, in the transaction that ends it (moves.play),
and only once: the game row's ``rating`` goes from "" to the decision in a
conditional UPDATE, and each person rated gets one RatingChange row (unique
per game and player).  Which games count, and which seats (README, Ratings):

- abandoned games do not count (no result);
- games with a bot in a seat from the start (practice games, bots seated in
  the lobby) do not count: the table was not people against people;
- a seat whose person vanished (marked absent at the end, resigned, removed),
  a seat that changed hands, and a seat a bot played for its absent player
  are left out: the others are rated among themselves, by their final
  order, when at least two remain (a vanished player gets no rating change);
- private games count like any other: private hides the pages, not the result.

The displayed rating is the conservative one, mu - 3 sigma (openskill's
ordinal); it is provisional while a player has few rated games or a wide
sigma (settings RATING_PROVISIONAL_GAMES, RATING_PROVISIONAL_SIGMA).
``rebuild`` recomputes every rating from the finished games in the order
they ended (``pbem ratings-rebuild``); the same games in the same order give
the same ratings.
"""

from __future__ import annotations

from dataclasses import dataclass

import click
from flask.cli import with_appcontext
from openskill.models import PlackettLuce

from engine.words import N_
from server.db import db, locked
from server.models import Event, Game, PlayerRating, RatingChange, Seat, Tenure, utcnow
from server.services.state_store import replay, rules

# openskill's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300.
MODEL = PlackettLuce()

RATING_RULES = {
    "rated": N_("Rated."),
    "abandoned": N_("Not rated: abandoned."),
    "bots": N_("Not rated: bots played."),
    "too_few": N_("Not rated: fewer than two players stayed to the end."),
}


@dataclass(frozen=True)
class Placing:
    seat: int
    user_id: int
    rank: int  # 1: first; equal ranks: a tie


def decide(game: Game, outcome: dict | None = None) -> tuple[str, list[Placing]]:
    """Whether the game counts (a RATING_RULES key) and, if it does, who is
    rated at which rank.  ``outcome``: the game's own unless given (a replay)."""
    outcome = game.outcome if outcome is None else outcome
    if not outcome or outcome.get("abandoned"):
        return "abandoned", []
    held = list(Tenure.select().where(Tenure.game == game.id).order_by(Tenure.id))
    if any(t.bot and t.from_seq == 0 for t in held):
        return "bots", []
    placings = _ranked(outcome, _rated_seats(game, held))
    if len(placings) < 2:
        return "too_few", []
    return "rated", placings


def _rated_seats(game: Game, held: list[Tenure]) -> dict[int, int]:
    """seat -> user id of the seats that count: one person from start to end,
    there at the end, no bot moves for them."""
    by_seat: dict[int, list[Tenure]] = {}
    for tenure in held:
        by_seat.setdefault(tenure.seat, []).append(tenure)
    gone = {
        s.index
        for s in Seat.select(Seat.index).where(
            (Seat.game == game.id) & (Seat.absent | Seat.withdrawn)
        )
    }
    botted = {
        e.seat
        for e in Event.select(Event.seat).where(
            (Event.game == game.id)
            & (Event.actor == "bot")
            & (Event.kind == "move")
            & (Event.undone == False)
        )
    }  # noqa: E712 (SQL)
    return {
        seat: only[0].user_id
        for seat, only in by_seat.items()
        if len(only) == 1
        and only[0].user_id is not None
        and only[0].to_seq is None
        and seat not in gone
        and seat not in botted
    }


def _ranked(outcome: dict, seats: dict[int, int]) -> list[Placing]:
    """Best first by (winner, score, tiebreak); equal keys share a rank."""
    winners = set(outcome.get("winners", []))
    keys = {
        s["seat"]: (s["seat"] in winners, s["total"], s["tiebreak"])
        for s in outcome.get("scores", [])
        if s["seat"] in seats
    }
    order = sorted(keys, key=lambda seat: (keys[seat], -seat), reverse=True)
    placings, rank, previous = [], 0, None
    for seat in order:
        if keys[seat] != previous:
            rank, previous = rank + 1, keys[seat]
        placings.append(Placing(seat, seats[seat], rank))
    return placings


def game_ended(game: Game, now=None) -> str:
    """Rate ``game`` once, inside the transaction that ended it; returns the
    decision (a second call for the same end changes nothing)."""
    reason, placings = decide(game)
    claimed = Game.update(rating=reason).where((Game.id == game.id) & (Game.rating == "")).execute()
    if not claimed:
        return Game.get_by_id(game.id).rating
    game.rating = reason
    if placings:
        apply(game, placings, now or utcnow())
    return reason


def apply(game: Game, placings: list[Placing], now) -> None:
    ratings = _locked(game.kind, [p.user_id for p in placings])
    teams = [
        [MODEL.rating(mu=ratings[p.user_id].mu, sigma=ratings[p.user_id].sigma)] for p in placings
    ]
    after = MODEL.rate(teams, ranks=[p.rank for p in placings])
    for placing, (new,) in zip(placings, after):
        row = ratings[placing.user_id]
        RatingChange.create(
            game=game.id,
            user=placing.user_id,
            kind=game.kind,
            rank=placing.rank,
            mu_before=row.mu,
            sigma_before=row.sigma,
            mu_after=new.mu,
            sigma_after=new.sigma,
            created_at=now,
        )
        (
            PlayerRating.update(
                mu=new.mu, sigma=new.sigma, games=PlayerRating.games + 1, updated_at=now
            )
            .where(PlayerRating.id == row.id)
            .execute()
        )


def _locked(kind: str, user_ids: list[int]) -> dict[int, PlayerRating]:
    """The players' ratings in ``kind`` (new ones at the model's start),
    locked on PostgreSQL so two games ending at once do not lose an update."""
    start = MODEL.rating()
    (
        PlayerRating.insert_many(
            [
                {
                    "user": u,
                    "kind": kind,
                    "mu": start.mu,
                    "sigma": start.sigma,
                    "games": 0,
                    "updated_at": utcnow(),
                }
                for u in user_ids
            ]
        )
        .on_conflict_ignore()
        .execute()
    )
    query = (
        PlayerRating.select()
        .where((PlayerRating.kind == kind) & PlayerRating.user.in_(user_ids))
        .order_by(PlayerRating.user)
    )
    return {row.user_id: row for row in locked(query)}


def game_reopened(game: Game) -> None:
    """A finished game became active again (a moderator's undo): its rating
    changes no longer hold, so the kind's ratings are rebuilt without it,
    and it is rated afresh when it ends again."""
    was_rated = game.rating == "rated"
    Game.update(rating="").where(Game.id == game.id).execute()
    game.rating = ""
    if was_rated:
        rebuild(kinds=[game.kind])


def rebuild(kinds: list[str] | None = None, from_log: bool = False) -> int:
    """Every rating of ``kinds`` (all: None) again from the finished games in
    the order they ended; ``from_log``: each game's outcome replayed from its
    log rather than the one stored at its end.  Returns the games rated."""
    with db.atomic():
        games = Game.select().where(Game.status == "finished")
        if kinds is not None:
            games = games.where(Game.kind.in_(kinds))
        changes = RatingChange.delete()
        ratings = PlayerRating.delete()
        if kinds is not None:
            changes = changes.where(RatingChange.kind.in_(kinds))
            ratings = ratings.where(PlayerRating.kind.in_(kinds))
        changes.execute()
        ratings.execute()
        rated = 0
        for game in games.order_by(Game.finished_at, Game.id):
            outcome = game.outcome
            if from_log and not (outcome or {}).get("abandoned"):
                outcome = rules(game).outcome(replay(game)).to_json()
            reason, placings = decide(game, outcome)
            Game.update(rating=reason).where(Game.id == game.id).execute()
            if placings:
                apply(game, placings, game.finished_at or utcnow())
                rated += 1
    return rated


# -- what pages show -----------------------------------------------------------
def shown(row: PlayerRating) -> float:
    """The conservative rating: mu - 3 sigma (openskill's ordinal)."""
    return row.mu - 3 * row.sigma


def provisional(row: PlayerRating, settings) -> bool:
    return (
        row.games < settings["RATING_PROVISIONAL_GAMES"]
        or row.sigma > settings["RATING_PROVISIONAL_SIGMA"]
    )


@click.command("ratings-rebuild")
@click.option(
    "--from-log",
    is_flag=True,
    help="Replay each game's log for its final ranking instead of the stored result.",
)
@with_appcontext
def rebuild_command(from_log: bool):
    """Recompute every rating from the finished games, in the order they ended."""
    with db.connection_context():
        count = rebuild(from_log=from_log)
    click.echo(f"rated {count} games")
