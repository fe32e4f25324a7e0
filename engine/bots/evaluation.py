"""How good a position is for one seat, per game: the heuristic bot's eye.

A value is in victory points: the points a seat has now (``Game.standing``,
hidden parts included, since a bot is handed the whole state) plus what its
economy is worth in points still to come, minus a share of the best rival's.
The weights are rough guesses checked by bench/bots.py, not tuned truths.
"""
from __future__ import annotations

from typing import Callable

from engine.interface import Game
from engine.new_found_land.data import CITIES, ISLANDS, SPACES
from engine.puerto_rico.data import CARDS, PRICE

RIVAL_SHARE = 0.5       # a point taken from the leader is worth half a point of ours


def puerto_rico_economy(state, seat: int) -> float:
    """Doubloons buy buildings; goods ship for points; working production
    makes goods every craftsman; colonists fill circles."""
    p = state.players[seat]
    produce = [0, 0, 0, 0, 0]
    for name, colonists in p.buildings.items():
        good = CARDS[name].produces
        if good is not None:
            produce[good] += colonists
    flow = p.worked[0] + sum(min(p.worked[k], produce[k]) for k in range(1, 5))
    kinds = sum(1 for k in range(5) if (p.worked[k] if k == 0 else min(p.worked[k], produce[k])))
    trade = sum(PRICE[k] * min(p.worked[k], produce[k]) for k in range(1, 5))
    late = state.vp_supply < 25 * state.n / 4          # late game: points, not income
    weight = 0.15 if late else 0.45
    return (weight * p.doubloons + 0.5 * sum(p.goods) + (0.8 if late else 1.2) * flow
            + 0.25 * kinds + 0.1 * trade * (0 if late else 1) + 0.3 * p.worked[5]
            + 0.1 * p.colonists())


def new_found_land_economy(state, seat: int) -> float:
    """Goods pay for ships and delivery; ships carry the markers that win
    majorities, and a lead on an island or city not scored yet is worth part
    of its bonus."""
    p = state.players[seat]
    return (0.3 * sum(p["goods"].values()) + 1.5 * len(p["ships"]) + 1.0 * len(p["exts"])
            + 0.6 * len(p["hand"]) + majority_prospects(state, seat))


def majority_prospects(state, seat: int) -> float:
    """Half the first bonus of every unscored island or city ``seat`` leads,
    a third of the second where it is second."""
    counts: dict[str, dict[int, int]] = {}
    for space, (_tile, fields) in state.board.items():
        island = SPACES[space][0]
        for owner, markers in fields:
            if owner is not None and markers:
                tally = counts.setdefault(island, {})
                tally[owner] = tally.get(owner, 0) + markers
    for city, seats in state.cities.items():
        tally = counts.setdefault(city, {})
        for owner in seats:
            tally[owner] = tally.get(owner, 0) + 1
    worth = 0.0
    for place, tally in counts.items():
        if place in state.scored or tally.get(seat, 0) == 0:
            continue
        bonus = ISLANDS.get(place) or CITIES[place]
        ahead = sum(1 for other, n in tally.items() if other != seat and n >= tally[seat])
        worth += bonus["first"] / 2 if ahead == 0 else bonus["second"] / 3 if ahead == 1 else 0
    return worth


ECONOMY: dict[str, Callable[[object, int], float]] = {
    "puerto_rico": puerto_rico_economy,
    "new_found_land": new_found_land_economy,
}


def value(game: Game, state, seat: int) -> float:
    """``seat``'s position in points: its own, its economy's, less a share of
    the best rival's.  A finished game counts only who won."""
    scores = {s.seat: s.total for s in game.standing(state).scores}
    if game.is_over(state):
        winners = game.outcome(state).winners
        return 1000.0 if seat in winners else scores[seat] - max(scores.values())
    economy = ECONOMY.get(game.name, lambda _s, _seat: 0.0)
    mine = scores[seat] + economy(state, seat)
    rivals = [scores[o] + economy(state, o) for o in scores if o != seat]
    return mine - RIVAL_SHARE * max(rivals, default=0.0)
