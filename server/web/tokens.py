"""Personal access tokens in Settings: make one (shown once, on the page
the POST answers, never again), see and revoke yours (services/api_tokens.py).
The API itself is web/api/."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, url_for
from flask_babel import gettext
from flask_login import current_user, login_required

from engine.words import N_
from server.services import api_tokens
from server.web.forms import EmptyForm, TokenForm, VacationForm
from server.web.settings_page import render_settings, settings_form, token_section

bp = Blueprint("tokens", __name__)


@bp.post("/settings/tokens")
@login_required
def make():
    form = TokenForm()
    if not form.validate_on_submit():
        return render_settings(settings_form(), VacationForm(), **token_section(form)), 400
    try:
        _, token = api_tokens.create(current_user, form.name.data, form.scopes.data, form.days.data)
    except api_tokens.TokenError as exc:
        form.name.errors = [gettext(str(exc))]
        return render_settings(settings_form(), VacationForm(), **token_section(form)), 400
    # Shown on this answer only: it is kept hashed and cannot be shown again.
    return render_settings(settings_form(), VacationForm(), **token_section(made=token))


@bp.post("/settings/tokens/<int:token_id>/revoke")
@login_required
def revoke(token_id: int):
    if not EmptyForm().validate_on_submit():
        abort(400, N_("The form was not understood; reload the page and try again."))
    if not api_tokens.revoke(current_user, token_id):
        abort(404)
    flash(N_("The token is revoked: it no longer works."))
    return redirect(url_for("preferences.settings") + "#tokens")
