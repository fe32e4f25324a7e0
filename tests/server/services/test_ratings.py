"""Ratings per game kind with openskill's Plackett-Luce
model.  A game is rated once, when it ends, in the same transaction; ties
share a rank; the rules say which games and seats count; a rebuild from the
finished games (or their logs) gives the same ratings.  SQLite and PostgreSQL."""

from __future__ import annotations

import random

import pytest
from clock_helpers import game_row, random_move, started_game, user
from moderation_helpers import in_db
from openskill.models import PlackettLuce

from server.models import Event, Game, PlayerRating, RatingChange, Seat, User, utcnow
from server.services import games, moderation, ratings
from server.services.moves import play


def test_the_model_reproduces_its_published_example():
    """openskill.py's README (versions 1 to 3, whose default model was
    Plackett-Luce, before the dynamics factor tau came in):

        >>> a2 = Rating(mu=32.444, sigma=5.123)
        >>> b1 = Rating(43.381, 2.421)
        >>> b2 = Rating(mu=25.188, sigma=6.211)
        >>> [[x1, x2], [y1, y2]] = rate([[a1, a2], [b1, b2]])
        (Rating(mu=28.669648436582808, sigma=8.071520788025197),
         Rating(mu=33.83086971107981, sigma=5.062772998705765),
         Rating(mu=43.071274808241974, sigma=2.4166900452721256),
         Rating(mu=23.149503312339064, sigma=6.1378606973362135))
    """
    model = PlackettLuce(tau=0)
    a1, a2 = model.rating(), model.rating(mu=32.444, sigma=5.123)
    b1, b2 = model.rating(mu=43.381, sigma=2.421), model.rating(mu=25.188, sigma=6.211)
    [[x1, x2], [y1, y2]] = model.rate([[a1, a2], [b1, b2]])
    published = [
        (28.669648436582808, 8.071520788025197),
        (33.83086971107981, 5.062772998705765),
        (43.071274808241974, 2.4166900452721256),
        (23.149503312339064, 6.1378606973362135),
    ]
    for got, (mu, sigma) in zip((x1, x2, y1, y2), published):
        assert got.mu == pytest.approx(mu, abs=1e-9) and got.sigma == pytest.approx(sigma, abs=1e-9)
    # "ordinal([43.07, 2.42]) -> 35.81": mu - 3 sigma, the rating we show.
    assert ratings.shown(PlayerRating(mu=43.07, sigma=2.42)) == pytest.approx(35.81)
    # Ours is the same model with openskill's defaults (tau 25/300 included).
    assert (ratings.MODEL.mu, ratings.MODEL.sigma, ratings.MODEL.tau) == (25.0, 25 / 3, 25 / 300)


def play_to_the_end(app, game_id: int, seed: int) -> None:
    rnd = random.Random(seed)
    while game_row(app, game_id).status == "active":
        random_move(app, game_id, rnd)


def changes(app, game_id: int) -> list[RatingChange]:
    return in_db(
        app,
        lambda: list(
            RatingChange.select().where(RatingChange.game == game_id).order_by(RatingChange.user)
        ),
    )


def table_of(app, kind: str) -> dict:
    return in_db(
        app,
        lambda: {
            (r.user_id, r.kind): (r.mu, r.sigma, r.games)
            for r in PlayerRating.select().where(PlayerRating.kind == kind)
        },
    )


def test_a_game_is_rated_once_when_it_ends_and_again_only_after_an_undo(app):
    first = started_game(app, players=2, kind="new_found_land", tag="ra")
    play_to_the_end(app, first.id, 3)
    rated = changes(app, first.id)
    assert game_row(app, first.id).rating == "rated" and len(rated) == 2
    winner = game_row(app, first.id).outcome["winners"]
    best = next(c for c in rated if c.rank == 1)
    assert (
        in_db(app, lambda: Seat.get((Seat.game == first.id) & (Seat.user == best.user_id))).index
        in winner
    )
    assert best.mu_after > best.mu_before and all(c.sigma_after < c.sigma_before for c in rated)
    before = table_of(app, "new_found_land")
    assert {games for _, _, games in before.values()} == {1}

    # The same end told twice (a replayed end, a second scheduler): nothing more.
    assert in_db(app, lambda: ratings.game_ended(Game.get_by_id(first.id))) == "rated"
    assert table_of(app, "new_found_land") == before and len(changes(app, first.id)) == 2

    # A moderator's undo reopens the game: its rating changes no longer hold.
    mod = in_db(app, lambda: user("mod-ra@example.org", is_moderator=True))
    last = in_db(
        app, lambda: Event.select().where(Event.game == first.id).order_by(Event.seq.desc()).get()
    )
    seq = game_row(app, first.id).seq
    in_db(
        app,
        lambda: moderation.undo(
            first.id, mod, seq, 1, "misclick", mailer=app.extensions["pbem_mailer"]
        ),
    )
    assert game_row(app, first.id).rating == "" and changes(app, first.id) == []
    assert table_of(app, "new_found_land") == {}
    # Played again, it ends the same and is rated once, to the same figures.
    seq = game_row(app, first.id).seq
    in_db(
        app,
        lambda: play(
            first.id, last.seat, last.action, seq, "player", mailer=app.extensions["pbem_mailer"]
        ),
    )
    assert len(changes(app, first.id)) == 2
    assert table_of(app, "new_found_land") == before

    # A second game of the same two; then a rebuild, from the rows or the logs.
    second = rematch(app, ["ra1@example.org", "ra0@example.org"], "new_found_land")
    play_to_the_end(app, second.id, 5)
    live = table_of(app, "new_found_land")
    assert live[(best.user_id, "new_found_land")][2] in (1, 2)
    assert in_db(app, lambda: ratings.rebuild()) == 2
    assert table_of(app, "new_found_land") == live
    assert in_db(app, lambda: ratings.rebuild(from_log=True)) == 2
    assert table_of(app, "new_found_land") == live


def rematch(app, emails: list[str], kind: str) -> Game:
    """A new game between these accounts, started."""
    mailer = app.extensions["pbem_mailer"]

    def run():
        people = [User.get(User.email == e) for e in emails]
        game = games.create_game(people[0], kind, "Again", len(people), {}, 48, [], mailer)
        for i, person in enumerate(people[1:], start=1):
            games.join(game.id, person, i)
        return games.start(game.id, people[0], mailer)

    return in_db(app, run)


def end_as(
    app, game: Game, scores: list[tuple[int, int]], winners: list[int], abandoned: bool = False
) -> str:
    """End ``game`` with these (total, tiebreak) per seat, as the engine would
    have stored them, and rate it as play() does."""

    def run():
        outcome = {
            "winners": winners,
            "scores": [
                {"seat": i, "total": t, "tiebreak": b, "breakdown": []}
                for i, (t, b) in enumerate(scores)
            ],
        }
        if abandoned:
            outcome["abandoned"] = True
        Game.update(status="finished", finished_at=utcnow(), to_move=None, outcome=outcome).where(
            Game.id == game.id
        ).execute()
        return ratings.game_ended(Game.get_by_id(game.id))

    return in_db(app, run)


def test_ties_share_a_rank_and_move_equal_players_alike(app):
    game = started_game(app, players=3, tag="ti")
    assert end_as(app, game, [(40, 2), (40, 2), (31, 0)], winners=[0, 1]) == "rated"
    by_seat = in_db(
        app,
        lambda: {
            Seat.get((Seat.game == game.id) & (Seat.user == c.user_id)).index: c
            for c in RatingChange.select().where(RatingChange.game == game.id)
        },
    )
    assert [by_seat[i].rank for i in range(3)] == [1, 1, 2]
    assert by_seat[0].mu_after == pytest.approx(by_seat[1].mu_after)
    assert by_seat[0].mu_after > 25 > by_seat[2].mu_after
    # Equal score but a better tiebreak is not a tie.
    other = started_game(app, players=2, tag="tj")
    end_as(app, other, [(30, 5), (30, 4)], winners=[0])
    assert sorted(c.rank for c in changes(app, other.id)) == [1, 2]


def test_which_games_and_seats_count(app):
    mailer = app.extensions["pbem_mailer"]
    # A practice game: bots from the start.
    host = in_db(app, lambda: user("pr@example.org"))
    practice = in_db(
        app,
        lambda: games.create_practice(
            host, "puerto_rico", "Practice", 3, {}, "heuristic", 24, mailer
        ),
    )
    assert end_as(app, practice, [(10, 0), (9, 0), (8, 0)], [0]) == "bots"
    # Abandoned by a moderator: no result to rate.
    gone = started_game(app, players=3, tag="ab")
    mod = in_db(app, lambda: user("mod-ab@example.org", is_moderator=True))
    seq = game_row(app, gone.id).seq
    in_db(app, lambda: moderation.abandon(gone.id, mod, seq, "too slow", mailer=mailer))
    assert game_row(app, gone.id).rating == "abandoned" and changes(app, gone.id) == []
    # A seat whose player vanished (absent) is left out; the others are rated.
    absent = started_game(app, players=3, tag="ax")
    in_db(
        app,
        lambda: (
            Seat.update(absent=True).where((Seat.game == absent.id) & (Seat.index == 2)).execute()
        ),
    )
    assert end_as(app, absent, [(5, 0), (20, 0), (1, 0)], [1]) == "rated"
    rated = in_db(
        app,
        lambda: {
            c.user.email: c.rank
            for c in RatingChange.select(RatingChange, User)
            .join(User)
            .where(RatingChange.game == absent.id)
        },
    )
    assert rated == {"ax1@example.org": 1, "ax0@example.org": 2}
    # Two players, one resigned: nobody left to be rated against.
    resigned = started_game(app, players=2, tag="rs")
    seq = game_row(app, resigned.id).seq
    in_db(
        app,
        lambda: moderation.resign(
            resigned.id, User.get(User.email == "rs1@example.org"), seq, "enough", mailer=mailer
        ),
    )
    assert end_as(app, resigned, [(5, 0), (9, 0)], [1]) == "too_few"
    # A seat a bot played for its absent player is left out too.
    botted = started_game(app, players=3, tag="bt")
    random_move(app, botted.id, random.Random(1))
    in_db(app, lambda: Event.update(actor="bot").where(Event.game == botted.id).execute())
    seat = in_db(app, lambda: Event.get(Event.game == botted.id).seat)
    end_as(app, botted, [(1, 0), (2, 0), (3, 0)], [2])
    assert len(changes(app, botted.id)) == 2
    assert in_db(
        app,
        lambda: (
            not RatingChange.select()
            .join(Seat, on=((Seat.user == RatingChange.user) & (Seat.game == RatingChange.game)))
            .where((RatingChange.game == botted.id) & (Seat.index == seat))
            .exists()
        ),
    )
