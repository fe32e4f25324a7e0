"""May this person act for this seat now: the one answer the game page, the
mail replies and the API all take, each saying it in its own form (a page
in the reader's language, the reply mails' texts, a problem+json).

The answer is a reason, not a yes/no, so each path can say why.  The
person's checks come first (is it their seat, is it still theirs to play),
then the game's (over, not started, paused, not their turn), and only when
the caller has read the game: the move page and the API leave those to
``moves.play``, which reads the game locked in the move's transaction.

Who plays a seat:
- its player, while the seat is theirs;
- not after they resigned or were removed (``withdrawn``): the seat passes,
  or the bot a host or moderator handed it to plays it to the end
  (services/bot_seats.py);
- nobody plays a practice game's bot seat but its bot: it has no player;
- an ``absent`` player's seat, passing at once or played by a bot
  meanwhile, may act: moving is how its player takes it back
  (deadlines.PLAYER_BACK; docs/players/practice.md promises it), on every
  path alike.
"""

from __future__ import annotations

import enum

from engine.words import N_
from server.models import Game, Seat


class Answer(enum.Enum):
    OK = "ok"
    NOT_YOUR_SEAT = "not your seat"
    WITHDRAWN = "seat withdrawn"
    HANDED_TO_BOT = "seat handed to a bot"
    NOT_STARTED = "game not started"
    GAME_OVER = "game over"
    PAUSED = "game paused"
    NOT_YOUR_TURN = "not your turn"

    @property
    def ok(self) -> bool:
        return self is Answer.OK


# What the page and the API say for each refusal (the mail replies keep
# their own texts, which also say what became of the mail).
SAID = {
    Answer.NOT_YOUR_SEAT: N_("You have no seat in this game."),
    Answer.WITHDRAWN: N_("You left this game: your seat passes automatically."),
    Answer.HANDED_TO_BOT: N_("You left this game: a bot plays your seat to the end."),
    Answer.NOT_STARTED: N_("This game has not started yet."),
    Answer.GAME_OVER: N_("This game is over."),
    Answer.PAUSED: N_("This game is paused."),
    Answer.NOT_YOUR_TURN: N_("It is not your turn."),
}


def may_act(seat: Seat | None, user_id: int | None, game: Game | None = None) -> Answer:
    """Whether the account ``user_id`` may act for ``seat`` now (a seat-link
    browser acts as the seat's player: pass ``seat.user_id``).  With
    ``game`` (the seat's game, as read by the caller) the game's state is
    asked too; without it only the person's right to the seat."""
    if seat is None or user_id is None or seat.user_id != user_id:
        return Answer.NOT_YOUR_SEAT
    if seat.withdrawn:
        return Answer.HANDED_TO_BOT if seat.bot else Answer.WITHDRAWN
    if game is None:
        return Answer.OK
    if game.status == "finished":
        return Answer.GAME_OVER
    if game.status != "active":
        return Answer.NOT_STARTED
    if game.paused:
        return Answer.PAUSED
    if game.to_move != seat.index:
        return Answer.NOT_YOUR_TURN
    return Answer.OK
