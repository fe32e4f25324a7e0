"""Chat and push channels (server/notify): a player's own, in Settings, and
a game's table channel, set by its host.  Every form is a POST with its
CSRF token; a channel's address is shown only masked, and a signed
webhook's key only once, in the answer to the form that made it."""

from __future__ import annotations

from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    url_for,
)
from flask_babel import gettext as _
from flask_login import current_user, login_required

from engine.words import N_
from server.db import db
from server.models import Game, Seat
from server.notify import channels, notices
from server.web import rate_limits
from server.web.forms import EmptyForm, TableChannelForm, TableChoiceForm
from server.web.settings_page import channel_form, render_settings, settings_form

bp = Blueprint("channels", __name__)


@bp.post("/settings/channels")
@login_required
def add():
    form = channel_form()
    if form.validate_on_submit():
        quiet_from = form.quiet_from.data
        try:
            _channel, key = channels.add(
                current_app.config,
                current_user,
                form.url.data,
                form.events.data,
                quiet_from,
                form.quiet_until.data if quiet_from is not None else None,
            )
        except channels.ChannelError as exc:
            form.url.errors = [_(str(exc))]
        else:
            if key:
                return shown_once(key)
            flash(_("The channel is added. Send a test to see that it works."))
            return redirect(url_for("preferences.settings") + "#channels")
    form.url.data = ""  # a refused address is not shown back either
    return render_settings(settings_form(), None, form), 400


def shown_once(key: str):
    """The page with a new webhook's signing key: kept by no cache."""
    return (
        render_template("preferences/signing_key.html", key=key),
        200,
        {"Cache-Control": "no-store"},
    )


@bp.post("/settings/channels/<int:channel_id>/remove")
@login_required
def remove(channel_id: int):
    if not EmptyForm().validate_on_submit():
        abort(400, N_("The form was not understood; reload the page and try again."))
    if not channels.remove(current_user, channel_id):
        abort(404)
    flash(_("The channel is removed."))
    return redirect(url_for("preferences.settings") + "#channels")


@bp.post("/settings/channels/<int:channel_id>/test")
@login_required
@rate_limits.per_user("RATELIMIT_NOTIFY_TEST_PER_USER")
def test(channel_id: int):
    if not EmptyForm().validate_on_submit():
        abort(400, N_("The form was not understood; reload the page and try again."))
    channel = channels.get_own(current_user, channel_id) or abort(404)
    with db.atomic():
        notices.queue_test(current_app.config, channel, current_user)
    flash(_("A test is on its way; this page shows how it went."))
    return redirect(url_for("preferences.settings") + "#channels")


# -- a game's table channel ---------------------------------------------------------
def _game_and_seat(game_id: int) -> tuple[Game, Seat | None]:
    game = Game.get_or_none(Game.id == game_id) or abort(404)
    seat = Seat.get_or_none((Seat.game == game.id) & (Seat.user == current_user.id))
    if seat is None and game.host_id != current_user.id:
        abort(403, N_("You have no seat in this game."))
    return game, seat


@bp.get("/games/<int:game_id>/channel")
@login_required
def table(game_id: int):
    return _table_page(*_game_and_seat(game_id), TableChannelForm())


def _table_page(game: Game, seat: Seat | None, form: TableChannelForm, status: int = 200):
    choice = TableChoiceForm(only=seat.table_channel_only) if seat is not None else None
    return render_template(
        "play/table_channel.html",
        game=game,
        seat=seat,
        channel=channels.table_channel(game.id),
        is_host=game.host_id == current_user.id,
        form=form,
        choice=choice,
        button=EmptyForm(),
    ), status


# Not the page's own URL: with a GET and a POST rule on one path, werkzeug
# answers 405 instead of 404 for an id too big for the database.
@bp.post("/games/<int:game_id>/channel/set")
@login_required
def set_table(game_id: int):
    game, seat = _game_and_seat(game_id)
    if game.host_id != current_user.id:
        abort(403, N_("Only the game's host sets its table channel."))
    form = TableChannelForm()
    if form.validate_on_submit():
        try:
            key = channels.set_table_channel(current_app.config, game, current_user, form.url.data)
        except channels.ChannelError as exc:
            form.url.errors = [_(str(exc))]
        else:
            if key:
                return shown_once(key)
            flash(_("The table channel is set."))
            return redirect(url_for("channels.table", game_id=game.id))
    form.url.data = ""
    return _table_page(game, seat, form, 400)


@bp.post("/games/<int:game_id>/channel/remove")
@login_required
def remove_table(game_id: int):
    game, _seat = _game_and_seat(game_id)
    if game.host_id != current_user.id:
        abort(403, N_("Only the game's host sets its table channel."))
    if not EmptyForm().validate_on_submit():
        abort(400, N_("The form was not understood; reload the page and try again."))
    channel = channels.table_channel(game.id)
    if channel is not None:
        channel.delete_instance()
    flash(_("The table channel is removed."))
    return redirect(url_for("channels.table", game_id=game.id))


@bp.post("/games/<int:game_id>/channel/choice")
@login_required
def choose(game_id: int):
    game, seat = _game_and_seat(game_id)
    if seat is None:
        abort(403, N_("You have no seat in this game."))
    form = TableChoiceForm()
    if not form.validate_on_submit():
        abort(400, N_("The form was not understood; reload the page and try again."))
    Seat.update(table_channel_only=bool(form.only.data)).where(Seat.id == seat.id).execute()
    flash(_("Your choice is saved."))
    return redirect(url_for("channels.table", game_id=game.id))
