"""A game's past: its whole log, any earlier position (the board as it stood after log row
N) and the record to download, as JSON or text.  Each is built from the
viewer's view only, like the game page, and is a GET that changes nothing."""

from __future__ import annotations

from flask import Blueprint, Response, abort, current_app, json, render_template
from flask_babel import gettext as _
from flask_login import current_user

from engine.words import N_
from server.models import Game, Seat
from server.services import tenures, visibility
from server.services.state_store import replay, rules
from server.services.what_a_seat_sees import board, log_lines, outcome_rows, seat_names
from server.web import drawings, seat_access, speedups
from server.web.languages import page_language

bp = Blueprint("records", __name__)


def viewable(game_id: int) -> tuple[Game, Seat | None]:
    """The game and the viewer's seat, for whoever may see its page."""
    game = Game.get_or_none(Game.id == game_id) or abort(404)
    if game.status not in ("active", "finished"):
        abort(404, N_("This game has no record: it never started."))
    seat = seat_access.viewer_seat(game)
    if seat is None and not current_user.is_authenticated:
        abort(current_app.login_manager.unauthorized())
    if not visibility.may_see(game, current_user, seat):
        abort(404)
    return game, seat


@bp.get("/games/<int:game_id>/at/<int:seq>")
def position(game_id: int, seq: int):
    game, seat = viewable(game_id)
    if seq > game.seq:
        abort(404, _("The log of this game has %(rows)s rows.", rows=game.seq))
    viewer = seat.index if seat else None
    # The seats as they were held then (services/tenures.py).
    names = tenures.roster(game, seat_names(game, page_language())).names_at(seq, page_language())
    state = replay(game, upto=seq)
    game_rules = rules(game)
    return render_template(
        "play/position.html",
        game=game,
        kind=game_rules,
        seq=seq,
        sections=board(game, state, viewer, names, page_language()),
        drawing=drawings.drawing(game_rules, state, viewer, names, seat),
        log=log_lines(game, viewer, names, upto=seq, language=page_language())[-20:],
    )


@bp.get("/games/<int:game_id>/log")
def log(game_id: int):
    """The whole log, each line opening the board as it stood after it."""
    game, seat = viewable(game_id)
    names = seat_names(game, page_language())
    lines = log_lines(game, seat.index if seat else None, names, language=page_language())
    return render_template(
        "play/log.html",
        game=game,
        kind=rules(game),
        log=lines,
        position_link=speedups.link_maker("records.position", "seq", game_id=game.id),
    )


def record(game: Game, seat: Seat | None) -> dict:
    viewer = seat.index if seat else None
    names = seat_names(game, page_language())
    held = tenures.roster(game, names)
    return {
        "game": game.name,
        "id": game.id,
        "kind": game.kind,
        "title": rules(game).title,
        "options": game.options,
        "players": held.final_names(page_language()),
        "seats": [
            {
                "seat": h.seat + 1,
                "name": h.name,
                "from_seq": h.from_seq,
                "to_seq": h.to_seq,
                "began": h.began,
                "ended": h.ended,
            }
            for h in held.tenures()
        ],
        "status": game.status,
        "started_at": game.started_at.isoformat() if game.started_at else None,
        "finished_at": game.finished_at.isoformat() if game.finished_at else None,
        "log": [
            {"seq": line.seq, "text": line.text}
            for line in log_lines(game, viewer, names, language=page_language())
        ],
        "result": outcome_rows(game, held.final_names(page_language()), page_language()),
    }


@bp.get("/games/<int:game_id>/record.json")
def record_json(game_id: int):
    game, seat = viewable(game_id)
    body = json.dumps(record(game, seat), indent=1, ensure_ascii=False)
    return Response(
        body,
        mimetype="application/json",
        headers={"Content-Disposition": f'attachment; filename="pbem-game-{game.id}.json"'},
    )


# How a tenure began and ended, as the text record says it (the row keeps the code).
TENURE_WORDS = {
    "joined": N_("joined"),
    "replaced": N_("replaced"),
    "took_over": N_("taken over by a bot"),
    "removed": N_("removed"),
    "resigned": N_("resigned"),
}


def _tenure_word(code: str) -> str:
    return _(TENURE_WORDS[code]) if code in TENURE_WORDS else code


def _held_lines(seats: list[dict]) -> list[str]:
    """Who held each seat from which row to which (only when a seat changed hands)."""
    if len({s["seat"] for s in seats}) == len(seats):
        return []
    return (
        [_("Seats held:")]
        + [
            "  "
            + _(
                "seat %(number)s: %(name)s, rows %(first)s-%(last)s (%(began)s%(ended)s)",
                number=s["seat"],
                name=s["name"],
                first=s["from_seq"] + 1,
                last=s["to_seq"] if s["to_seq"] is not None else "",
                began=_tenure_word(s["began"]),
                ended=f", {_tenure_word(s['ended'])}" if s["ended"] else "",
            )
            for s in seats
        ]
        + [""]
    )


@bp.get("/games/<int:game_id>/record.txt")
def record_text(game_id: int):
    game, seat = viewable(game_id)
    data = record(game, seat)
    players = ", ".join(
        _("%(name)s (seat %(number)s)", name=n, number=i + 1) for i, n in enumerate(data["players"])
    )
    lines = [
        f"{data['game']} ({data['title']} #{data['id']})",
        _("Players: %(players)s", players=players),
        "",
    ]
    lines += _held_lines(data["seats"])
    lines += [f"{row['seq']:>5}  {row['text']}" for row in data["log"]]
    if data["result"]:
        lines += ["", _("Result:")] + [
            f"  {r['name']}: {r['total']}" + (" " + _("(winner)") if r["winner"] else "")
            for r in data["result"]
        ]
    return Response(
        "\n".join(lines) + "\n",
        mimetype="text/plain",
        headers={"Content-Disposition": f'attachment; filename="pbem-game-{game.id}.txt"'},
    )
