"""Bots at the table (engine/bots): which bots are offered, who may hand a
seat to one, and how the scheduler asks a bot for a move.  The player takes
their seat back by moving (deadlines.PLAYER_BACK) or with "I'm back"
(vacations.come_back).

A bot plays a seat in two cases: an absent or departed player's seat that
the host or a moderator handed to it (instead of the default action, which
bleeds points), and the bot seats of a practice game.  A bot seat is due as
soon as it is its turn, and the scheduler plays it (services/clock/sweep.py), never
the web request of the move before: a page answers at once.  Every bot move
is a log row with actor "bot", shown in the game log as played by the bot
for that seat and listed to its player on return (services/clock/while_away.py).
"""

from __future__ import annotations

import datetime as dt

from engine import bots
from engine.words import N_, msg, term
from server.db import db
from server.mail.compose import Mailer
from server.models import Game, Seat, User, utcnow
from server.services import moderation as moderate
from server.services import tenures, what_a_seat_sees
from server.services.what_a_seat_sees import bot_title

# Offered to hosts and moderators; the search bot is slow per decision, so
# only practice games (where nobody else waits) offer it.
TABLE_BOTS = ("heuristic",)
PRACTICE_BOTS = ("heuristic", "search", "random")


def offered(names: tuple[str, ...]) -> list[tuple[str, str]]:
    """(name, title) of the bots among ``names`` that the engine has."""
    return [(name, bots.BOTS[name].title) for name in names if name in bots.BOTS]


def seed_for(game: Game, seat_index: int) -> int:
    """The same position gives the same bot move (a retried claim plays alike)."""
    return (game.seed * 1_000_003 + game.seq * 101 + seat_index) & 0xFFFF_FFFF_FFFF


def action_for(game: Game, game_rules, state, seat: Seat):
    """The move the seat's bot plays now."""
    if seat.bot is None:
        raise ValueError(f"seat {seat.index} of game {game.id} is played by no bot")
    return bots.choose(seat.bot, game_rules, state, seat.index, seed_for(game, seat.index))


def hand_to_bot(
    game_id: int,
    user: User,
    seq: int,
    index: int,
    bot: str,
    reason: str,
    *,
    mailer: Mailer,
    now: dt.datetime | None = None,
) -> str:
    """The host or a moderator gives an absent or departed seat to ``bot``.

    Only such seats: a seat whose player is here is theirs to play.  A host
    who plays may do it alone, as they may replace an absent player: the bot
    plays for the seat's good, not the host's."""
    now, reason = now or utcnow(), moderate._reason(reason)
    if bot not in dict(offered(TABLE_BOTS)):
        raise moderate.ModerationError(N_("Choose one of the bots offered."))
    with db.atomic():
        game = moderate._begin(game_id, user, seq)
        seat = moderate._seat(game, index)
        if not moderate.is_autopass(seat):
            raise moderate.ModerationError(
                f"Seat {index + 1} is still played by its player: only an absent or "
                "departed player's seat can go to a bot."
            )
        if seat.bot == bot:
            raise moderate.ModerationError(
                msg(
                    "The %(bot)s plays seat %(number)s already.",
                    bot=term(bot_title(bot)),
                    number=index + 1,
                )
            )
        name = what_a_seat_sees.seat_names(game)[index]
        said = dict(who=user.name, seat=index + 1, name=name, bot=term(bot_title(bot)))
        handed = (
            msg("%(who)s (moderator) handed seat %(seat)s of %(name)s to the %(bot)s.", **said)
            if seat.withdrawn
            else msg(
                "%(who)s (moderator) handed seat %(seat)s of %(name)s to the %(bot)s. "
                '%(name)s takes the seat back by moving or pressing "I\'m back".',
                **said,
            )
        )
        text = moderate._said(handed, reason)
        new = moderate._note(
            game,
            seq,
            {"note": "bot", "seat": index, "bot": bot, "reason": reason},
            text,
            user,
            now,
            seat=index,
        )
        if seat.withdrawn:  # nobody holds a departed seat: the bot takes it over
            tenures.hand_over(game, index, new, None, bot, began="took_over")
        Seat.update(bot=bot).where(Seat.id == seat.id).execute()
        if game.to_move == index:
            moderate._due_now(seat, now)
        moderate._tell(mailer, game, text, reason)
    return f"The {bot_title(bot)} plays seat {index + 1} from now on."
