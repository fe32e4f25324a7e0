"""How good a position is for one seat, per game: the heuristic bot's eye.

A value is in victory points: the points a seat has now (``Rules.standing``,
hidden parts included, since a bot is handed the whole state) plus what its
economy is worth in points still to come, minus a share of the best rival's.
The weights are rough guesses checked by bench/bots.py, not tuned truths.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.interface import Rules
from engine.new_found_land.board import shared_board
from engine.new_found_land.components import LOAD_MAX_SHIPS
from engine.new_found_land.data import ACTIONS as NFL_ACTIONS
from engine.new_found_land.data import CITIES as NFL_CITIES
from engine.new_found_land.data import DA_GAMA_CRATES, load_good
from engine.new_found_land.data import ISLANDS as NFL_ISLANDS
from engine.new_found_land.data import NATIONS as NFL_NATIONS
from engine.new_found_land.data import ROUNDS as NFL_ROUNDS
from engine.new_found_land.data import SHIPS as NFL_SHIPS
from engine.new_found_land.data import SPACES as NFL_SPACES
from engine.new_found_land.track import fifty_bonus
from engine.puerto_rico.data import CARDS, PRICE
from engine.puerto_rico.scoring import score as pr_score

RIVAL_SHARE = 0.5  # a point taken from the leader is worth half a point of ours


_PRODUCES = {name: card.produces for name, card in CARDS.items()}


def puerto_rico_economy(state, seat: int) -> float:
    """Doubloons buy buildings; goods ship for points; working production
    makes goods every craftsman; colonists fill circles."""
    return _pr_economy(state.players[seat], _pr_late(state))


def _pr_late(state) -> bool:
    return state.vp_supply < 25 * state.n / 4  # late game: points, not income


def _pr_economy(p, late: bool) -> float:
    produce = [0, 0, 0, 0, 0]
    for name, colonists in p.buildings.items():
        good = _PRODUCES[name]
        if good is not None:
            produce[good] += colonists
    w = p.worked
    made = [w[0]] + [min(w[k], produce[k]) for k in range(1, 5)]  # barrels per kind
    flow = made[0] + made[1] + made[2] + made[3] + made[4]
    kinds = (made[0] > 0) + (made[1] > 0) + (made[2] > 0) + (made[3] > 0) + (made[4] > 0)
    trade = PRICE[1] * made[1] + PRICE[2] * made[2] + PRICE[3] * made[3] + PRICE[4] * made[4]
    colonists = sum(w) + sum(p.buildings.values()) + p.san_juan
    weight = 0.15 if late else 0.45
    return (
        weight * p.doubloons
        + 0.5 * sum(p.goods)
        + (0.8 if late else 1.2) * flow
        + 0.25 * kinds
        + 0.1 * trade * (0 if late else 1)
        + 0.3 * w[5]
        + 0.1 * colonists
    )


# A position's players are shared with the positions it came from until one
# of them changes (State.edit copies it first), and a rollout judges every
# move of every step: most players it judges were judged a step before.
# Their worth is kept per Player object (the object itself held, so its id
# cannot be reused), a pure function of the player and the game's stage.
_WORTH: dict[int, tuple[object, bool, float]] = {}
_WORTH_KEPT = 20_000


def puerto_rico_totals(state) -> list[float]:
    """Per seat: its points now (chips and buildings) and its economy."""
    late = _pr_late(state)
    out = []
    for p in state.players:
        kept = _WORTH.get(id(p))
        if kept is None or kept[0] is not p or kept[1] != late:
            if len(_WORTH) >= _WORTH_KEPT:
                _WORTH.clear()
            kept = _WORTH[id(p)] = (p, late, pr_score(p)[0] + _pr_economy(p, late))
        out.append(kept[2])
    return out


# -- Race to the New Found Land -------------------------------------------------
# Rough worth of things in points, read off the rules and components: a
# contract pays about 1.5 / 2.5 / 3.5 points per wood / cloth / iron, an
# island bonus trades two goods for three points, every unplayed card is
# 2 points at the end, every marker 1 point (scored or in the final count).
GOOD_WORTH = {"wood": 1.0, "cloth": 1.3, "iron": 1.7, "gold": 1.8}
CARD_WORTH = 2.2  # a one-time card: 2 points at the end, or its use now
GOAL_WORTH = 2.5  # a goal card: 2 points at the end, more if played
MARKER_WORTH = 1.0  # each marker on an unscored island or city
EXT_WORTH = 1.0
SETTLE_BONUS = 2.5  # the better of a tile's two bonuses
EXPLORE_BONUS = 5.0  # both bonuses of a freshly placed tile
CONTRACT_MARKER = 1.5  # a delivery's marker in a city


def _phase(s) -> str:
    return s.resume if s.phase == "frame" else s.phase


def _goods_factor(s, ph: str) -> float:
    """Goods are for building and delivering; after the last Deliver they
    only break ties."""
    if s.over:
        return 0.05
    if s.round < NFL_ROUNDS:
        return 1.0
    if ph in ("scoring", "goals") or (ph == "act" and s.action == "explore"):
        return 0.05
    return 0.8


def _yield(action: str, sid: str, captain: str, p: dict, goods: int, factor: float) -> float:
    """What one ship at one action is worth to its owner, in points."""
    sh = NFL_SHIPS[sid]
    crate = sh.crate + (DA_GAMA_CRATES if captain == "da_gama" else 0)
    if action == "load":
        return GOOD_WORTH[load_good(p["nation"], crate)] * factor + CARD_WORTH + 0.1 * crate
    if action == "settle":
        return 1.5 * sh.person + SETTLE_BONUS
    if action == "deliver":
        return min(crate, goods) * 1.0 + (CONTRACT_MARKER if goods >= 2 else 0.0)
    return 1.0 + EXPLORE_BONUS + 0.3 * (sh.spyglass - 1)


# A ship's best use in a later round, but for Deliver (which depends on the
# goods at hand): nation -> ship -> points.
_BEST_USE = {
    nation: {
        sid: max(
            _yield(a, sid, "", {"nation": nation}, 0, 1.0) for a in ("load", "settle", "explore")
        )
        for sid in NFL_SHIPS
    }
    for nation in NFL_NATIONS
}


def _future_use(nation: str, sid: str, goods: int) -> float:
    best = _BEST_USE[nation][sid]
    deliver = min(NFL_SHIPS[sid].crate, goods) + (CONTRACT_MARKER if goods >= 2 else 0.0)
    return deliver if deliver > best else best


# A fleet's future use, a pure function of the nation, the ships and the
# goods at hand, asked for every seat of every position a rollout judges.
_FLEET_USE: dict[tuple[str, tuple[str, ...], int], float] = {}
_KEPT = 20_000


def _fleet_use(nation: str, ships: list[str], goods: int) -> float:
    key = (nation, tuple(ships), goods)
    use = _FLEET_USE.get(key)
    if use is None:
        if len(_FLEET_USE) >= _KEPT:
            _FLEET_USE.clear()
        use = _FLEET_USE[key] = sum(_future_use(nation, sid, goods) for sid in ships)
    return use


def _plan_worth(s, seat: int, p: dict, goods: int, factor: float, ph: str) -> float:
    """The ships this round: those planned for an action still to come, and
    (while planning) the free ones at their best remaining action."""
    worth = 0.0
    current = NFL_ACTIONS.index(s.action) if s.action in NFL_ACTIONS else 0
    for i, action in enumerate(NFL_ACTIONS):
        if ph == "act" and (i < current or (i == current and s.turn == seat)):
            continue  # done, or being played now: its results count instead
        for sid, captain in s.plan[action][seat]:
            worth += _yield(action, sid, captain, p, goods, factor)
    if ph != "plan":
        return worth
    planned = {sid for a in NFL_ACTIONS for sid, _ in s.plan[a][seat]}
    free = [sid for sid in p["ships"] if sid not in planned]
    if not free:
        return worth
    decided = seat in s.order[: s.step]
    room = {}
    for i, action in enumerate(NFL_ACTIONS):
        if i > current or (i == current and not decided):
            most = (
                LOAD_MAX_SHIPS["value"]
                if action == "load"
                else NFL_NATIONS[p["nation"]]["max"][action]
            )
            room[action] = most - len(s.plan[action][seat])
    pairs = sorted(
        (
            (_yield(a, sid, "", p, goods, factor), sid, a)
            for sid in free
            for a in room
            if room[a] > 0
        ),
        reverse=True,
    )
    used = set()
    for y, sid, a in pairs:
        if sid in used or room[a] <= 0:
            continue
        used.add(sid)
        room[a] -= 1
        worth += y
    return worth


def new_found_land_economies(s) -> list[float]:
    """Goods at their worth in contracts; cards and markers at what they
    count at the end at least; ships at what they bring in the rounds left;
    this round's planned ships at what their actions will bring; a lead on
    an island or city not scored yet at part of its bonus."""
    ph = _phase(s)
    factor = _goods_factor(s, ph)
    uses = NFL_ROUNDS - s.round + (1 if ph == "land" else 0)
    out = prospects(s)
    for seat, p in enumerate(s.players):
        g = p["goods"]
        goods = g["wood"] + g["cloth"] + g["iron"] + g["gold"]
        worth = factor * (
            GOOD_WORTH["wood"] * g["wood"]
            + GOOD_WORTH["cloth"] * g["cloth"]
            + GOOD_WORTH["iron"] * g["iron"]
            + GOOD_WORTH["gold"] * g["gold"]
        )
        worth += CARD_WORTH * len(p["hand"]) + GOAL_WORTH * len(p["goals"])
        worth += EXT_WORTH * len(p["exts"]) + fifty_bonus(p)
        if uses:
            nation = p["nation"]
            worth += 0.8 * uses * _fleet_use(nation, p["ships"], goods)
        if ph == "plan" or ph == "act":
            worth += _plan_worth(s, seat, p, goods, factor, ph)
        out[seat] += worth
    return out


def new_found_land_totals(s) -> list[float]:
    """Per seat: its points now and its economy."""
    return [p["score"] + worth for p, worth in zip(s.players, new_found_land_economies(s))]


def place_tallies(s, board=None) -> dict[str, dict[int, int]]:
    """Markers per seat on every island and city not scored yet."""
    counts: dict[str, dict[int, int]] = {}
    scored = s.scored
    for space, (_tile, fields) in (s.board if board is None else board).items():
        island = NFL_SPACES[space][0]
        if island in scored:
            continue
        for owner, markers in fields:
            if owner is not None and markers:
                tally = counts.setdefault(island, {})
                tally[owner] = tally.get(owner, 0) + markers
    for city, seats in s.cities.items():
        if city in scored or not seats:
            continue
        tally = counts.setdefault(city, {})
        for owner in seats:
            tally[owner] = tally.get(owner, 0) + 1
    return counts


# A board is shared by a position and those after it until one of them
# settles or explores (State.clone), so most positions a rollout judges
# have a board whose prospects were reckoned before.  Kept per board object
# (held, so its id cannot be reused; shared_board keeps it unchanged) with
# the cities and scored places they were reckoned with.
# Only a few: the hits are the boards of the last positions, and every board
# kept is hundreds of objects that Python's garbage collector walks again
# and again (20,000 of them made some decisions twice as slow).
_PROSPECTS: dict[int, tuple[object, dict, list, list[float]]] = {}
_BOARDS_KEPT = 64


def prospects(s) -> list[float]:
    """Per seat: a point per marker on an unscored island or city (it counts
    there or in the final scoring), half the first bonus of every one the
    seat leads alone, a third of the second where it is second alone or
    shares the lead."""
    board = shared_board(s)
    kept = _PROSPECTS.get(id(board))
    if kept is None or kept[0] is not board or kept[1] != s.cities or kept[2] != s.scored:
        if len(_PROSPECTS) >= _BOARDS_KEPT:
            _PROSPECTS.clear()
        cities = {city: seats[:] for city, seats in s.cities.items()}
        kept = _PROSPECTS[id(board)] = (board, cities, s.scored[:], _prospects(s, board))
    return kept[3][:]


def _prospects(s, board: dict) -> list[float]:
    worth = [0.0] * len(s.players)
    for place, tally in place_tallies(s, board).items():
        bonus = NFL_ISLANDS.get(place) or NFL_CITIES[place]
        counts = sorted(tally.values(), reverse=True)
        top = counts[0]
        second = counts[1] if len(counts) > 1 else 0
        third = counts[2] if len(counts) > 2 else 0
        for owner, mine in tally.items():
            if owner < 0:
                continue  # the neutral colour of a 2-player game
            worth[owner] += MARKER_WORTH * mine
            if mine == top:
                worth[owner] += bonus["first"] / 2 if second < mine else bonus["second"] / 3
            elif mine == second and top > mine and third < mine:
                worth[owner] += bonus["second"] / 3
    return worth


# Per game: every seat's points now plus its economy, for one position
# (read straight off the state: ``Rules.standing`` also writes its reasons).
TOTALS: dict[str, Callable[[object], list[float]]] = {
    "puerto_rico": puerto_rico_totals,
    "new_found_land": new_found_land_totals,
}


def _nfl_settled(s) -> bool:
    # A seat in the middle of its turn at an action: its planned ships for
    # it are counted neither as a plan nor yet as results (_plan_worth).
    return not (s.phase == "act" and s.work is not None)


SETTLED = {"new_found_land": _nfl_settled}


def settled(game: Rules, state) -> bool:
    """Whether ``value`` can judge this position fairly: no seat is halfway
    through something whose worth it counts only once it is done."""
    check = SETTLED.get(game.name)
    return check is None or check(state)


def value(game: Rules, state, seat: int) -> float:
    """``seat``'s position in points: its own, its economy's, less a share of
    the best rival's.  A finished game counts only who won."""
    if game.is_over(state):
        outcome = game.outcome(state)
        assert outcome is not None  # the game is over
        scores = [s.total for s in outcome.scores]
        return 1000.0 if seat in outcome.winners else scores[seat] - max(scores)
    totals_of = TOTALS.get(game.name)
    totals = totals_of(state) if totals_of else [s.total for s in game.standing(state).scores]
    rivals = [t for other, t in enumerate(totals) if other != seat]
    return totals[seat] - RIVAL_SHARE * max(rivals, default=0.0)
