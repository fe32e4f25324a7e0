"""What a mail offers a seat to answer: its choices, numbered, its own
holdings, and the signed address a reply goes to.

Everything comes from the engine's per-seat view (``choices`` labels and the
board section titled with the seat's name), so a mail built from it shows no
other seat's hidden information.  The numbers are the positions in
``choices(state, seat)``: the same state gives the same list, so a reply's
number means what the mail showed.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import Choice
from server.i18n import say, translate
from server.mail.reply_address import ReplyAddresses
from server.models import Game, Seat
from server.services import what_a_seat_sees
from server.services.state_store import load_state, rules
from server.services.what_a_seat_sees import seat_names


@dataclass(frozen=True)
class Menu:
    prompt: str
    choices: list[str]
    holdings: list[dict]  # {"title": ..., "rows": [(label, value), ...]}
    reply_to: str

    def context(self) -> dict:
        return {
            "prompt": self.prompt,
            "choices": self.choices,
            "holdings": self.holdings,
            "reply_to": self.reply_to,
        }


def addresses(settings) -> ReplyAddresses:
    return ReplyAddresses.from_settings(settings)


def seat_choices(game: Game, seat: int, state=None, language: str | None = None) -> list[Choice]:
    """The menu's choices, in the order of the engine, labelled in ``language``."""
    if game.status != "active" or game.to_move != seat:
        return []
    state = state if state is not None else load_state(game, save=False)
    game_rules = rules(game)
    return [
        Choice(c.action, say(language, c.label, game_rules.domain), c.group)
        for c in game_rules.choices(state, seat)
    ]


def menu(settings, game: Game, seat: Seat, state=None) -> Menu | None:
    """The menu for ``seat`` now; None when replies are off."""
    replies = addresses(settings)
    if not replies.enabled:
        return None
    game_rules = rules(game)
    state = state if state is not None else load_state(game, save=False)
    names = seat_names(game)
    own = names[seat.index] if seat.index < len(names) else None
    language = seat.user.language if seat.user_id else None
    holdings = [
        {"title": s.title, "rows": list(s.rows)}
        for s in what_a_seat_sees.board(game, state, seat.index, names, language)
        if s.title == own
    ]
    choices = [c.label for c in seat_choices(game, seat.index, state, language)]
    prompt = (
        translate(language, *game_rules.prompt_message(state), game_rules.domain) if choices else ""
    )
    return Menu(
        prompt,
        choices,
        holdings,
        replies.for_seat(game.id, seat.index, seat.link_version, game.seq),
    )


def lobby_address(settings, game: Game) -> str:
    replies = addresses(settings)
    return replies.for_lobby(game.id, game.join_version) if replies.enabled else ""


def talk_address(settings, game: Game, seat: Seat) -> str:
    """Where a reply to a table-talk mail goes: it is posted to the table."""
    replies = addresses(settings)
    return replies.for_talk(game.id, seat.index, seat.link_version) if replies.enabled else ""
