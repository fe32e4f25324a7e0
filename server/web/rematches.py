"""Rematches of a finished game: a player proposes, the others answer
(services/rematches.py); the box on the game page shows where it stands."""

from __future__ import annotations

from flask import Blueprint, abort, current_app, flash, redirect, url_for
from flask_login import current_user, login_required

from engine.words import N_
from server.models import Rematch
from server.services import rematches
from server.web.forms import EmptyForm

bp = Blueprint("rematches", __name__)


def mailer():
    return current_app.extensions["pbem_mailer"]


def checked_form() -> None:
    if not EmptyForm().validate_on_submit():
        abort(400, N_("The form was not understood; reload the page and try again."))


@bp.post("/games/<int:game_id>/rematch")
@login_required
def propose(game_id: int):
    checked_form()
    flash(rematches.propose(game_id, current_user, mailer()))
    return redirect(url_for("play.game", game_id=game_id) + "#rematch")


@bp.post("/games/<int:game_id>/rematch/<int:rematch_id>/<answer>")
@login_required
def answer(game_id: int, rematch_id: int, answer: str):
    if answer not in ("yes", "no"):
        abort(404)
    checked_form()
    said = rematches.answer(game_id, rematch_id, current_user, answer == "yes", mailer())
    flash(said)
    rematch = Rematch.get_or_none(Rematch.id == rematch_id)
    target = rematch.new_game_id if rematch is not None and rematch.new_game_id else game_id
    return redirect(url_for("play.game", game_id=target))
