"""Players' profiles, the archive of finished games, the leaderboards, and
the player's choice of what their profile shows (a form on Settings).
Every page here is a GET that changes nothing, for signed-in players (like
a game page for spectators); services/profiles.py decides what shows."""

from __future__ import annotations

from flask import Blueprint, abort, current_app, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_login import current_user, login_required

from engine import GAMES
from engine.words import N_
from server.i18n import LANGUAGES
from server.services import profiles
from server.services.ratings import RATING_RULES
from server.web.forms import ProfileForm
from server.web.languages import page_language

bp = Blueprint("people", __name__)


def _page():
    try:
        return profiles.page_number(request.args.get("page", ""))
    except profiles.BadFilter as exc:
        abort(400, exc.args[0])


@bp.get("/players/<int:user_id>")
@login_required
def profile(user_id: int):
    person = profiles.player(user_id) or abort(404)
    if person.erased_at is not None:  # deleted on its owner's request: gone
        abort(410)
    own = person.id == current_user.id
    page = _page()
    language = page_language()
    games, more = (
        profiles.finished(person, own, page, language)
        if own or person.show_finished
        else ([], False)
    )
    if page > 1 and not games:
        abort(404)
    return render_template(
        "people/profile.html",
        person=person,
        own=own,
        page=page,
        more=more,
        languages=[LANGUAGES[c] for c in person.languages or [] if c in LANGUAGES]
        if own or person.show_languages
        else None,
        playing=profiles.playing(person, own, language) if own or person.show_playing else None,
        finished=games if own or person.show_finished else None,
        ratings=profiles.ratings_of(person, current_app.config)
        if own or person.show_ratings
        else None,
        rules=RATING_RULES,
    )


@bp.get("/archive")
@login_required
def archive():
    try:
        filters = profiles.Filters.read(request.args)
    except profiles.BadFilter as exc:
        abort(400, exc.args[0])
    games, more = profiles.archive(filters, current_user, page_language())
    if filters.page > 1 and not games:
        abort(404)
    return render_template(
        "people/archive.html",
        games=games,
        more=more,
        filters=filters,
        kinds=GAMES,
        rules=RATING_RULES,
    )


@bp.get("/leaderboard")
@login_required
def leaderboard():
    kind = request.args.get("kind") or min(GAMES)
    if kind not in GAMES:
        abort(404, N_("There is no such game."))
    page = _page()
    rows, more = profiles.leaderboard(kind, page, current_app.config)
    if page > 1 and not rows:
        abort(404)
    return render_template(
        "people/leaderboard.html",
        rows=rows,
        more=more,
        page=page,
        kind=GAMES[kind],
        kinds=GAMES,
        least=current_app.config["RATING_PROVISIONAL_GAMES"],
        sigma=current_app.config["RATING_PROVISIONAL_SIGMA"],
    )


@bp.app_context_processor
def profile_choices():
    return {"profile_form": profile_form}


def profile_form() -> ProfileForm:
    """Filled from the account (never from the request: Settings' own form
    posts to the same page)."""
    form = ProfileForm(formdata=None, obj=current_user)
    form.languages.data = list(current_user.languages or [])
    return form


@bp.post("/settings/profile")
@login_required
def save_profile():
    form = ProfileForm()
    if not form.validate_on_submit():
        abort(400, N_("The form was not understood; reload the page and try again."))
    profiles.save_choices(
        current_user,
        form.languages.data or [],
        form.show_languages.data,
        form.show_playing.data,
        form.show_finished.data,
        form.show_ratings.data,
    )
    flash(_("Your profile choices are saved."))
    return redirect(url_for("preferences.settings") + "#profile")
