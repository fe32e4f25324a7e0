"""Takebacks on the game page: a player asks to take back their own move,
the others answer (services/takebacks.py).  Every form is a POST with its
CSRF token and the sequence number the page was made at."""

from __future__ import annotations

from flask import Blueprint, abort, current_app, flash, redirect, url_for
from flask_login import current_user
from flask_wtf import FlaskForm

from engine.words import N_
from server.models import Game, Seat, User
from server.services import takebacks
from server.services.what_a_seat_sees import deadline_text
from server.web import seat_access
from server.web.forms import TakebackAnswerForm, TakebackForm
from server.web.languages import page_language

bp = Blueprint("takebacks", __name__)


def _seq(text: str | None) -> int:
    # isdigit() alone accepts "²", which int() refuses: ASCII digits only.
    text = text or ""
    if not (text.isascii() and text.isdigit()) or len(text) > 9:
        abort(400, N_("The form was not understood; reload the page and try again."))
    return int(text)


def _me(game_id: int) -> User:
    """Who asks or answers: the signed-in account, or the player of the seat
    this browser opened from a mail link (a takeback is the seat's business,
    like a move)."""
    if current_user.is_authenticated:
        return current_user._get_current_object()
    seat = seat_access.viewer_seat_in(game_id) or abort(403, N_("You have no seat in this game."))
    return seat_access.acting_user(seat)


@bp.post("/games/<int:game_id>/takeback")
def ask(game_id: int):
    form = TakebackForm()
    if not form.validate_on_submit():
        abort(400, N_("Choose one of your own moves offered on the game page."))
    flash(
        takebacks.ask(
            game_id,
            _me(game_id),
            _seq(form.seq.data),
            _seq(form.back_to.data),
            mailer=current_app.extensions["pbem_mailer"],
        )
    )
    return redirect(url_for("play.game", game_id=game_id) + "#takeback")


@bp.post("/games/<int:game_id>/takebacks/<int:takeback_id>/<answer>")
def answer(game_id: int, takeback_id: int, answer: str):
    if answer not in ("yes", "no"):
        abort(404)
    form = TakebackAnswerForm()
    if not form.validate_on_submit():
        abort(400, N_("The form was not understood; reload the page and try again."))
    flash(
        takebacks.answer(
            game_id,
            _me(game_id),
            takeback_id,
            _seq(form.seq.data),
            answer == "yes",
            mailer=current_app.extensions["pbem_mailer"],
        )
    )
    return redirect(url_for("play.game", game_id=game_id) + "#takeback")


def _timezone(seat: Seat | None) -> str:
    if current_user.is_authenticated:
        return current_user.timezone
    return seat.user.timezone if seat is not None and seat.user_id else "UTC"


def box(
    game: Game,
    seat: Seat | None,
    names: list[str] | None = None,
    form: FlaskForm | None = None,
    maybe_open: bool = True,
) -> dict:
    """What the game page shows of takebacks to this viewer: the open request
    (and whether they are asked), or the moves they may ask to take back.
    ``names``: the seats' names when the page has them; ``form``: a form the
    page made already, whose CSRF token the page's takeback forms carry (the
    same token: they show no field of their own); ``maybe_open``: False when
    the caller knows no request is open where the game stands (nothing to read)."""
    request = takebacks.open_takeback(game) if maybe_open else None
    me = current_user.id if current_user.is_authenticated else (seat and seat.user_id)
    plays = seat is not None and seat.user_id == me
    if request is not None:
        people = {
            u.id: u.name
            for u in User.select().where(User.id.in_(request.asked + [request.requester_id]))
        }
        waiting = [people[u] for u in request.asked if u not in request.agreed]
        asked = me in request.asked and me not in request.agreed
        return {
            "open": request,
            "waiting": waiting,
            "asked": asked,
            "asker": people[request.requester_id],
            "what": takebacks.describe(game, request, page_language()),
            "expires": deadline_text(request.expires_at, _timezone(seat), page_language()),
            "form": form or TakebackAnswerForm(seq=str(game.seq)),
        }
    offers = (
        takebacks.offers(game, seat, page_language(), names) if plays and seat is not None else []
    )
    return {"open": None, "offers": offers, "form": form or TakebackForm(seq=str(game.seq))}
