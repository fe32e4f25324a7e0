"""A player's own settings: time zone, mail, vacations, "I'm back", unsubscribe."""

from __future__ import annotations

from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _
from flask_login import current_user, login_required

from engine.words import N_
from server.mail.links import LinkError
from server.models import User, utcnow
from server.services import calendar_feed, preferences
from server.services.clock import vacations
from server.web.forms import EmptyForm, SettingsForm, VacationForm
from server.web.languages import say_here
from server.web.protection import csrf
from server.web.settings_page import links, render_settings, settings_form

bp = Blueprint("preferences", __name__)


@bp.route("/settings", methods=("GET", "POST"))
@login_required
def settings():
    form = settings_form()
    if form.validate_on_submit():
        try:
            note = save_settings(current_user, form)
        except preferences.ScheduleError as exc:
            form[exc.field].errors = [say_here(exc.args[0])]
        else:
            flash(" ".join(filter(None, [_("Your settings are saved."), note])))
            return redirect(url_for("preferences.settings"))
    return render_settings(form, VacationForm()), 400 if form.errors else 200


def save_settings(user: User, form: SettingsForm) -> str:
    """Checks the whole mail schedule before saving anything; returns a note
    for the player when their digest moves out of their quiet hours."""
    schedule = preferences.parse_schedule(
        form.reminder_hours.text, form.quiet_from.data, form.quiet_until.data, form.digest_hour.data
    )
    preferences.save_settings(
        user,
        form.timezone.data,
        form.mail_mode.data,
        form.optional_mail.data,
        current_app.config["DIGEST_HOUR"],
        schedule,
        board_as_text=form.board_as_text.data,
        language=form.language.data,
    )
    return (
        schedule.digest_note(current_app.config["DIGEST_HOUR"])
        if user.mail_mode == "digest"
        else ""
    )


@bp.get("/calendar/<token>.ics")
def calendar(token: str):
    """The secret feed of a player's deadlines; opening it changes nothing."""
    try:
        user = links().read_calendar(token)
    except LinkError:
        abort(404)
    body = calendar_feed.feed(
        user, links().base_url, current_app.config["MAIL_ID_DOMAIN"], utcnow()
    )
    return (
        body,
        200,
        {
            "Content-Type": "text/calendar; charset=utf-8",
            "Cache-Control": "private, max-age=300",
            "Content-Disposition": 'inline; filename="pbem-deadlines.ics"',
        },
    )


@bp.post("/settings/calendar")
@login_required
def new_calendar_address():
    """A new secret address for the feed; the old one stops working."""
    if not EmptyForm().validate_on_submit():
        abort(400, N_("The form was not understood; reload the page and try again."))
    User.update(calendar_version=User.calendar_version + 1).where(
        User.id == current_user.id
    ).execute()
    flash(N_("Your calendar has a new address: the old one no longer works."))
    return redirect(url_for("preferences.settings") + "#calendar")


@bp.post("/settings/vacations")
@login_required
def add_vacation():
    form = VacationForm()
    if form.validate_on_submit():
        try:
            vacations.declare(
                current_user,
                form.starts.data,
                form.ends.data,
                utcnow(),
                current_app.config["VACATION_DAYS_PER_YEAR"],
            )
        except vacations.VacationError as exc:
            form.starts.errors = [say_here(exc.args[0])]
        else:
            flash(_("Your vacation is noted: your clocks stop while you are away."))
            return redirect(url_for("preferences.settings"))
    return render_settings(settings_form(), form), 400


@bp.post("/settings/vacations/<int:vacation_id>/cancel")
@login_required
def cancel_vacation(vacation_id: int):
    if not EmptyForm().validate_on_submit():
        abort(400)
    try:
        vacations.cancel(current_user, vacation_id, utcnow())
    except vacations.VacationError as exc:
        abort(400, say_here(exc.args[0]))
    flash(_("The vacation is cancelled."))
    return redirect(url_for("preferences.settings"))


@bp.post("/back")
@login_required
def back():
    if not EmptyForm().validate_on_submit():
        abort(400)
    done = vacations.come_back(current_user, utcnow())
    flash(" ".join(done) or "You were not away.")
    game_id = request.form.get("next_game", type=int)
    return redirect(url_for("play.game", game_id=game_id) if game_id else url_for("lobby.index"))


@bp.get("/mail/unsubscribe/<token>")
def unsubscribe_page(token: str):
    user = read_token(token)
    return render_template("preferences/unsubscribe.html", user=user, done=False, form=EmptyForm())


@bp.post("/mail/unsubscribe/<token>")
@csrf.exempt
def unsubscribe(token: str):
    """RFC 8058 one-click: mail providers POST here without a session or a CSRF
    token, so the signed token is the authority; it can only turn optional
    mail off, never stop the mails a game needs."""
    user = read_token(token)
    preferences.unsubscribe(user)
    return render_template("preferences/unsubscribe.html", user=user, done=True, form=None)


def read_token(token: str) -> User:
    try:
        return links().read_unsubscribe(token)
    except LinkError:
        abort(404, N_("This unsubscribe link is not valid."))
