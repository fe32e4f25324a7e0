"""Moves by mail reply: a reply to a seat's address (``play+<token>``,
mail/reply_address.py) from the seat's own confirmed address, while the
game is still where the answered mail left it, plays the reply's lines one
decision each through ``moves.play`` (one transaction a decision),
stopping at the first that fails; ``match`` reads a line as one of the
seat's choices.  The answer mail says what was played, or why not, with the
choices now and a fresh reply address.
"""

from __future__ import annotations

import re

from engine import Choice, IllegalMove
from engine.words import N_, msg
from server.mail.compose import Mailer
from server.mail.inbound import ParsedMail
from server.mail.reply_address import (
    ReplyTarget,
)
from server.models import Game, Seat, User
from server.services import acting, reply_menu
from server.services.moves import MoveRejected, play
from server.services.reply_results import (
    Result,
    Unreadable,
    refuse_account,
    refused_often,
    said_in,
    unanswered,
    why_not,
)
from server.services.state_store import rules
from server.services.what_a_seat_sees import seat_names

PASS_WORDS = {"pass", "passen", "passer", "passe"}
NUMBER = re.compile(r"#?([0-9]{1,4})[.)]?")


# A mail's curly quotes, as a reader types them back.
STRAIGHT_QUOTES = str.maketrans("\u2018\u2019\u201c\u201d\u201e", '\'\'"""')
# What an answer to a move by mail is, first in its subject.
REPLY_SUBJECTS = {
    "reply_applied": N_("Your mail was played"),
    "reply_refused": N_("Your mail could not be used"),
}


def seat_reply(
    mail: ParsedMail, target: ReplyTarget, game: Game, user: User | None, mailer: Mailer
) -> Result:
    seat = (
        Seat.select(Seat, User)
        .join(User)
        .where((Seat.game == game.id) & (Seat.index == target.seat))
        .get_or_none()
    )
    # Who may act: services/acting.py, as for the page and the API.  The
    # person's refusals come first, then the address's, then the game's.
    may = acting.may_act(seat, user.id if user else None, game)
    if seat is None or user is None or may is acting.Answer.NOT_YOUR_SEAT:
        return refuse_account(
            user,
            mailer,
            game,
            N_("Replies for this seat are taken only from its player's own confirmed address."),
        )
    if may in (acting.Answer.WITHDRAWN, acting.Answer.HANDED_TO_BOT) or seat.absent or seat.bot:
        # Resigned, removed, away or handed to a bot: its old addresses are
        # dead.  An absent player comes back on the game page ("I'm back",
        # or a move there), where the page shows what was played meanwhile.
        return refuse_account(
            user,
            mailer,
            game,
            N_(
                "This seat no longer takes moves by mail, so your reply was not played; the "
                "game page says why."
            ),
        )
    if seat.link_version != target.version:
        return answer(
            game,
            seat,
            mailer,
            "refused",
            N_(
                "This reply address was replaced by a newer one; "
                "answer the newest mail of this game."
            ),
        )
    if may is acting.Answer.GAME_OVER:
        return answer(
            game, seat, mailer, "refused", N_("This game is over; nothing more can be played.")
        )
    if game.seq != target.seq:
        return answer(
            game,
            seat,
            mailer,
            "refused",
            N_("The game has moved on since the mail you answered, so your reply was not played."),
        )
    if not mail.commands:
        return answer(
            game,
            seat,
            mailer,
            "refused",
            N_(
                "No choice was found at the top of your reply: "
                "answer with the number of one choice."
            ),
        )
    return _play_lines(mail.commands, game, seat, user, mailer)


def _play_lines(lines: list[str], game: Game, seat: Seat, user: User, mailer: Mailer) -> Result:
    played: list[str] = []
    reason = ""
    seq = game.seq
    for number, line in enumerate(lines, start=1):
        game = Game.get_by_id(game.id)
        if game.status != "active" or game.to_move != seat.index:
            reason = (
                msg("It is not your turn.")
                if number == 1
                else msg(
                    "Line %(number)s and after were not played: your part of the turn is done.",
                    number=number,
                )
            )
            break
        try:
            choice = match(line, reply_menu.seat_choices(game, seat.index, language=user.language))
            done = play(game.id, seat.index, choice.action, seq, mailer=mailer, user_id=user.id)
        except (Unreadable, IllegalMove, MoveRejected) as exc:
            reason = msg(
                'Line %(number)s ("%(line)s") was not played: %(why)s',
                number=number,
                line=line[:60],
                why=why_not(exc),
            )
            break
        played.append(choice.label)
        seq = done.seq
    game = Game.get_by_id(game.id)
    if not played:
        return answer(game, seat, mailer, "refused", reason)
    return answer(game, seat, mailer, "applied", reason, played)


def match(line: str, choices: list[Choice]) -> Choice:
    """The choice a line names: its number, its words (the whole label, the
    start of one, or a part only one has), or "pass"."""
    if not choices:
        raise Unreadable(N_("It is not your turn."))
    text = " ".join(line.split()).strip(" .!").casefold().translate(STRAIGHT_QUOTES)
    number = NUMBER.fullmatch(text)
    if number:
        n = int(number.group(1))
        if not 1 <= n <= len(choices):
            raise Unreadable(
                msg("there is no choice %(n)s; choose 1 to %(count)s.", n=n, count=len(choices))
            )
        return choices[n - 1]
    # A label's narrow no-break spaces (French "colon\u202f:") are spaces to a reader.
    # A mail's curly quotes and apostrophes (typography.py) copied back are
    # the straight ones a label has, or that a reader types.
    labels = [" ".join(c.label.split()).casefold().translate(STRAIGHT_QUOTES) for c in choices]
    if text in PASS_WORDS:
        found = [
            c
            for c in choices
            if c.action.get("type") == "pass" or c.label.casefold().startswith("pass")
        ]
        if not found:
            raise Unreadable(N_("passing is not one of your choices now."))
        return found[0]
    for test in (
        lambda label: label == text,
        lambda label: label.startswith(text),
        lambda label: text in label,
    ):
        found = [c for c, label in zip(choices, labels) if test(label)]
        if len(found) == 1:
            return found[0]
        if len(found) > 1:
            raise Unreadable(N_("it fits several choices; answer with the number."))
    raise Unreadable(N_("it is none of your choices."))


def answer(
    game: Game,
    seat: Seat,
    mailer: Mailer,
    status: str,
    reason: str,
    played: list[str] | None = None,
) -> Result:
    """The mail to the seat's player: what was played, or why not, and the
    choices now (with a fresh reply address)."""
    seat = Seat.get_by_id(seat.id)
    user = User.get_by_id(seat.user_id)
    menu = reply_menu.menu(mailer.settings, game, seat)
    names = seat_names(game)
    game_rules = rules(game)
    next_name = names[game.to_move] if game.status == "active" and game.to_move is not None else ""
    context = {
        "name": user.name,
        "title": game_rules.title,
        "reason": said_in(user.language, reason),
        "played": played or [],
        "over": game.status == "finished",
        "next_name": next_name,
        "yours": game.to_move == seat.index,
        "menu": menu.context() if menu else None,
        "seat_url": mailer.links.seat_url(seat),
    }
    if status != "applied" and refused_often(user, mailer.settings):
        return Result("ignored", unanswered(reason))
    template = "reply_applied" if status == "applied" else "reply_refused"
    mailer.queue(
        template,
        user.email,
        mailer.subject_for(game, game_rules.title, REPLY_SUBJECTS[template]),
        context,
        game,
        user,
        reply_to=menu.reply_to if menu and menu.choices else "",
    )
    return Result(status, reason, played or [])
