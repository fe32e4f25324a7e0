"""A game as the calling seat sees it, as plain data for the API: built from
services/what_a_seat_sees.py like the game page, so it holds no other seat's
hidden information."""

from __future__ import annotations

from engine import get_game
from engine.interface import name_seats
from server.i18n import translate
from server.models import Game, Invitation, Seat, User
from server.services import acting, takebacks
from server.services.state_store import load_state, rules
from server.services.what_a_seat_sees import (
    board,
    choices,
    deadline_text,
    log_lines,
    names_of,
    outcome_rows,
    recent_log_lines,
    result_names,
    seats_with_users,
)

RECENT_LINES = 15
MOST_GAMES = 200


def my_turn(game: Game, seat: Seat | None) -> bool:
    """Whether ``seat`` (the caller's own) may move now (services/acting.py)."""
    return acting.may_act(seat, seat.user_id if seat else None, game).ok


def summary(game: Game, seat: Seat | None) -> dict:
    mine = my_turn(game, seat)
    return {
        "id": game.id,
        "name": game.name,
        "kind": game.kind,
        "title": get_game(game.kind).title,
        "status": game.status,
        "seq": game.seq,
        "my_seat": seat.index + 1 if seat else None,
        "my_turn": mine,
        "to_move": None if game.to_move is None else game.to_move + 1,
        "deadline": seat.deadline if mine else None,
    }


def my_games(user: User) -> list[dict]:
    """The account's games, those waiting for its move first."""
    seats = (
        Seat.select(Seat, Game)
        .join(Game)
        .where(Seat.user == user.id)
        .order_by(Game.id.desc())
        .limit(MOST_GAMES)
    )
    games = [summary(seat.game, seat) for seat in seats]
    return sorted(games, key=lambda g: not g["my_turn"])


def turns(user: User) -> list[dict]:
    return [g for g in my_games(user) if g["my_turn"]]


def seat_list(seats: list[Seat], names: list[str]) -> list[dict]:
    return [
        {
            "number": s.index + 1,
            "name": names[s.index] if (s.user_id or s.bot) else None,
            "bot": bool(s.bot) or bool(s.user_id and s.user.is_bot),
        }
        for s in seats
    ]


def game_view(game: Game, user: User, language: str, since: int | None) -> dict:
    """Everything the game page shows, as ``user``'s seat sees it (a
    spectator's view when the account has no seat)."""
    seats = seats_with_users(game)
    seat = next((s for s in seats if s.user_id == user.id), None)
    viewer = seat.index if seat else None
    state, names, kind = load_state(game, save=False), names_of(seats), rules(game)
    to_move = seats[game.to_move] if game.to_move is not None else None
    movable = my_turn(game, seat) and takebacks.open_takeback(game) is None
    if since is None:
        log = recent_log_lines(game, viewer, names, RECENT_LINES, language)
    else:
        log = log_lines(game, viewer, names, after=since, language=language)
    template, values = kind.prompt_message(state)
    result = outcome_rows(game, result_names(game, names, language), language)
    return dict(
        summary(game, seat),
        paused=game.paused,
        seats=seat_list(seats, names),
        view=kind.view(state, viewer),
        deadline=to_move.deadline if to_move is not None else None,
        deadline_text=deadline_text(
            to_move.deadline if to_move is not None else None, user.timezone, language
        ),
        prompt=name_seats(translate(language, template, values), names)
        if game.status == "active"
        else "",
        board=[
            {
                "title": s.title,
                "rows": [{"label": label, "value": value} for label, value in s.rows],
            }
            for s in board(game, state, viewer, names, language)
        ],
        legal_moves=[
            {"action": c.action, "label": c.label, "group": c.group}
            for c in choices(game, state, viewer, names, language)
        ]
        if movable and viewer is not None
        else [],
        log=[{"seq": line.seq, "text": line.text} for line in log],
        result=[
            {"name": r["name"], "seat": r["seat"], "total": r["total"], "winner": r["winner"]}
            for r in result
        ],
    )


def lobby_games(user: User) -> list[dict]:
    """Open games the account hosts, sits in or is invited to."""
    invited = Invitation.select(Invitation.game).where(Invitation.email == user.email)
    seated = Seat.select(Seat.game).where(Seat.user == user.id)
    games = (
        Game.select()
        .where(
            (Game.status == "open")
            & ((Game.host == user.id) | Game.id.in_(seated) | Game.id.in_(invited))
        )
        .order_by(Game.id.desc())
        .limit(MOST_GAMES)
    )
    return [lobby_game(game, user) for game in games]


def lobby_game(game: Game, user: User) -> dict:
    seats = seats_with_users(game)
    names = names_of(seats)
    mine = next((s.index + 1 for s in seats if s.user_id == user.id), None)
    return {
        "id": game.id,
        "name": game.name,
        "kind": game.kind,
        "title": get_game(game.kind).title,
        "host": User.get_by_id(game.host_id).name,
        "is_host": game.host_id == user.id,
        "my_seat": mine,
        "seats": seat_list(seats, names),
    }
