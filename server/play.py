"""The game page and the move form.  The page is built from the engine's view
for the signed-in player's seat; a move is a POST carrying the sequence number
the page was made at."""
from __future__ import annotations

import json

from engine import Choice
from engine.interface import name_seats
from flask import Blueprint, abort, current_app, flash, redirect, render_template, request, url_for
from flask_login import current_user, login_required

from server import games, vacations
from server.clock import local_text
from server.forms import EmptyForm, MoveForm
from server.gamestate import load_state, rules
from server.models import Game, Seat, utcnow
from server.moves import play
from server.present import board, deadline_text, log_lines, outcome_rows, seat_names

bp = Blueprint("play", __name__)
RECENT_LINES = 15


def my_seat(game: Game) -> Seat | None:
    return Seat.get_or_none((Seat.game == game.id) & (Seat.user == current_user.id))


@bp.get("/games/<int:game_id>")
@login_required
def game(game_id: int):
    game = Game.get_or_none(Game.id == game_id) or abort(404)
    if game.status == "open":
        return redirect(url_for("lobby.lobby", game_id=game_id))
    return render_template("play/game.html", **page(game, my_seat(game),
                                                    request.args.get("since", type=int)))


def page(game: Game, seat: Seat | None, since: int | None) -> dict:
    """Everything the game page shows, from ``seat``'s view only."""
    viewer = seat.index if seat else None
    state, names, kind = load_state(game, save=False), seat_names(game), rules(game)
    log = log_lines(game, viewer, names)
    to_move = (Seat.get_or_none((Seat.game == game.id) & (Seat.index == game.to_move))
               if game.to_move is not None else None)
    my_turn = (viewer is not None and viewer == game.to_move and not game.paused
               and not seat.withdrawn)
    return dict(
        game=game, kind=kind, seat=seat, names=names, log=log, recent=log[-RECENT_LINES:],
        sections=board(game, state, viewer, names), prompt=name_seats(game.prompt, names),
        result=[line for line in log if since is not None and line.seq > since],
        choices=[Choice(c.action, name_seats(c.label, names), c.group)
                 for c in kind.choices(state, viewer)] if my_turn else [],
        to_move=to_move,
        deadline=deadline_text(to_move and to_move.deadline, current_user.timezone),
        rows=outcome_rows(game, names), form=MoveForm(seq=game.seq), json=json,
        link_form=EmptyForm(), away=away_notes(game))


def away_notes(game: Game) -> dict[int, str]:
    """Seats whose clock stands still or that auto-pass, for everybody to see."""
    seats = list(Seat.select().where(Seat.game == game.id))
    away = vacations.on_vacation([s.user_id for s in seats if s.user_id], utcnow())
    tz = current_user.timezone
    notes = {}
    for s in seats:
        if s.user_id in away:
            notes[s.index] = f"on vacation until {local_text(away[s.user_id], tz)}"
        elif s.withdrawn:
            notes[s.index] = "out of the game: the seat passes automatically"
        elif s.absent:
            notes[s.index] = "absent: passes at once until back"
    return notes


@bp.post("/games/<int:game_id>/move")
@login_required
def move(game_id: int):
    game = Game.get_or_none(Game.id == game_id) or abort(404)
    seat = my_seat(game) or abort(403, "You have no seat in this game.")
    if seat.withdrawn:
        abort(403, "You left this game: your seat passes automatically.")
    form = MoveForm()
    if not form.validate_on_submit():
        abort(400, "The move form was not understood; reload the game page and try again.")
    action = parse_action(form.action.data)
    play(game_id, seat.index, action, form.seq.data, "player",
         mailer=current_app.extensions["pbem_mailer"], user_id=current_user.id)
    return redirect(url_for("play.game", game_id=game_id, since=form.seq.data) + "#result")


@bp.post("/games/<int:game_id>/new-link")
@login_required
def new_link(game_id: int):
    if not EmptyForm().validate_on_submit():
        abort(400)
    games.renew_links(game_id, current_user, current_app.extensions["pbem_mailer"])
    flash("Your old links no longer work; a new one is on its way by email.")
    return redirect(url_for("play.game", game_id=game_id))


def parse_action(text: str) -> dict:
    try:
        action = json.loads(text)
    except ValueError:
        abort(400, "The move form was not understood; reload the game page and try again.")
    if not isinstance(action, dict):
        abort(400, "The move form was not understood; reload the game page and try again.")
    return action
