"""The game page and the move form.  The page is built from the engine's view
for the seat this browser plays (web/seat_access.py: the account's own seat or
one opened from a mail link); a move is a POST carrying the sequence number
the page was made at."""

from __future__ import annotations

import datetime as dt
import json
from typing import NamedTuple

from babel.dates import format_interval
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
from flask_babel import gettext
from flask_login import current_user
from peewee import JOIN, SQL, Function, Select, fn

from engine.interface import name_seats
from engine.words import N_
from server.db import Prepared
from server.i18n import say, translate
from server.mail.links import LinkError
from server.models import (
    Game,
    Proposal,
    Rematch,
    Seat,
    Snapshot,
    TableMessage,
    Takeback,
    Tenure,
    Vacation,
    utcnow,
)
from server.services import (
    acting,
    games,
    model_rows,
    outbox,
    proposals,
    rematches,
    sessions,
    tenures,
    visibility,
)
from server.services import table_talk as table_talk_service
from server.services.clock import deadlines, own_time, vacations, while_away
from server.services.moves import play
from server.services.state_store import load_state, rules
from server.services.what_a_seat_sees import (
    board,
    bot_title,
    choices,
    deadline_text,
    names_of,
    outcome_reason,
    outcome_rows,
    recent_and_since,
    result_names,
    seats_with_users,
    table_talk,
)
from server.web import (
    browser_session,
    drawings,
    rate_limits,
    seat_access,
    speedups,
    takebacks,
)
from server.web.errors import link_error
from server.web.forms import EmptyForm, MoveForm, TalkForm
from server.web.languages import page_language, say_here

bp = Blueprint("play", __name__)
RECENT_LINES = 15
# A choice's action as its button's value: JSON with sorted keys, by one
# encoder made once (json.dumps with an option makes one per button).
ACTION_VALUE = json.JSONEncoder(sort_keys=True).encode


@bp.get("/s/<token>")
def seat_link(token: str):
    """A seat link from a mail: this browser may play that seat (not the account)."""
    try:
        seat = seat_access.open_link(token)
    except LinkError as exc:
        return link_error(exc)
    return redirect(url_for("play.game", game_id=seat.game_id))


@bp.get("/games/<int:game_id>")
def game(game_id: int):
    now = utcnow()
    key = sessions.as_key(browser_session.key())
    game, there, alive = page_game(game_id, key, now) or abort(404)
    browser_session.found_alive(alive)  # a seat link counts only while the session lives
    # The seats with their users, read once for the viewer, names, the seat
    # to move and the notes.
    seats = seats_with_users(game)
    seat = seat_access.viewer_seat_in(game.id, seats)
    if seat is None and not current_user.is_authenticated:
        return current_app.login_manager.unauthorized()
    if not visibility.may_see(game, current_user, seat):
        abort(404)  # a private game is not there for outsiders
    if game.status == "open":
        return redirect(url_for("lobby.lobby", game_id=game_id))
    if game.status == "closed":
        days = current_app.config["LOBBY_CLOSE_AFTER_DAYS"]
        return render_template(
            "errors/error.html",
            title="This game was closed",
            message=f"{game.name} did not start within {days} days of being made, so it was "
            "closed; nothing was played. Its invitations and join links no longer "
            "work.",
        ), 410
    if seat is not None and seat.mail_hold_since is not None:
        outbox.seen(seat)  # they know it is their turn: the clock runs again
    return render_template(
        "play/game.html",
        **page(game, seats, seat, request.args.get("since", type=int), there, now),
    )


def page(
    game: Game,
    seats: list[Seat],
    seat: Seat | None,
    since: int | None,
    there: Boxes,
    now: dt.datetime,
) -> dict:
    """Everything the game page shows, from ``seat``'s view only (one of
    ``seats``, which carry their users); ``there``: which of the nearly
    always empty boxes have anything to show (page_game)."""
    viewer = seat.index if seat else None
    timezone = (
        current_user.timezone
        if current_user.is_authenticated
        else (seat.user.timezone if seat else "UTC")
    )
    state, names, kind = load_state(game, save=False), names_of(seats, page_language()), rules(game)
    language = page_language()
    to_move = seats[game.to_move] if game.to_move is not None else None
    # Read once for every text below; seats that never changed hands are
    # named as they are held today (an empty roster).
    roster = tenures.roster(game, names) if there.tenures else tenures.Roster([], names)
    # The page's forms show their CSRF token only (the same one), save the
    # table talk's: its form carries the token for all of them (one form
    # made, not two).
    token_form = TalkForm()
    takeback = takebacks.box(game, seat, names, token_form, maybe_open=there.takeback)
    recent, result = recent_and_since(game, viewer, names, RECENT_LINES, since, language, roster)
    # While a takeback is asked the game waits for its answers.
    my_turn = (
        acting.may_act(seat, seat.user_id if seat else None, game).ok and takeback["open"] is None
    )
    offered = (
        choices(game, state, viewer, names, language) if my_turn and viewer is not None else []
    )
    panels = drawings.drawing(kind, state, viewer, names, seat)
    own_panel, other_panels = drawings.split(panels)
    return dict(
        game=game,
        kind=kind,
        seat=seat,
        names=names,
        seats=seats,
        recent=recent,
        position_link=speedups.link_maker("records.position", "seq", game_id=game.id),
        sections=board(game, state, viewer, names, language),
        prompt=prompt_text(kind, state, names),
        drawing=panels,
        own_panel=own_panel,
        other_panels=other_panels,
        result=result,
        choices=offered,
        choice_groups=grouped(offered),
        to_move=to_move,
        deadline=deadline_text(
            to_move.deadline if to_move is not None else None, timezone, language
        ),
        time_left=to_move
        and say(language, own_time.status_text(game, to_move.user, to_move.deadline, utcnow())),
        rows=outcome_rows(game, result_names(game, names, language, roster), language)
        if game.outcome
        else [],
        reason=outcome_reason(game, language),
        form=token_form,
        action_value=ACTION_VALUE,
        link_form=token_form,
        away=away_notes(seats, now, there.vacation),
        on_vacation=bool(
            there.vacation
            and seat
            and seat.user_id
            and current_user.is_authenticated
            and seat.user_id == current_user.id
            and deadlines.vacation_at(seat.user_id, now)
        ),
        rematch=rematches.box(game, current_user, now, seats, maybe=there.rematch),
        signed_in=current_user.is_authenticated,
        proposal=proposal_box(game, seat) if there.proposal else None,
        played_for_you=while_away.played_for(game, seat, names, language) if seat else [],
        talk=(table_talk(game, names=names) if there.talk else [])
        if table_talk_service.may_read(current_user, game, seat)
        else None,
        talk_form=token_form,
        takeback=takeback,
    )


class Boxes(NamedTuple):
    """Which of the page's nearly always empty boxes have anything to show."""

    takeback: bool
    proposal: bool
    vacation: bool
    talk: bool
    rematch: bool
    tenures: bool


def _box_columns(game_id: int, seq, now: dt.datetime) -> list:
    """Whether the page's boxes that are nearly always empty have anything
    to show: an open takeback or proposal where the game stands (``seq``),
    a vacation of a player not over by ``now``, any table talk, any rematch
    request, and a seat that changed hands (its tenures are more than the
    one it began with, held by its player today).  One column each, named
    as Boxes' fields; ``seq``: the game row's own column (Game.seq) in the
    page's statement."""

    def there(query) -> Function:
        return fn.EXISTS(query)

    held_now = Seat.alias("held_now")
    return [
        there(
            Takeback.select(SQL("1")).where(
                (Takeback.game == game_id) & (Takeback.status == "open") & (Takeback.seq == seq)
            )
        ).alias("takeback"),
        there(
            Proposal.select(SQL("1")).where(
                (Proposal.game == game_id) & (Proposal.status == "open") & (Proposal.seq == seq)
            )
        ).alias("proposal"),
        there(
            Vacation.select(SQL("1")).where(
                Vacation.user.in_(Seat.select(Seat.user).where(Seat.game == game_id))
                & (Vacation.ends_at > now)
            )
        ).alias("vacation"),
        there(TableMessage.select(SQL("1")).where(TableMessage.game == game_id)).alias("talk"),
        there(Rematch.select(SQL("1")).where(Rematch.game == game_id)).alias("rematch"),
        (
            there(
                Tenure.select(SQL("1"))
                .join(
                    held_now,
                    JOIN.LEFT_OUTER,
                    on=(held_now.game == Tenure.game) & (held_now.index == Tenure.seat),
                )
                .where(
                    (Tenure.game == game_id)
                    & (
                        (Tenure.from_seq != 0)
                        | Tenure.to_seq.is_null(False)
                        | held_now.id.is_null()
                        | (fn.COALESCE(held_now.user, 0) != fn.COALESCE(Tenure.user, 0))
                    )
                )
            )
            | there(
                Tenure.select(SQL("1"))
                .where(Tenure.game == game_id)
                .group_by(Tenure.seat)
                .having(fn.COUNT(Tenure.id) > 1)
            )
        ).alias("tenures"),
    ]


def _page_game(game_id: int, session_key: str, now: dt.datetime) -> Select:
    """The game row with its snapshot (as state_store.game_with_snapshot
    reads them), whether this browser's session row lives
    (sessions.alive_in_query), and the boxes (_box_columns) where the game
    stands: one statement where there were three.  Read as a tuple, made
    into models by model_rows."""
    return (
        Game.select(
            Game,
            Snapshot,
            sessions.alive_in_query(session_key).alias("pbem_session_alive"),
            *_box_columns(game_id, Game.seq, now),
        )
        .join(Snapshot, JOIN.LEFT_OUTER, on=(Snapshot.game == Game.id))
        .where(Game.id == game_id)
        .limit(1)
        .tuples()
    )


PAGE_GAME = Prepared(_page_game, kinds=(int, str, dt.datetime))


def page_game(game_id: int, session_key: str, now: dt.datetime) -> tuple[Game, Boxes, bool] | None:
    """The game with its snapshot (``game.snap``), the boxes where it
    stands, and whether the session row ``session_key`` (``sessions.as_key``)
    lives; None when there is no such game."""
    row = PAGE_GAME.first(game_id, session_key, now)
    if row is None:
        return None
    end_of_game = len(model_rows.field_names(Game))
    end_of_snap = end_of_game + len(model_rows.field_names(Snapshot))
    game = model_rows.made(Game, row[:end_of_game])
    game.snap = model_rows.made_or_none(Snapshot, row[end_of_game:end_of_snap])
    alive, *boxes = row[end_of_snap:]
    return game, Boxes(*(bool(box) for box in boxes)), bool(alive)


def grouped(offered: list) -> list[tuple[str, list]]:
    """The choices under their headings, in the engine's order."""
    groups: dict[str, list] = {}
    for choice in offered:
        groups.setdefault(choice.group, []).append(choice)
    return list(groups.items())


def prompt_text(game_rules, state, names: list[str]) -> str:
    """What the seat to move is asked, in the reader's language."""
    template, values = game_rules.prompt_message(state)
    return name_seats(translate(page_language(), template, values, game_rules.domain), names)


def proposal_box(game: Game, seat: Seat | None) -> dict | None:
    """A host's proposal waiting for the players' yes, as this viewer sees it."""
    proposal = proposals.open_proposal(game)
    if proposal is None:
        return None
    voters = {s.user_id for s in proposals.voters(game, proposal)}
    asked = (
        seat is not None
        and current_user.is_authenticated
        and seat.user_id == current_user.id
        and current_user.id in voters
        and current_user.id not in proposal.agreed
    )
    return {
        "id": proposal.id,
        "reason": proposal.reason,
        "asked": asked,
        "what": proposals.describe(game, proposal.action, proposal.params),
        "waiting": len(voters - set(proposal.agreed)),
    }


def away_notes(seats: list[Seat], now, vacation: bool = True) -> dict[int, str]:
    """Seats whose clock stands still or that auto-pass, and vacations to
    come, for everybody to see.  ``vacation``: False when the caller knows
    no player has one (nothing to read)."""
    away = vacations.declared([s.user_id for s in seats if s.user_id], now) if vacation else {}
    notes = {}
    for s in seats:
        bot = s.bot and say_here(bot_title(s.bot))
        if s.user_id in away:
            notes[s.index] = gettext(
                "away %(days)s",
                days=", ".join(vacation_days(v, s.user.timezone, now) for v in away[s.user_id]),
            )
        elif s.bot and s.user_id and s.withdrawn:
            notes[s.index] = gettext("away: the %(bot)s plays the seat", bot=bot)
        elif s.bot and s.user_id:
            notes[s.index] = gettext(
                "away: the %(bot)s plays the seat until they are back", bot=bot
            )
        elif s.bot:
            notes[s.index] = gettext("the %(bot)s of this practice game", bot=bot)
        elif s.withdrawn:
            notes[s.index] = gettext("out of the game: the seat passes automatically")
        elif s.absent:
            notes[s.index] = gettext("absent: passes at once until back")
    return notes


def vacation_days(vacation, tzname: str, now) -> str:
    """ "3–10 December" in the reader's language (Babel), the days as declared."""
    first, last = vacations.days_of(vacation, tzname)
    skeleton = "MMMMd" if first.year == last.year == now.year else "yMMMMd"
    return format_interval(first, last, skeleton, locale=page_language())


@bp.post("/games/<int:game_id>/away/seen")
def away_seen(game_id: int):
    """ "Seen": the list of moves played for the seat while away goes."""
    game = Game.get_or_none(Game.id == game_id) or abort(404)
    seat = seat_access.viewer_seat(game) or abort(403, N_("You have no seat in this game."))
    form = EmptyForm()
    if not form.validate_on_submit():
        abort(400, N_("The form was not understood; reload the page and try again."))
    while_away.seen(seat.id, game.seq)
    return redirect(url_for("play.game", game_id=game_id))


@bp.post("/games/<int:game_id>/move")
def move(game_id: int):
    # The game itself is read once, inside the move's transaction (play).
    # A seat-link browser acts as the seat's player; the game's own checks
    # (over, paused, whose turn) are play's, under the move's lock.
    seat = seat_access.viewer_seat_in(game_id)
    answer = acting.may_act(seat, seat.user_id if seat else None)
    if seat is None or not answer.ok:
        there = answer is not acting.Answer.NOT_YOUR_SEAT or Game.get_or_none(Game.id == game_id)
        abort(403 if there else 404, acting.SAID[answer])
    form = MoveForm()
    if not form.validate_on_submit():
        abort(400, N_("The move form was not understood; reload the game page and try again."))
    action = parse_action(form.action.data)
    play(
        game_id,
        seat.index,
        action,
        form.seq.data,
        "player",
        mailer=current_app.extensions["pbem_mailer"],
        user_id=seat.user_id,
    )
    return redirect(url_for("play.game", game_id=game_id, since=form.seq.data) + "#result")


@bp.post("/games/<int:game_id>/talk")
def talk(game_id: int):
    game = Game.get_or_none(Game.id == game_id) or abort(404)
    seat = seat_access.viewer_seat(game) or abort(403, N_("Only the players talk at this table."))
    form = TalkForm()
    if not form.validate_on_submit():
        abort(400, N_("Write a message of at most 500 characters."))
    table_talk_service.post(game_id, seat, form.text.data, current_app.extensions["pbem_mailer"])
    return redirect(url_for("play.game", game_id=game_id) + "#talk")


@bp.post("/games/<int:game_id>/new-link")
@rate_limits.per_user("RATELIMIT_NEW_LINK_PER_USER")
def new_link(game_id: int):
    game = Game.get_or_none(Game.id == game_id) or abort(404)
    seat = seat_access.viewer_seat(game) or abort(403, N_("You have no seat in this game."))
    if not EmptyForm().validate_on_submit():
        abort(400)
    games.renew_links(game_id, seat_access.acting_user(seat), current_app.extensions["pbem_mailer"])
    flash(N_("Your old links no longer work; a new one is on its way by email."))
    return redirect(url_for("play.game", game_id=game_id))


def parse_action(text: str) -> dict:
    """The action a move form carries: a JSON object nested a few levels at
    most (the engines' actions nest two).  Deep nesting is refused whether
    json gives up on it (RecursionError, not a ValueError) or not."""
    not_understood = "The move form was not understood; reload the game page and try again."

    def deeper(value, levels: int) -> bool:
        # Looks no deeper than ``levels``, so it cannot recurse far itself.
        if not isinstance(value, (dict, list)):
            return False
        children = value.values() if isinstance(value, dict) else value
        return levels == 0 or any(deeper(child, levels - 1) for child in children)

    try:
        action = json.loads(text)
    except (ValueError, RecursionError):
        abort(400, not_understood)
    if not isinstance(action, dict) or deeper(action, 6):
        abort(400, not_understood)
    return action
