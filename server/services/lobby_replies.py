"""Lobby commands by mail: a reply to a game's lobby address from a
confirmed account runs ``/join N``, ``/leave``, ``/start`` and ``/option
[name] value`` line by line, and answers with the lobby as it is now; the
host hears when someone sits down or leaves.
"""

from __future__ import annotations

from peewee import JOIN

from engine import IllegalMove, get_game
from engine.words import N_, msg
from server.mail.compose import Mailer
from server.mail.inbound import ParsedMail
from server.mail.reply_address import (
    ReplyTarget,
)
from server.models import Game, Seat, User
from server.services import (
    games,
    open_games,
    reply_menu,
)
from server.services.moves import MoveRejected
from server.services.reply_results import (
    Result,
    Unreadable,
    refused_often,
    said_in,
    unanswered,
    why_not,
)


def lobby(
    mail: ParsedMail, target: ReplyTarget, game: Game, user: User | None, mailer: Mailer
) -> Result:
    game_rules = get_game(game.kind)
    if user is None:
        return Result(
            "ignored",
            N_(
                "Lobby commands are taken only from the address of a "
                "confirmed account; the sender has none, so it is not answered."
            ),
        )
    if game.join_version != target.version:
        return answer(
            user.email,
            user,
            game,
            mailer,
            "refused",
            N_("This lobby address was revoked by the host."),
            [],
        )
    done, reason = [], ""
    for line in mail.commands:
        try:
            done.append(lobby_command(line, game, user, game_rules, mailer))
        except (MoveRejected, IllegalMove, Unreadable) as exc:
            reason = msg('"%(line)s" was not done: %(why)s', line=line[:60], why=why_not(exc))
            break
    if not mail.commands:
        reason = N_("No command was found at the top of your mail.")
    result = answer(user.email, user, game, mailer, "applied" if done else "refused", reason, done)
    host = User.get_by_id(game.host_id)
    joined = [line for line in done if line.startswith("You sit")]
    left = [line for line in done if line.startswith("You left")]
    if (joined or left) and host.id != user.id:
        # The host hears of it, and can answer that mail with /start.
        news: list[str] = (
            [
                msg(
                    "%(name)s now sits in seat %(seat)s.",
                    name=user.name,
                    seat=joined[-1].split()[-1].rstrip("."),
                )
            ]
            if joined
            else []
        )
        news += [open_games.left_text(user)] if left else []
        answer(host.email, host, game, mailer, "applied", "", news)
    return result


NOT_INVITED = N_(
    "this table takes only the addresses its host invited; ask the host to invite "
    "the address you write from."
)


def lobby_command(line: str, game: Game, user: User, game_rules, mailer: Mailer) -> str:
    words = line.split()
    command = words[0].lower().lstrip("/") if words else ""
    if command == "join" and len(words) == 2 and words[1].isascii() and words[1].isdigit():
        if not games.may_sit(game, user):
            raise MoveRejected(NOT_INVITED)
        seat = games.join(game.id, user, int(words[1]) - 1)
        return msg("You sit in seat %(seat)s.", seat=seat.index + 1)
    if command == "leave" and len(words) == 1:
        games.leave(game.id, user)
        return msg("You left the game.")
    if command == "start" and len(words) == 1:
        games.start(game.id, user, mailer)
        return msg("The game has started.")
    if command == "option" and len(words) in (2, 3):
        value = words[-1].lower()
        if len(words) == 3:
            name = words[1].lower()
        else:
            specs = [s for s in game_rules.options if s.canonical(value) is not None]
            if not specs:
                allowed = "; ".join(s.allowed() for s in game_rules.options) or "none"
                raise Unreadable(
                    msg(
                        "no option takes %(value)s (allowed: %(allowed)s).",
                        value=repr(value),
                        allowed=allowed,
                    )
                )
            name = specs[0].name
        game = games.set_option(game.id, user, name, value)
        return msg("Option %(name)s is now %(value)s.", name=name, value=game.options[name])
    raise Unreadable(N_("the lobby knows /join N, /leave, /start and /option VALUE."))


FREE_SEAT = N_("(free)")


def answer(
    to_addr: str, user: User, game: Game, mailer: Mailer, status: str, reason: str, done: list[str]
) -> Result:
    game = Game.get_by_id(game.id)
    game_rules = get_game(game.kind)
    language = user.language if user else None
    names = [
        s.user.name if s.user_id else None
        for s in Seat.select(Seat, User)
        .join(User, JOIN.LEFT_OUTER, on=(Seat.user == User.id))
        .where(Seat.game == game.id)
        .order_by(Seat.index)
    ]
    # An option as the lobby page says it, with the word /option takes beside it.
    options = [
        f"{said_in(language, spec.label)}: {said_in(language, value)}"
        + ("" if said_in(language, value) == str(value) else f" ({value})")
        for spec in game_rules.options
        for value in [game.options.get(spec.name, spec.default)]
    ]
    context = {
        "name": user.name if user else "",
        "title": game_rules.title,
        "reason": said_in(language, reason),
        "done": [said_in(language, d) for d in done],
        "status": game.status,
        "seats": names,
        "options": options,
    }
    if status != "applied" and refused_often(user, mailer.settings):
        return Result("ignored", unanswered(reason))
    reply_to = reply_menu.lobby_address(mailer.settings, game) if game.status == "open" else ""
    mailer.queue(
        "reply_lobby",
        to_addr,
        # Not "Lobby news": that is what the table's changes are mailed as.
        mailer.subject_for(game, game_rules.title, N_("Your mail to the lobby")),
        context,
        game,
        user,
        reply_to=reply_to,
    )
    return Result(status, reason, done)
