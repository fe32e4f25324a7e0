"""Goods and points one-time cards: played at any time in the player's own
turn (any decision of the land, planning, action or goal phase); the card
goes to the discard.  Charter ships are played in planning instead."""

from __future__ import annotations

from engine.interface import Event
from engine.new_found_land.common import bundle_text, gain_goods, say, seat_ref
from engine.new_found_land.data import CARDS
from engine.new_found_land.state import State
from engine.new_found_land.track import add_points
from engine.words import msg

CARD_PHASES = ("land", "plan", "act", "goals")


def play_options(s: State, seat: int) -> list[dict]:
    if s.phase not in CARD_PHASES:
        return []
    return [
        {"type": "play", "card": c}
        for c in s.players[seat]["hand"]
        if CARDS[c]["kind"] != "charter"
    ]


def play(s: State, seat: int, a: dict, ev: list[Event]) -> None:
    card = a["card"]
    s.players[seat]["hand"].remove(card)
    s.discard["cards"].append(card)
    gain = CARDS[card]["gain"]
    say(
        ev,
        seat,
        msg(
            "%(who)s plays one-time card %(card)s: %(gain)s.",
            who=seat_ref(seat),
            card=card,
            gain=bundle_text(gain),
        ),
    )
    gain_goods(s, seat, gain)
    add_points(s, seat, gain.get("points", 0), ev, msg("a one-time card"))
