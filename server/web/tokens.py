"""Personal access tokens in Settings: make one (shown once, on the page
the POST answers, never again), see and revoke yours (services/api_tokens.py).
The API itself is web/api/."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, url_for
from flask_babel import gettext
from flask_babel import lazy_gettext as _l
from flask_login import current_user, login_required
from flask_wtf import FlaskForm
from wtforms import SelectField, SelectMultipleField, StringField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import InputRequired, Length
from wtforms.widgets import CheckboxInput, ListWidget

from engine.words import N_
from server.services import api_tokens
from server.web.forms import EmptyForm, VacationForm
from server.web.preferences import render_settings, settings_form

bp = Blueprint("tokens", __name__)


class TokenForm(FlaskForm):
    name = StringField(
        _l("Name (what the token is for)"), [InputRequired(), Length(1, api_tokens.NAME_MAX)]
    )
    scopes = SelectMultipleField(
        _l("It may"),
        choices=[
            SelectChoice("read", _l("read: my games and how they stand")),
            SelectChoice("play", _l("play: moves and table talk")),
            SelectChoice("lobby", _l("lobby: join, leave and start games")),
        ],
        default=["read", "play"],
        widget=ListWidget(prefix_label=False),
        option_widget=CheckboxInput(),
    )
    days = SelectField(
        _l("Works for"),
        coerce=int,
        default=90,
        choices=[
            SelectChoice(7, _l("7 days")),
            SelectChoice(30, _l("30 days")),
            SelectChoice(90, _l("90 days")),
            SelectChoice(365, _l("a year")),
        ],
    )


def section(form: TokenForm | None = None, made: str = "") -> dict:
    """What the Settings page's token section shows."""
    return {
        "token_form": form or TokenForm(),
        "tokens": api_tokens.of(current_user),
        "made_token": made,
    }


@bp.post("/settings/tokens")
@login_required
def make():
    form = TokenForm()
    if not form.validate_on_submit():
        return render_settings(settings_form(), VacationForm(), **section(form)), 400
    try:
        _, token = api_tokens.create(current_user, form.name.data, form.scopes.data, form.days.data)
    except api_tokens.TokenError as exc:
        form.name.errors = [gettext(str(exc))]
        return render_settings(settings_form(), VacationForm(), **section(form)), 400
    # Shown on this answer only: it is kept hashed and cannot be shown again.
    return render_settings(settings_form(), VacationForm(), **section(made=token))


@bp.post("/settings/tokens/<int:token_id>/revoke")
@login_required
def revoke(token_id: int):
    if not EmptyForm().validate_on_submit():
        abort(400, N_("The form was not understood; reload the page and try again."))
    if not api_tokens.revoke(current_user, token_id):
        abort(404)
    flash(N_("The token is revoked: it no longer works."))
    return redirect(url_for("preferences.settings") + "#tokens")
