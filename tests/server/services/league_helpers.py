"""Leagues played through the services, for the league tests: players made
as users, a league made and joined, its games played by a bot for every
player, the scheduler's sweep moving the league on."""

from __future__ import annotations

import datetime as dt

from clock_helpers import user

from engine import bots, get_game
from server.models import Game, League, LeagueRound, LeagueTable, Seat, utcnow
from server.services import leagues
from server.services.clock.sweep import sweep
from server.services.moves import play
from server.services.state_store import load_state

MINUTE = dt.timedelta(minutes=1)


def players(tag: str, count: int) -> list:
    return [user(f"{tag}{i}@example.org", f"{tag.upper()} {i + 1}") for i in range(count)]


def make_league(app, creator, people, **choices) -> League:
    choices.setdefault("starts_at", utcnow() + dt.timedelta(hours=1))
    league = leagues.create(
        creator,
        choices.pop("name", "Winter League"),
        choices.pop("kind", "new_found_land"),
        **choices,
    )
    for person in people:
        leagues.join(league, person)
    return league


def league_games(league: League, status: str | None = None) -> list[Game]:
    query = (
        Game.select()
        .join(LeagueTable, on=(LeagueTable.game == Game.id))
        .join(LeagueRound)
        .where(LeagueRound.league == league.id)
        .order_by(Game.id)
    )
    return list(query.where(Game.status == status) if status else query)


def play_moves(app, league: League, bot: str = "random", limit: int = 20_000) -> int:
    """Each person to move in a running league game plays the bot's move, as
    a player; seats auto-passed or handed to a bot are the scheduler's.  One
    pass over the running games; how many moves were played."""
    mailer = app.extensions["pbem_mailer"]
    played = 0
    for game in league_games(league, "active"):
        for _ in range(limit):
            game = Game.get_by_id(game.id)
            if game.status != "active":
                break
            seat = Seat.get((Seat.game == game.id) & (Seat.index == game.to_move))
            if seat.withdrawn or seat.absent or seat.bot:
                break
            kind = get_game(game.kind)
            state = load_state(game)
            action = bots.choose(bot, kind, state, seat.index, game.seq)
            play(
                game.id, seat.index, action, game.seq, "player", mailer=mailer, user_id=seat.user_id
            )
            played += 1
    return played


def run(app, league: League, now: dt.datetime, until_round: int | None = None) -> dt.datetime:
    """Play and sweep until the league is over (or round ``until_round``
    began); answers the time reached."""
    mailer = app.extensions["pbem_mailer"]
    for _ in range(10_000):
        sweep(app.config, mailer, now)
        league = League.get_by_id(league.id)
        rounds = leagues.rounds_of(league)
        if league.state == "finished" or (until_round and len(rounds) >= until_round):
            return now
        play_moves(app, league)
        now += MINUTE
    raise AssertionError("the league never ended")
