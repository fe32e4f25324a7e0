"""Finding a game: the open games list with a one-click join, and the host
cancelling a lobby.  Views read the form, call services/open_games.py and
redirect."""

from __future__ import annotations

from babel import Locale
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

from engine import GAMES, get_game
from engine.words import N_
from server.i18n import LANGUAGES, known
from server.services import clubs, open_games
from server.web.forms import EmptyForm
from server.web.languages import page_language

bp = Blueprint("open_games", __name__)


def mailer():
    return current_app.extensions["pbem_mailer"]


def language_name(code: str) -> str | None:
    """A table's language in the reader's words ("Dutch", "Niederländisch")."""
    found = known(code)
    return Locale.parse(found).get_language_name(page_language()) if found else ""


@bp.get("/games/open")
def listing():
    """Everybody may look; joining needs an account.  ``?kind=`` and
    ``?language=`` narrow the list; a value we do not know shows them all."""
    kind = request.args.get("kind", "")
    kind = kind if kind in GAMES else ""
    language = known(request.args.get("language", "")) or ""
    mine = {club.id: club.name for club in clubs.clubs_of(current_user)}
    rows = [
        {
            "row": row,
            "kind": get_game(row.game.kind),
            "language": language_name(row.game.language),
            "club": mine.get(row.game.club_id),
        }
        for row in open_games.listing(kind=kind, language=language, clubs_first=tuple(mine))
    ]
    return render_template(
        "lobby/open.html",
        rows=rows,
        form=EmptyForm(),
        kinds=[(name, game.title) for name, game in GAMES.items()],
        languages=[(code, language_name(code)) for code in LANGUAGES],
        kind=kind,
        language=language,
    )


@bp.post("/games/<int:game_id>/take-seat")
@login_required
def take_seat(game_id: int):
    if not EmptyForm().validate_on_submit():
        abort(400, N_("The form was not understood; reload the page and try again."))
    seat, new = open_games.join_listed(game_id, current_user, mailer())
    flash(
        _("You sit in seat %(number)s.", number=seat.index + 1)
        if new
        else _("You sit in this game already (seat %(number)s).", number=seat.index + 1)
    )
    return redirect(url_for("lobby.lobby", game_id=game_id))


@bp.post("/games/<int:game_id>/cancel")
@login_required
def cancel(game_id: int):
    if not EmptyForm().validate_on_submit():
        abort(400, N_("The form was not understood; reload the page and try again."))
    open_games.cancel(game_id, current_user, mailer())
    flash(_("The game is called off; the players who had joined are told by mail."))
    return redirect(url_for("lobby.index"))
