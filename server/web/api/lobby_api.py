"""The API's lobby: the open games you host, sit in or are invited to;
joining a seat, leaving, starting (the host).  The same services and checks
as the lobby pages (web/lobby.py)."""

from __future__ import annotations

from flask import abort, current_app, g
from flask_smorest import Blueprint

from engine.words import N_
from server.models import Game, Seat
from server.services import games, visibility
from server.services import open_games as lobby_seats
from server.web.api import problems, schemas, views
from server.web.api.auth import needs
from server.web.lobby import may_join

bp = Blueprint(
    "api_lobby",
    __name__,
    url_prefix="/api/v1/lobby",
    description="Open games: join a seat, leave, start.",
)
documented = problems.documented(bp)


def _game(game_id: int) -> Game:
    return Game.get_or_none(Game.id == game_id) or abort(404, N_("There is no such game."))


def _seen_game(game_id: int) -> Game:
    """The game, for a caller who may see it; else the 404 of no game."""
    game = _game(game_id)
    seat = Seat.get_or_none((Seat.game == game.id) & (Seat.user == g.api_user.id))
    if not visibility.may_see(game, g.api_user, seat):
        abort(404, N_("There is no such game."))
    return game


@bp.get("")
@documented
@needs("read")
@bp.response(200, schemas.Lobby)
def open_games():
    """Open games you host, sit in or are invited to."""
    return {"games": views.lobby_games(g.api_user)}


@bp.post("/<int:game_id>/join")
@documented
@needs("lobby")
@bp.arguments(schemas.JoinIn, as_kwargs=True)
@bp.response(200, schemas.LobbyGame)
def join(game_id: int, seat: int, token: str):
    """Take a seat (1-based): invited by mail, or with the game's join link token."""
    game = _game(game_id)
    if not may_join(game, g.api_user, token):
        # An unlisted lobby is not there for those it does not invite.
        abort(404, N_("There is no such game."))
    # Through open_games, as the page does: the host is told of the new seat.
    lobby_seats.join_seat(game_id, g.api_user, seat - 1, current_app.extensions["pbem_mailer"])
    return views.lobby_game(game, g.api_user)


@bp.post("/<int:game_id>/leave")
@documented
@needs("lobby")
@bp.response(200, schemas.Done)
def leave(game_id: int):
    """Leave the seat you took (the host cannot)."""
    _seen_game(game_id)
    lobby_seats.leave(game_id, g.api_user, current_app.extensions["pbem_mailer"])
    return {"message": problems.words(N_("You left the game."))}


@bp.post("/<int:game_id>/start")
@documented
@needs("lobby")
@bp.response(200, schemas.GameSummary)
def start(game_id: int):
    """Start the game with the filled seats (the host)."""
    _seen_game(game_id)
    game = games.start(game_id, g.api_user, current_app.extensions["pbem_mailer"])
    return views.summary(
        game, Seat.get_or_none((Seat.game == game.id) & (Seat.user == g.api_user.id))
    )
