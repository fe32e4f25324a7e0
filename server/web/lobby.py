"""The lobby: your games, creating a game, inviting, joining a seat, options,
starting.  Views read the form, call services/games.py and redirect."""

from __future__ import annotations

import re

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
from flask_babel import ngettext
from flask_login import current_user, login_required
from peewee import JOIN

from engine import GAMES, get_game
from engine.words import N_, msg
from server.i18n import LANGUAGES, say
from server.mail.links import LinkError
from server.models import Game, Seat, User
from server.services import (
    accounts,
    bot_seats,
    clubs,
    games,
    held_invitations,
    open_games,
    what_a_seat_sees,
)
from server.services.clock import deadlines, own_time, running_hours
from server.services.state_store import load_state, rules
from server.services.what_a_seat_sees import seat_names
from server.web import open_games as open_games_web
from server.web import rate_limits
from server.web.errors import link_error
from server.web.forms import (
    BotSeatForm,
    EmptyForm,
    InviteForm,
    JoinForm,
    NewGameForm,
    OptionForm,
)
from server.web.languages import page_language, say_here
from server.web.play import prompt_text

bp = Blueprint("lobby", __name__)
EMAIL = re.compile(accounts.EMAIL)


def mailer():
    return current_app.extensions["pbem_mailer"]


@bp.app_context_processor
def clock_policy_text():
    return {"clock_text": lambda game: say(page_language(), own_time.policy_text(game))}


@bp.get("/")
def index():
    if not current_user.is_authenticated:
        return render_template("lobby/welcome.html")
    mine = (
        Game.select(Game, Seat.index.alias("my_seat"), Seat.withdrawn.alias("gone"))
        .join(Seat)
        .where(Seat.user == current_user.id)
        .order_by(Game.id.desc())
        .objects()
    )
    rows = [(game, your_move(game)) for game in mine]
    # The games that wait for this player first (a stable sort keeps the rest newest first).
    rows.sort(key=lambda row: not row[1])
    return render_template(
        "lobby/index.html",
        rows=rows,
        form=EmptyForm(),
        prompts={g.id: waiting_prompt(g) for g, _mine in rows if g.status == "active"},
        statuses=GAME_STATUSES,
    )


def your_move(game: Game) -> bool:
    """The game waits for the reader's seat (``my_seat``, from the query)."""
    return (
        game.status == "active"
        and not game.paused
        and not game.gone
        and game.to_move == game.my_seat
    )


# A game's status as "Your games" says it (the row keeps the code).
GAME_STATUSES = {"open": N_("open"), "active": N_("under way"), "finished": N_("finished")}


def waiting_prompt(game: Game) -> str:
    """What the seat to move is asked, in the reader's language (the game
    row keeps it in English only)."""
    return prompt_text(rules(game), load_state(game, save=False), seat_names(game, page_language()))


@bp.route("/games/new", methods=("GET", "POST"))
@login_required
def new_game():
    source = request.form if request.method == "POST" else request.args
    form = NewGameForm(kind=source.get("kind"))
    form.kind.choices = [(name, g.title) for name, g in sorted(GAMES.items())]
    night = (current_app.config["NIGHT_FROM_HOUR"], current_app.config["NIGHT_UNTIL_HOUR"])
    form.clock_policy.choices = [
        (value, say(page_language(), label)) for value, label in running_hours.choices(night)
    ]
    form.practice.choices = practice_choices()
    form.language.choices = language_choices()
    form.club.choices = [("", _("No club"))] + [
        (str(c.id), c.name) for c in clubs.clubs_of(current_user)
    ]
    kind = GAMES.get(form.kind.data) or next(iter(GAMES.values()))
    if request.method == "GET":
        form.seats.data = form.seats.data or kind.max_players
        form.move_hours.data = current_app.config["DEFAULT_MOVE_HOURS"]
        form.reminder_hours.data = current_app.config["DEFAULT_REMINDER_HOURS"]
        form.language.data = page_language()
    elif "show" in request.form or request.form.get("shown") not in (None, kind.name):
        # "Show its options", or a game picked whose options the page did not
        # show yet: show them, create nothing (the player checks them first).
        picked = "show" not in request.form
        seats = min(max(form.seats.data or kind.max_players, kind.min_players), kind.max_players)
        form.seats.data, form.seats.raw_data = seats, [str(seats)]  # the field shows raw_data
        return render_template("lobby/new.html", form=form, kinds=GAMES, kind=kind, picked=picked)
    elif form.validate_on_submit():
        options = {
            spec.name: request.form.get(f"option_{spec.name}", spec.default)
            for spec in kind.options
        }
        try:
            hours = deadlines.parse_reminders(form.reminder_hours.data, form.move_hours.data)
        except ValueError as exc:
            form.reminder_hours.errors = [say_here(exc.args[0])]
            return render_template("lobby/new.html", form=form, kinds=GAMES, kind=kind), 400
        if form.practice.data:
            game = games.create_practice(
                current_user,
                form.kind.data,
                form.name.data.strip(),
                form.seats.data,
                options,
                form.practice.data,
                form.move_hours.data,
                mailer(),
                private=form.visibility.data == "private",
            )
            return redirect(url_for("play.game", game_id=game.id))
        try:
            club = clubs.club_for_new_game(current_user, form.club.data)
        except clubs.ClubError:
            form.club.errors = [_("You can make games only for clubs you are a member of.")]
            return render_template("lobby/new.html", form=form, kinds=GAMES, kind=kind), 400
        game = games.create_game(
            current_user,
            form.kind.data,
            form.name.data.strip(),
            form.seats.data,
            options,
            form.move_hours.data,
            hours,
            mailer(),
            *running_hours.parse_choice(form.clock_policy.data),
            public=form.public.data,
            language=form.language.data,
            private=form.visibility.data == "private",
            club=club,
            departed_seat=form.departed_seat.data,
        )
        return redirect(url_for("lobby.lobby", game_id=game.id))
    return render_template(
        "lobby/new.html", form=form, kinds=GAMES, kind=kind
    ), 400 if form.errors else 200


def language_choices() -> list[tuple[str, str]]:
    return [(code, name) for code, name in LANGUAGES.items()]


def practice_choices() -> list[tuple[str, str]]:
    return [("", _("No: I invite people"))] + [
        (name, _("Yes: a %(bot)s plays each other seat", bot=say_here(title)))
        for name, title in bot_seats.offered(bot_seats.PRACTICE_BOTS)
    ]


@bp.get("/games/<int:game_id>/lobby")
@login_required
def lobby(game_id: int):
    game = Game.get_or_none(Game.id == game_id) or abort(404)
    if game.status != "open":
        return redirect(url_for("play.game", game_id=game_id))
    if not may_join(game, current_user, token=None):
        abort(404)  # a stranger cannot tell a private lobby from no game
    return render_lobby(game, token="")


@bp.get("/j/<token>")
def join_link(token: str):
    """The shared join link: shows the lobby; joining is a POST from there."""
    try:
        game = mailer().links.read_join(token)
    except LinkError as exc:
        return link_error(exc)
    if game.status != "open":
        return redirect(url_for("play.game", game_id=game.id))
    return render_lobby(game, token=token)


def render_lobby(game: Game, token: str):
    seats = list(
        Seat.select(Seat, User)
        .join(User, on=(Seat.user == User.id), join_type=JOIN.LEFT_OUTER)
        .where(Seat.game == game.id)
        .order_by(Seat.index)
    )
    game_rules = get_game(game.kind)
    is_host = current_user.is_authenticated and game.host_id == current_user.id
    seated = current_user.is_authenticated and any(s.user_id == current_user.id for s in seats)
    return render_template(
        "lobby/lobby.html",
        game=game,
        kind=game_rules,
        seats=seats,
        token=token,
        is_host=is_host,
        seated=seated,
        join_url=mailer().links.join_url(game) if is_host else "",
        invited=[i for i in game.invitations if i.held_until is None or i.held_settled_at]
        if is_host
        else [],
        held=held_lines(game) if is_host else [],
        form=EmptyForm(),
        invite_form=InviteForm(),
        option_form=OptionForm(),
        bot_form=bot_form(),
        names=seat_names(game, page_language()),
        language=open_games_web.language_name(game.language),
    )


def held_lines(game: Game) -> list[str]:
    """Each invitation held back, in words, with when its mail goes in the
    host's time zone."""
    return [
        _(
            "%(address)s had as many invitations from this site as an address gets in a day. "
            "Yours is not lost: it goes in one mail with any others held for that address "
            "on %(when)s, unless the game has started by then.",
            address=row.email,
            when=what_a_seat_sees.deadline_text(
                row.held_until, current_user.timezone, page_language()
            ),
        )
        for row in held_invitations.held_in(game)
    ]


def bot_form() -> BotSeatForm:
    form = BotSeatForm()
    form.bot.choices = [
        (name, say_here(title)) for name, title in bot_seats.offered(bot_seats.PRACTICE_BOTS)
    ]
    return form


def may_join(game: Game, user: User, token: str | None) -> bool:
    if games.may_sit(game, user):
        return True
    if token:
        try:
            return mailer().links.read_join(token).id == game.id
        except LinkError:
            return False
    return False


@bp.post("/games/<int:game_id>/join")
@login_required
def join(game_id: int):
    form = JoinForm()
    game = Game.get_or_none(Game.id == game_id) or abort(404)
    if not form.validate_on_submit():
        abort(400, N_("Choose a seat number."))
    if not may_join(game, current_user, form.token.data):
        abort(403)
    seat = open_games.join_seat(game_id, current_user, form.seat.data - 1, mailer())
    flash(_("You sit in seat %(number)s.", number=seat.index + 1))
    return redirect(url_for("lobby.lobby", game_id=game_id))


@bp.post("/games/<int:game_id>/bot")
@login_required
def seat_bot(game_id: int):
    """The host puts a bot in an empty seat."""
    form = bot_form()
    if not form.validate_on_submit():
        abort(400, N_("Choose a seat and one of the bots offered."))
    seat = games.seat_bot(game_id, current_user, form.seat.data - 1, form.bot.data)
    flash(
        _(
            "The %(bot)s sits in seat %(number)s.",
            bot=say_here(what_a_seat_sees.bot_title(seat.bot)),
            number=seat.index + 1,
        )
    )
    return redirect(url_for("lobby.lobby", game_id=game_id))


@bp.post("/games/<int:game_id>/leave")
@login_required
def leave(game_id: int):
    if not EmptyForm().validate_on_submit():
        abort(400)
    game = Game.get_or_none(Game.id == game_id)
    if game is None or not may_join(game, current_user, token=None):
        abort(404)  # the same answer for a private lobby as for no game
    open_games.leave(game_id, current_user, mailer())
    flash(_("You left the game."))
    return redirect(url_for("lobby.index"))


@bp.post("/games/<int:game_id>/option")
@login_required
def option(game_id: int):
    form = OptionForm()
    if not form.validate_on_submit():
        abort(400, N_("Choose an option and a value."))
    game = games.set_option(game_id, current_user, form.name.data, form.value.data)
    spec = next(s for s in get_game(game.kind).options if s.name == form.name.data)
    flash(
        _(
            "%(option)s is now %(value)s.",
            option=say_here(spec.label),
            value=say_here(game.options[spec.name]),
        )
    )
    return redirect(url_for("lobby.lobby", game_id=game_id))


@bp.post("/games/<int:game_id>/invite")
@login_required
@rate_limits.per_user("RATELIMIT_INVITE_PER_USER")
def invite(game_id: int):
    form = InviteForm()
    if not form.validate_on_submit():
        abort(400, N_("Give at least one email address."))
    emails = [e.strip().lower() for e in re.split(r"[\s,;]+", form.emails.data) if e.strip()]
    bad = [e for e in emails if not EMAIL.match(e)]
    if bad or not emails or len(emails) > 20:
        abort(
            400,
            msg("These are not email addresses: %(bad)s", bad=", ".join(bad[:5]))
            if bad
            else N_("Give between 1 and 20 email addresses."),
        )
    sent, refused, held = games.invite_all(game_id, current_user, emails, mailer())
    if sent:
        flash(ngettext("Sent %(num)d invitation.", "Sent %(num)d invitations.", len(sent)))
    if held:
        flash(
            _(
                "Held back for now (the page says until when): %(addresses)s",
                addresses=", ".join(held[:20]),
            )
        )
    if refused:
        # Never why: whether an address asked to be left alone is its own business.
        flash(_("Could not be invited: %(addresses)s", addresses=", ".join(refused[:20])))
    return redirect(url_for("lobby.lobby", game_id=game_id))


@bp.post("/games/<int:game_id>/start")
@login_required
def start(game_id: int):
    if not EmptyForm().validate_on_submit():
        abort(400)
    games.start(game_id, current_user, mailer())
    flash(_("The game has started."))
    return redirect(url_for("play.game", game_id=game_id))
