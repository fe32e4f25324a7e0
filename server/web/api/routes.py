"""The API's operations on the caller's account and games: who am I, my
games, one game as my seat sees it, a move, table talk, my turns and the
long poll that waits for one.  Each view reads its input (validated by its
schema), calls the same service as the page, and answers its schema."""

from __future__ import annotations

from flask import Response, abort, current_app, g
from flask.views import MethodView
from flask_smorest import Blueprint

from engine.words import N_
from server.models import Game, Seat, utcnow
from server.services import acting, data_export, visibility
from server.services import table_talk as talk_service
from server.services.moves import play
from server.services.state_store import game_with_snapshot
from server.services.what_a_seat_sees import table_talk
from server.web.api import problems, schemas, views, waits
from server.web.api.auth import needs
from server.web.api.problems import language

bp = Blueprint(
    "api",
    __name__,
    url_prefix="/api/v1",
    description="Your account, your games, moves and table talk.",
)
documented = problems.documented(bp)
TURNS_NOTE = "The games waiting for your move; other notices come by mail."


def me():
    return g.api_user


def my_seat(game_id: int) -> Seat | None:
    return Seat.get_or_none((Seat.game == game_id) & (Seat.user == me().id))


@bp.get("/me")
@documented
@needs("read")
@bp.response(200, schemas.Me)
def who_am_i():
    """The account the token acts for, and the token."""
    user, token = me(), g.api_token
    return {
        "id": user.id,
        "name": user.name,
        "email": user.email,
        "language": user.language,
        "timezone": user.timezone,
        "is_bot": user.is_bot,
        "token": {"name": token.name, "scopes": token.scopes, "expires_at": token.expires_at},
    }


@bp.get("/me/data")
@documented
@needs("read")
@bp.response(200, content_type="application/zip", description=data_export.ABOUT)
def my_data():
    """Everything the site keeps about you, as the Settings download gives it:
    a zip of JSON files and an mbox of the mail still stored (no secrets)."""
    data = data_export.archive(me(), utcnow())
    return Response(
        data,
        mimetype="application/zip",
        headers={
            "Content-Disposition": f'attachment; filename="pbem-data-{me().id}.zip"',
            "Cache-Control": "no-store",
        },
    )


@bp.get("/games")
@documented
@needs("read")
@bp.response(200, schemas.GameList)
def my_games():
    """Your games, those waiting for your move first."""
    return {"games": views.my_games(me())}


@bp.get("/notifications")
@documented
@needs("read")
@bp.response(200, schemas.Turns)
def notifications():
    """Your turns: the games waiting for your move (the site keeps no other
    notices for the API; those come by mail)."""
    return {"games": views.turns(me()), "note": TURNS_NOTE}


@bp.get("/wait")
@documented
@needs("read")
@bp.arguments(schemas.WaitQuery, location="query", as_kwargs=True)
@bp.response(200, schemas.Waited)
def wait(timeout: int):
    """Answers as soon as a game waits for your move, or after ``timeout``
    seconds, or sooner: at most API_WAIT_MAX_SECONDS (25 by default), after
    which ``timed_out`` says to ask again.  An account holds at most
    API_WAITS_PER_ACCOUNT waits open at once (API_WAITS_PER_TOKEN a token);
    one more is a 429 problem."""
    with waits.held(me().id, g.api_token.token_hash):
        games = waits.turns_within(timeout, lambda: views.turns(me()))
    return {"games": games, "timed_out": not games}


@bp.get("/games/<int:game_id>")
@documented
@needs("read")
@bp.arguments(schemas.GameQuery, location="query", as_kwargs=True)
@bp.response(200, schemas.GameView)
def game(game_id: int, since: int | None):
    """The game as your seat sees it: board, prompt, legal moves labelled in
    your language, deadline, and the log (after ``since``, or its last lines)."""
    found = game_with_snapshot(game_id) or abort(404, N_("There is no such game."))
    if not visibility.may_see(found, me(), my_seat(game_id)):
        abort(404, N_("There is no such game."))
    if found.status in ("open", "closed"):
        abort(409, N_("This game has not started yet."))
    return views.game_view(found, me(), language(), since)


@bp.post("/games/<int:game_id>/moves")
@documented
@needs("play")
@bp.arguments(schemas.MoveIn, as_kwargs=True)
@bp.response(200, schemas.Played)
def move(game_id: int, seq: int, action: dict):
    """Play one of your legal moves, with the game's ``seq`` you chose it at:
    a stale ``seq`` is refused (409), as on the game page."""
    seat = my_seat(game_id)
    answer = acting.may_act(seat, me().id)  # the game's own checks are play's
    if seat is None:
        abort(*_no_seat(game_id, acting.SAID[answer]))
    if not answer.ok:
        abort(403, acting.SAID[answer])
    played = play(
        game_id,
        seat.index,
        action,
        seq,
        "player",
        mailer=current_app.extensions["pbem_mailer"],
        user_id=seat.user_id,
    )
    return {
        "seq": played.seq,
        "over": played.over,
        "to_move": None if played.next_seat is None else played.next_seat + 1,
    }


def _no_seat(game_id: int, why: str) -> tuple[int, str]:
    """The answer to a caller without a seat: 403 with ``why`` where they may
    see the game, the 404 of a game that does not exist where they may not."""
    game = Game.get_or_none(Game.id == game_id)
    if game is None or not visibility.may_see(game, me(), None):
        return 404, N_("There is no such game.")
    return 403, why


def _talk_seat(game_id: int) -> Seat:
    return my_seat(game_id) or abort(*_no_seat(game_id, N_("Only the players talk at this table.")))


@bp.route("/games/<int:game_id>/talk")
class TableTalk(MethodView):
    # One rule for both methods: with a rule per method, an id too big for
    # the database made werkzeug answer 405 instead of 404.

    @documented
    @needs("read")
    @bp.response(200, schemas.Talk)
    def get(self, game_id: int):
        """The table's latest messages, oldest first (players only)."""
        _talk_seat(game_id)
        return {"messages": table_talk(Game.get_by_id(game_id))}

    @documented
    @needs("play")
    @bp.arguments(schemas.TalkIn, as_kwargs=True)
    @bp.response(201, schemas.TalkMessage)
    def post(self, game_id: int, text: str):
        """Say something to the table; the other players get it by mail."""
        seat = _talk_seat(game_id)
        message = talk_service.post(game_id, seat, text, current_app.extensions["pbem_mailer"])
        return {
            "id": message.id,
            "name": me().name,
            "seat": message.seat + 1,
            "text": message.text,
            "hidden": False,
            "at": message.created_at,
        }
