"""Moderation pages: the dashboard of games needing attention, one game's
moderation page and its actions, the list of site moderators, a player's
resignation, and ``flask pbem make-moderator``.  Views read a form, call
services/moderation.py and redirect; only moderators (and a game's host, for that
game) get past ``_moderated``."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import click
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
from flask.cli import AppGroup
from flask_babel import gettext
from flask_babel import lazy_gettext as _l
from flask_login import current_user, login_required
from flask_wtf import FlaskForm
from peewee import JOIN
from wtforms import (
    EmailField,
    HiddenField,
    IntegerField,
    SelectField,
    StringField,
    TextAreaField,
)
from wtforms.fields.choices import SelectChoice
from wtforms.validators import InputRequired, Length, NumberRange, Optional

from engine.interface import Event as EngineEvent
from engine.interface import name_seats
from engine.words import N_, Words
from server.db import db
from server.i18n import say, translate
from server.models import Event, Game, InboundMail, Invitation, Seat, User, utcnow
from server.services import (
    attention,
    bot_accounts,
    bot_seats,
    outbox,
    proposals,
    table_talk,
    what_a_seat_sees,
)
from server.services import moderation as moderate
from server.services.clock import outage_guard
from server.services.state_store import load_state, rules
from server.services.what_a_seat_sees import deadline_text, log_lines, seat_names
from server.web.forms import EmptyForm, FastHiddenInput, FastTextArea, Form
from server.web.languages import page_language, say_here

bp = Blueprint("moderation", __name__)
cli = AppGroup("pbem", help="pbem administration.")
RECENT_MOVES = 10


# -- forms --------------------------------------------------------------------
class ReasonForm(FlaskForm):
    seq = HiddenField(validators=[InputRequired()])
    reason = TextAreaField(
        _l("Reason (the players will read it)"), [InputRequired(), Length(3, moderate.REASON_MAX)]
    )


class ExtendForm(ReasonForm):
    hours = IntegerField(_l("More hours"), [InputRequired(), NumberRange(1, 24 * 60)], default=24)


class SeatForm(ReasonForm):
    seat = SelectField(_l("Seat"), coerce=int, validators=[InputRequired()])


class ReplaceForm(SeatForm):
    email = EmailField(_l("Email of the new player"), [InputRequired(), Length(max=254)])
    name = StringField(_l("Their name, if they have no account yet"), [Optional(), Length(max=40)])


class BotForm(SeatForm):
    bot = SelectField(_l("Bot"))  # choices: set_choices


class UndoForm(ReasonForm):
    count = IntegerField(
        _l("Moves to undo"), [InputRequired(), NumberRange(1, moderate.UNDO_MAX)], default=1
    )


class ResignForm(Form):
    # Shown on every game page of a signed-in player: a label given (never
    # shown) spares WTForms asking Flask-WTF for its catalog, which loads the
    # catalog's file anew each time; Form writes the CSRF token's input fast.
    seq = HiddenField("seq", validators=[InputRequired()], widget=FastHiddenInput())
    reason = TextAreaField(
        _l("Why (optional; the other players will read it)"),
        [Optional(), Length(max=moderate.REASON_MAX)],
        widget=FastTextArea(),
    )


class ModeratorForm(FlaskForm):
    email = EmailField(_l("Email of their account"), [InputRequired(), Length(max=254)])


class BotAccountForm(ModeratorForm):
    is_bot = SelectField(
        _l("This account is"),
        choices=[
            SelectChoice("yes", _l("a bot (a program playing through the API)")),
            SelectChoice("no", _l("a person")),
        ],
    )
    reason = TextAreaField(
        _l("Reason (on the record)"), [InputRequired(), Length(3, moderate.REASON_MAX)]
    )


# What each action posts and the service it calls (with the form's own fields).
# action: (its form, the service that does it, the service's arguments from the form)
ACTIONS: dict[str, tuple[type[ReasonForm], Callable[..., str], Callable[[Any], dict]]] = {
    "extend": (ExtendForm, moderate.extend, lambda f: {"hours": f.hours.data}),
    "default": (ReasonForm, moderate.play_default, lambda f: {}),
    "pause": (ReasonForm, moderate.pause, lambda f: {}),
    "resume": (ReasonForm, moderate.resume, lambda f: {}),
    "replace": (
        ReplaceForm,
        moderate.replace,
        lambda f: {"index": f.seat.data - 1, "email": f.email.data, "name": f.name.data},
    ),
    "remove": (SeatForm, moderate.remove, lambda f: {"index": f.seat.data - 1}),
    "bot": (
        BotForm,
        bot_seats.hand_to_bot,
        lambda f: {"index": f.seat.data - 1, "bot": f.bot.data},
    ),
    "undo": (UndoForm, moderate.undo, lambda f: {"count": f.count.data}),
    "abandon": (ReasonForm, moderate.abandon, lambda f: {}),
}


def mailer():
    return current_app.extensions["pbem_mailer"]


def me() -> User:
    return current_user._get_current_object()


def _moderated(game_id: int) -> Game:
    game = Game.get_or_none(Game.id == game_id) or abort(404)
    if not moderate.may_moderate(current_user, game):
        abort(403, N_("Only a moderator or the host of this game may see this page."))
    return game


def local_time(when) -> str:
    return deadline_text(when, current_user.timezone, page_language())


def _seq(form) -> int:
    # isdigit() alone accepts "²", which int() refuses: ASCII digits only.
    text = form.seq.data or ""
    if not (text.isascii() and text.isdigit()) or len(text) > 9:
        abort(400, N_("The form was not understood; reload the page and try again."))
    return int(text)


def _checked(form):
    if not form.validate_on_submit():
        problems = [
            f"{gettext('%(label)s:', label=form[name].label.text)} {errors[0]}"
            for name, errors in form.errors.items()
            if name in form
        ]
        abort(400, " ".join(problems) or "The form was not understood; reload the page.")
    return form


def set_choices(form, game: Game) -> None:
    """The seats and bots a form offers, from the game."""
    if hasattr(form, "seat"):
        # "%(label)s:": the language's colon (French spaces it).
        form.seat.choices = [
            (i + 1, f"{gettext('%(label)s:', label=i + 1)} {name}")
            for i, name in enumerate(seat_names(game, page_language()))
        ]
    if hasattr(form, "bot"):
        form.bot.choices = [
            (name, say_here(title)) for name, title in bot_seats.offered(bot_seats.TABLE_BOTS)
        ]


@bp.app_context_processor
def helpers():
    return {
        "may_moderate": lambda game: moderate.may_moderate(current_user, game),
        "resign_form": lambda game: ResignForm(prefix="resign", seq=game.seq),
    }


# -- pages --------------------------------------------------------------------
@bp.get("/moderation")
@login_required
def dashboard():
    if not moderate.moderates_any(current_user):
        abort(403, N_("Only moderators and hosts of games may see this page."))
    sort = request.args.get("sort", "idle")
    sort = sort if sort in attention.SORTS else "idle"
    descending, everything = request.args.get("order") != "asc", request.args.get("all") == "1"
    now = utcnow()
    rows = attention.rows(me(), now, everything, sort, descending)
    processes = outage_guard.process_status(current_app.config, now) if me().is_moderator else []
    return render_template(
        "moderation/dashboard.html",
        rows=rows,
        sort=sort,
        everything=everything,
        descending=descending,
        span=attention.span,
        deadline_text=local_time,
        processes=processes,
    )


@bp.get("/moderation/games/<int:game_id>")
@login_required
def game(game_id: int):
    game = _moderated(game_id)
    return render_template("moderation/game.html", **game_page(game))


def game_page(game: Game) -> dict:
    seats = list(
        Seat.select(Seat, User)
        .join(User, JOIN.LEFT_OUTER, on=(Seat.user == User.id))
        .where(Seat.game == game.id)
        .order_by(Seat.index)
    )
    mine = next((s.index for s in seats if s.user_id == current_user.id), None)
    names = seat_names(game, page_language())
    # A host who plays sees only their own seat's secrets.
    log = log_lines(game, mine, names, language=page_language())
    by_seq: dict[int, list[str]] = {}
    for line in log:
        by_seq.setdefault(line.seq, []).append(line.text)
    recent = list(
        Event.select()
        .where((Event.game == game.id) & (Event.kind == "move"))
        .order_by(Event.seq.desc())
        .limit(RECENT_MOVES)
    )
    notes = list(
        Event.select(Event, User)
        .join(User, JOIN.LEFT_OUTER, on=(Event.user == User.id))
        .where((Event.game == game.id) & (Event.kind == "note"))
        .order_by(Event.seq)
    )
    forms = {name: cls(prefix=name, seq=game.seq) for name, (cls, _, _) in ACTIONS.items()}
    for name in ("replace", "remove", "bot"):
        set_choices(forms[name], game)
    mail = dict(
        mail_failing=outbox.failing_since(s.user.email for s in seats if s.user_id),
        failing_mails=outbox.failing_mails(game),
        retry_form=EmptyForm(),
        shown_addresses=shown_addresses(game, seats),
    )
    return dict(
        **mail,
        game=game,
        kind=rules(game),
        seats=seats,
        names=names,
        recent=recent,
        by_seq=by_seq,
        notes=notes,
        forms=forms,
        deadline_text=local_time,
        playing_host=not moderate.may_alone(current_user, game, "undo"),
        talk=[m for m in what_a_seat_sees.table_talk(game, limit=50) if not m["hidden"]],
        hide_form=lambda: ReasonForm(prefix="hide", seq=game.seq),
        log=log[-30:],
        prompt=pending_prompt(game, names),
        note_text=note_text,
        actors=ACTORS,
    )


def shown_addresses(game: Game, seats) -> set[str]:
    """The seats' addresses this reader may see: all of them for a site
    moderator; for a host, only those she invited herself (the others joined
    by the join link or were seated by a moderator: a name, not an address)."""
    if current_user.is_moderator:
        return {s.user.email for s in seats if s.user_id}
    return {i.email for i in Invitation.select().where(Invitation.game == game.id)}


# Who made a log row, as the log's column says it (the row keeps the code).
ACTORS = {
    "player": N_("player"),
    "timeout": N_("timeout"),
    "moderator": N_("moderator"),
    "host": N_("host"),
    "bot": N_("bot"),
}


def note_text(note: Event) -> str:
    """A moderation note in the reader's language (notes hide nothing)."""
    in_language = partial(say, page_language())
    return " ".join(EngineEvent.from_json(e).text_for(None, None, in_language) for e in note.events)


def pending_prompt(game: Game, names: list[str]) -> str:
    """What the seat to move is asked, in the reader's language."""
    if game.status != "active":
        return ""
    game_rules = rules(game)
    template, values = game_rules.prompt_message(load_state(game, save=False))
    return name_seats(translate(page_language(), template, values, game_rules.domain), names)


@bp.post("/moderation/games/<int:game_id>/<action>")
@login_required
def act(game_id: int, action: str):
    if action not in ACTIONS:
        abort(404)
    game = _moderated(game_id)
    form_class, service, extra = ACTIONS[action]
    form = form_class(prefix=action)
    set_choices(form, game)
    _checked(form)
    try:
        message = service(
            game_id, me(), _seq(form), reason=form.reason.data, mailer=mailer(), **extra(form)
        )
    except moderate.NeedsAgreement:
        # A host who plays: the other players decide (services/proposals.py).
        message = proposals.propose(
            game_id, me(), _seq(form), action, extra(form), form.reason.data, mailer=mailer()
        )
    flash(message)
    return redirect(url_for("moderation.game", game_id=game_id))


@bp.post("/moderation/games/<int:game_id>/mails/<int:outbox_id>/retry")
@login_required
def retry_mail(game_id: int, outbox_id: int):
    """Send a failed or bounced mail again; the game's record says who did."""
    _moderated(game_id)
    _checked(EmptyForm())
    seq = request.form.get("seq", "")
    if not (seq.isascii() and seq.isdigit()) or len(seq) > 9:
        abort(400, N_("The form was not understood; reload the page and try again."))
    flash(outbox.retry(game_id, me(), int(seq), outbox_id))
    return redirect(url_for("moderation.game", game_id=game_id))


@bp.post("/moderation/games/<int:game_id>/talk/<int:message_id>/hide")
@login_required
def hide_talk(game_id: int, message_id: int):
    _moderated(game_id)
    form = _checked(ReasonForm(prefix="hide"))
    flash(table_talk.hide(game_id, me(), _seq(form), message_id, form.reason.data, mailer=mailer()))
    return redirect(url_for("moderation.game", game_id=game_id))


@bp.post("/games/<int:game_id>/proposals/<int:proposal_id>/<answer>")
@login_required
def answer(game_id: int, proposal_id: int, answer: str):
    if answer not in ("yes", "no"):
        abort(404)
    _checked(EmptyForm())
    flash(proposals.answer(game_id, me(), proposal_id, answer == "yes", mailer=mailer()))
    return redirect(url_for("play.game", game_id=game_id))


@bp.post("/games/<int:game_id>/resign")
@login_required
def resign(game_id: int):
    form = _checked(ResignForm(prefix="resign"))
    flash(moderate.resign(game_id, me(), _seq(form), form.reason.data, mailer=mailer()))
    return redirect(url_for("play.game", game_id=game_id))


@bp.route("/moderation/moderators", methods=("GET", "POST"))
@login_required
def moderators():
    if not current_user.is_moderator:
        abort(403, N_("Only site moderators may see this page."))
    form = ModeratorForm()
    if form.validate_on_submit():
        user = moderate.set_moderator(form.email.data, True)
        flash(gettext("%(name)s (%(email)s) is a moderator now.", name=user.name, email=user.email))
        return redirect(url_for("moderation.moderators"))
    if form.errors:
        abort(400, N_("Give the email address of an account."))
    people = User.select().where(User.is_moderator == True).order_by(User.name)  # noqa: E712
    return render_template(
        "moderation/moderators.html",
        form=form,
        people=list(people),
        revoke_form=EmptyForm(),
        bot_form=BotAccountForm(prefix="bot"),
        bots=bot_accounts.bots(),
        record=bot_accounts.record(),
    )


@bp.post("/moderation/bots")
@login_required
def mark_bot():
    """A site moderator marks an account as a bot, or as a person, on the record."""
    form = _checked(BotAccountForm(prefix="bot"))
    user = bot_accounts.mark(me(), form.email.data, form.is_bot.data == "yes", form.reason.data)
    flash(
        gettext("%(name)s is marked as a bot.", name=user.name)
        if user.is_bot
        else gettext("%(name)s is marked as a person.", name=user.name)
    )
    return redirect(url_for("moderation.moderators") + "#bots")


@bp.post("/moderation/moderators/<int:user_id>/revoke")
@login_required
def revoke(user_id: int):
    if not current_user.is_moderator:
        abort(403, N_("Only site moderators may do that."))
    _checked(EmptyForm())
    user = User.get_or_none(User.id == user_id) or abort(404)
    moderate.set_moderator(user.email, False)
    flash(gettext("%(name)s is no longer a moderator.", name=user.name))
    return redirect(url_for("moderation.moderators"))


# -- inbound mail ---------------------------------------------------------------
# Site moderators only: a reply quotes the mail it answers, with that seat's
# hidden holdings, which a host who plays must not read.
INBOUND_STATUSES = {
    "received": N_("received"),
    "applied": N_("applied"),
    "refused": N_("refused"),
    "held": N_("held"),
    "ignored": N_("ignored"),
}


def outcome_text(mail: InboundMail) -> str:
    """What became of a mail, in the moderator's language (rows kept before
    the words were kept say it in English)."""
    if mail.outcome_words:
        return say_here(Words.from_json(mail.outcome_words))
    return mail.outcome


@bp.get("/moderation/inbound")
@login_required
def inbound():
    if not current_user.is_moderator:
        abort(403, N_("Only site moderators may see incoming mail."))
    status = request.args.get("status", "")
    query = InboundMail.select().order_by(InboundMail.id.desc()).limit(100)
    if status in INBOUND_STATUSES:
        query = query.where(InboundMail.status == status)
    return render_template(
        "moderation/inbound.html",
        mails=list(query),
        status=status,
        statuses=INBOUND_STATUSES,
        local_time=local_time,
        outcome_text=outcome_text,
    )


@bp.get("/moderation/inbound/<int:mail_id>")
@login_required
def inbound_mail(mail_id: int):
    if not current_user.is_moderator:
        abort(403, N_("Only site moderators may see incoming mail."))
    mail = InboundMail.get_or_none(InboundMail.id == mail_id) or abort(404)
    return render_template(
        "moderation/inbound_mail.html",
        mail=mail,
        local_time=local_time,
        statuses=INBOUND_STATUSES,
        outcome_text=outcome_text,
    )


# -- command line -------------------------------------------------------------
@cli.command("make-moderator")
@click.argument("email")
@click.option("--revoke", is_flag=True, help="Take the moderator right away instead.")
def make_moderator(email: str, revoke: bool):
    """Make the account with EMAIL a site moderator (it must exist)."""
    with db.connection_context():
        try:
            user = moderate.set_moderator(email, not revoke)
        except moderate.ModerationError as exc:
            raise click.ClickException(str(exc)) from None
    click.echo(f"{user.email} is {'no longer ' if revoke else ''}a site moderator")


def init_cli(app) -> None:
    app.cli.add_command(cli)
