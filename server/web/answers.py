"""Answering a question from a mail's link, without signing in: a takeback,
a proposal or a rematch asked of one account (services/question_links.py).

The GET shows the question with a yes and a no button; it changes nothing
and signs nobody in, so a mail scanner that opens every link does no harm.
The POST answers as the account the link names.  Its CSRF token is the
session's, as on every form, and the form also carries a value bound to
this link and that token: a form from one link's page cannot answer through
another link.
"""

from __future__ import annotations

import hashlib
import hmac

from flask import Blueprint, abort, current_app, render_template, request
from wtforms import HiddenField

from engine.words import N_
from server.i18n import say
from server.models import Game, User
from server.services import question_links, questions
from server.web.errors import link_error
from server.web.forms import Form
from server.web.languages import page_language

bp = Blueprint("answers", __name__)


class AnswerForm(Form):
    bound = HiddenField()


def _bound(csrf_token: str, link: str) -> str:
    key = hashlib.sha256(f"pbem-answer-form:{current_app.config['SECRET_KEY']}".encode()).digest()
    return hmac.new(key, f"{csrf_token}|{link}".encode(), hashlib.sha256).hexdigest()


def _asked(link: str) -> tuple[int, Game, int, User]:
    """What the link names; LinkProblem when it cannot be used."""
    game_id, kind, request_id, user_id = question_links.read(current_app.config["SECRET_KEY"], link)
    game = Game.get_or_none(Game.id == game_id)
    user = User.get_or_none(User.id == user_id)
    if game is None or user is None:
        raise question_links.LinkProblem("invalid")
    return kind, game, request_id, user


def _no_longer():
    return render_template(
        "answers/ended.html", said=say(page_language(), questions.NO_LONGER)
    ), 410


@bp.get("/answer/<link>")
def question(link: str):
    try:
        kind, game, request_id, user = _asked(link)
    except question_links.LinkProblem as exc:
        return link_error(exc)
    if not questions.still_asked(kind, game, request_id, user.id):
        return _no_longer()
    form = AnswerForm()
    form.bound.data = _bound(form.csrf_token.current_token, link)
    return render_template(
        "answers/question.html",
        game=game,
        name=user.name,
        question=say(page_language(), questions.question(kind, game, request_id, user)),
        form=form,
        link=link,
    )


@bp.post("/answer/<link>")
def answer(link: str):
    form = AnswerForm()
    if not form.validate_on_submit() or not hmac.compare_digest(
        str(form.bound.data or ""), _bound(str(form.csrf_token.data or ""), link)
    ):
        abort(400, N_("The form was not understood; reload the page and try again."))
    try:
        kind, game, request_id, user = _asked(link)
    except question_links.LinkProblem as exc:
        return link_error(exc)
    if not questions.still_asked(kind, game, request_id, user.id):
        return _no_longer()
    word = request.form.get("answer", "")
    if word not in ("yes", "no"):
        abort(400, N_("The form was not understood; reload the page and try again."))
    said = questions.answer(
        kind, game, request_id, user, word == "yes", current_app.extensions["pbem_mailer"]
    )
    return render_template("answers/answered.html", game=game, said=say(page_language(), said))
