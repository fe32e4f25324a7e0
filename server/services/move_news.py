"""Who hears of a move, and how: the turn mail of the seat to move (or, for
a player who reads a digest, only their chat notices), the game's table
channel, and everyone's result mail at the end.  The mailer writes each
mail; this decides which are written and which notices go with them.
"""

from __future__ import annotations

import datetime as dt

from server.db import Prepared
from server.mail.compose import Mailer
from server.models import Game, NotifyChannel, Seat, User
from server.notify import notices
from server.services import reply_menu
from server.services.clock import deadlines, seat_clock, while_away
from server.services.state_store import load_state, rules
from server.services.what_a_seat_sees import (
    board,
    log_lines,
    names_of,
    outcome_reason,
    outcome_rows,
    result_names,
    seat_names,
    seats_with_users,
    unseen_talk,
)

SUMMARY_LINES = 40


def next_turn(
    game: Game,
    now: dt.datetime,
    mailer: Mailer,
    names: list[str] | None = None,
    state=None,
    seats: list[Seat] | None = None,
) -> None:
    """Start the clock of the seat to move and tell its player (no one for
    a bot's, an absent or a withdrawn seat).  ``names``, ``state`` and
    ``seats`` (seats_with_users, read in this transaction after the last
    change to a seat): when the caller has them."""
    # Every seat with its user in one statement: the one to move, and the names.
    if game.to_move is None:
        raise ValueError(f"game {game.id} has nobody to move")
    seats = seats if seats is not None else seats_with_users(game)
    seat = seats[game.to_move]
    seat_clock.start_turn(game, seat, now)
    if seat.bot or seat.absent or seat.withdrawn:
        return
    if seat.user.mail_mode == "digest" and not notices.any_for(game.id, seat.user_id):
        return
    state = state if state is not None else load_state(game, save=False)
    if seat.user.mail_mode == "digest":  # no turn mail; the chat channels still hear of it
        _turn_notices(mailer, game, seat, state)
        return
    _turn_mail(mailer, game, seat, state, names or names_of(seats))


def result(game: Game, mailer: Mailer) -> None:
    """The game is over: the table channel and every seat's result mail."""
    notices.announce_result(mailer, game)
    names = seat_names(game)
    seats = Seat.select(Seat, User).join(User).where(Seat.game == game.id)
    for seat in seats:
        language = seat.user.language
        mailer.final(
            game,
            rules(game).title,
            seat,
            outcome_rows(game, result_names(game, names, language), language),
            outcome_reason(game, language),
        )


def _turn_mail(mailer: Mailer, game: Game, seat: Seat, state, names: list[str]) -> None:
    """The turn mail, with the moves since the seat last moved and the board
    as this seat sees it: tables in the HTML part (mail clients show no
    inline SVG), rows in the text part, which stands on its own.  When the
    table's channel says whose turn it is and the player chose that, the
    notice stands in for the mail."""
    language = seat.user.language
    summary = [
        line.text
        for line in log_lines(game, seat.index, names, after=seat.last_move_seq, language=language)
    ]
    menu = reply_menu.menu(mailer.settings, game, seat, state=state)
    sections = [
        {"title": s.title, "rows": list(s.rows)}
        for s in board(game, state, seat.index, names, language)
    ]
    template, values = rules(game).prompt_message(state)
    prompt = mailer.game_words(seat.user, rules(game), template, values)  # the player's language
    mail = (
        rules(game).title,
        prompt,
        summary[-SUMMARY_LINES:],
        deadlines.local_text(seat.deadline, seat.user.timezone, language),
        menu.context() if menu else None,
        unseen_talk(game, seat, names),
        [vars(p) for p in while_away.played_for(game, seat, names, language)],
        sections,
    )
    # Most tables and players have no channel: one read says so, and
    # then neither the table's line nor the player's notices read theirs.
    heard = ANY_CHANNEL.first(game.id, seat.user_id) is not None
    if heard and notices.announce_turn(mailer, game, seat):
        if seat.user.verified:
            context = mailer.turn_context(seat, *mail)
            notices.follow_mail(mailer, "turn", seat.user, game, context, seat.turn_started_at)
        return
    mailer.turn(game, mail[0], seat, *mail[1:], channels=heard)


def _turn_notices(mailer: Mailer, game: Game, seat: Seat, state) -> None:
    """The chat and push notices of a turn whose player reads a digest
    instead of turn mails: they do not hold the clock, as no turn mail does."""
    template, values = rules(game).prompt_message(state)
    prompt = mailer.words(seat.user, template, **values)
    deadline = deadlines.local_text(seat.deadline, seat.user.timezone, seat.user.language)
    notices.announce_turn(mailer, game, seat)
    if seat.user.verified:
        notices.follow_mail(
            mailer,
            "turn",
            seat.user,
            game,
            {"prompt": prompt, "deadline": deadline, "seat_url": mailer.links.seat_url(seat)},
            seat.turn_started_at,
            holds_clock=False,
        )


# Whether a turn may be heard of anywhere but by mail: the game's table
# channel or the player's own (notices.any_for's question), asked once per
# turn mail instead of reading each.
ANY_CHANNEL = Prepared(
    lambda game_id, user_id: (
        NotifyChannel.select(NotifyChannel.id)
        .where(
            ((NotifyChannel.user == user_id) & NotifyChannel.game.is_null())
            | (NotifyChannel.game == game_id)
        )
        .limit(1)
    )
)
