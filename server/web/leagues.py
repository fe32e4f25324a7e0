"""Leagues: the list, making one, a league's page (standings and rounds),
a round's page, joining and leaving, and its record as JSON.  Views read
the form, call services/leagues.py and redirect; a refused action comes
back as a page that says why (services.leagues.LeagueError)."""

from __future__ import annotations

import datetime as dt
import zoneinfo

from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _
from flask_login import current_user, login_required

from engine import GAMES, get_game
from engine.words import N_
from server.models import Game, League, User
from server.services import clubs, leagues
from server.web.forms import EmptyForm
from server.web.languages import say_here
from server.web.league_forms import FORMAT_HELP, ROUND_START_HELP, LeagueForm

bp = Blueprint("leagues", __name__)


def checked_form() -> None:
    if not EmptyForm().validate_on_submit():
        abort(400, N_("The form was not understood; reload the page and try again."))


def to_league(league: League):
    return redirect(url_for("leagues.league", league_id=league.id))


@bp.get("/leagues")
def listing():
    shown = list(
        League.select()
        .where(League.club.is_null() | (League.club_only == False))  # noqa: E712 (SQL)
        .order_by(League.id.desc())
        .limit(200)
    )
    return render_template("leagues/list.html", leagues=shown, title=game_title)


def game_title(league: League) -> str:
    return get_game(league.kind).title


def admin_clubs() -> list:
    return [c for c in clubs.clubs_of(current_user) if clubs.is_admin(c, current_user)]


def utc_from_local(when: dt.datetime | None) -> dt.datetime | None:
    if when is None:
        return None
    try:
        zone = zoneinfo.ZoneInfo(current_user.timezone or "UTC")
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        zone = zoneinfo.ZoneInfo("UTC")
    return when.replace(tzinfo=zone).astimezone(dt.UTC).replace(tzinfo=None)


@bp.route("/leagues/new", methods=("GET", "POST"))
@login_required
def new():
    form = LeagueForm()
    form.kind.choices = [(name, g.title) for name, g in sorted(GAMES.items())]
    form.club.choices = [("", _("No club"))] + [(str(c.id), c.name) for c in admin_clubs()]
    if form.is_submitted() and not form.validate_on_submit():
        if "csrf_token" in form.errors:
            abort(400, N_("The form was not understood; reload the page and try again."))
    if not form.is_submitted():
        return new_page(form)
    starts_at = utc_from_local(form.starts_at.data)
    try:
        if starts_at is None:
            raise leagues.LeagueError(N_("Choose the league's start date and time."))
        club = next((c for c in admin_clubs() if str(c.id) == form.club.data), None)
        if form.club.data and club is None:
            raise leagues.LeagueError(N_("Only an admin of the club may make a league for it."))
        league = leagues.create(
            current_user,
            form.name.data or "",
            form.kind.data or "",
            move_hours=form.move_hours.data or 0,
            format=form.format.data or "",
            rounds=form.rounds.data or 0,
            table_min=form.table_min.data or 0,
            table_max=form.table_max.data or 0,
            max_players=form.max_players.data or 0,
            starts_at=starts_at,
            round_start=form.round_start.data or "",
            same_deal=form.same_deal.data == "yes",
            dropout=form.dropout.data or "",
            club=club,
            club_only=form.access.data == "club",
            options=chosen_options(form.kind.data or ""),
        )
    except leagues.LeagueError as exc:
        return new_page(form, problem=say_here(exc.args[0])), 400
    flash(_("Your league is made: share its page so players join."))
    return to_league(league)


def new_page(form: LeagueForm, problem: str = "") -> str:
    return render_template(
        "leagues/new.html",
        form=form,
        kinds=GAMES,
        problem=problem,
        format_help=FORMAT_HELP,
        round_start_help=ROUND_START_HELP,
    )


def chosen_options(kind: str) -> dict:
    """The options shown for the game picked (each game's are named
    option_<game>_<option>); services/leagues.py checks them."""
    game = GAMES.get(kind)
    if game is None:
        return {}
    prefix = f"option_{kind}_"
    return {s.name: request.form.get(prefix + s.name, s.default) for s in game.options}


def visible(league_id: int) -> League:
    """A club-only league shows itself to its club's members only."""
    league = leagues.by_id(league_id)
    if league.club_only and not leagues.may_join(league, current_user):
        if leagues.member(league, current_user) is None:
            abort(404)
    return league


def names_of(league: League) -> dict[int, str]:
    return {
        u.id: u.name
        for u in User.select(User.id, User.name).where(
            User.id.in_([m.user_id for m in leagues.members(league)])
        )
    }


@bp.get("/leagues/<int:league_id>")
def league(league_id: int):
    found = visible(league_id)
    return render_template(
        "leagues/league.html",
        league=found,
        title=game_title(found),
        member=leagues.member(found, current_user),
        may_join=current_user.is_authenticated and leagues.may_join(found, current_user),
        players=leagues.members(found),
        names=names_of(found),
        lines=leagues.standings(found),
        rounds=leagues.rounds_of(found),
        problem=leagues.start_problem(found),
        points=leagues.points_shown,
        form=EmptyForm(),
    )


@bp.get("/leagues/<int:league_id>/rounds/<int:number>")
def round_page(league_id: int, number: int):
    found = visible(league_id)
    row = next((r for r in leagues.rounds_of(found) if r.number == number), None)
    if row is None:
        abort(404)
    names = names_of(found)
    tables = []
    for table in leagues.tables_of(row):
        ranks = leagues.table_ranks(table) or {}
        game = Game.get_by_id(table.game_id) if table.game_id else None
        tables.append({"table": table, "game": game, "ranks": ranks})
    return render_template("leagues/round.html", league=found, row=row, tables=tables, names=names)


@bp.post("/leagues/<int:league_id>/join")
@login_required
def join(league_id: int):
    checked_form()
    found = visible(league_id)
    leagues.join(found, current_user)
    flash(_("You are in the league %(league)s.", league=found.name))
    return to_league(found)


@bp.post("/leagues/<int:league_id>/leave")
@login_required
def leave(league_id: int):
    checked_form()
    found = visible(league_id)
    said = leagues.leave(found, current_user, current_app.extensions["pbem_mailer"])
    flash(say_here(said))
    return to_league(found)


@bp.get("/leagues/<int:league_id>.json")
def record(league_id: int):
    """The league's record: its choices, players, rounds, tables with their
    games and places, and the standings (names, never addresses)."""
    found = visible(league_id)
    names = names_of(found)
    return jsonify(
        {
            "id": found.id,
            "name": found.name,
            "game": found.kind,
            "club": found.club.slug if found.club_id else None,
            "club_only": found.club_only,
            "format": found.format,
            "rounds": found.rounds,
            "table_sizes": [found.table_min, found.table_max],
            "max_players": found.max_players,
            "starts_at": found.starts_at.isoformat() + "Z",
            "round_start": found.round_start,
            "same_deal": found.same_deal,
            "dropout": found.dropout,
            "state": found.state,
            "players": [
                {
                    "id": m.user_id,
                    "name": names.get(m.user_id, ""),
                    "dropped_at": m.dropped_at.isoformat() + "Z" if m.dropped_at else None,
                }
                for m in leagues.members(found)
            ],
            "round_list": [
                {
                    "number": r.number,
                    "state": r.state,
                    "tables": [
                        {
                            "number": t.number,
                            "players": t.players,
                            "game": t.game_id,
                            "ranks": {str(k): v for k, v in (leagues.table_ranks(t) or {}).items()},
                        }
                        for t in leagues.tables_of(r)
                    ],
                }
                for r in leagues.rounds_of(found)
            ],
            "standings": [
                {
                    "place": ln.place,
                    "player": ln.player,
                    "points": ln.points,
                    "wins": ln.wins,
                    "opponents_points": ln.opponents,
                    "played": ln.played,
                    "dropped": ln.dropped,
                }
                for ln in leagues.standings(found)
            ],
        }
    )
