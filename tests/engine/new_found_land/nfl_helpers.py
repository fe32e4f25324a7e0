"""Shared helpers for the New Found Land tests: random play, the component
ledger, action probes, hidden ids, and building positions by hand."""

from __future__ import annotations

import random
import re
from itertools import combinations, combinations_with_replacement

from engine.new_found_land.data import (
    ACTIONS,
    CAPTAINS,
    CARDS,
    COMPASS,
    CONTRACTS,
    GOALS,
    GOODS,
    ISLANDS,
    MARKERS,
    NATIONS,
    SHIPS,
    SPACES,
    SUPPLY,
    TILES,
)
from engine.new_found_land.game import NewFoundLand
from engine.new_found_land.state import NEUTRAL

GAME = NewFoundLand()
ID = re.compile(r"\b(?:s\d\d|L\d\d|K\d\d|G\d\d|T\d\d|C\d\d|P\d)\b")


def random_game(players: int, seed: int, options=None):
    """Uniformly random legal actions to the end; yields (state, seat, action, new, events)."""
    rnd = random.Random(seed)
    state = GAME.new_game(players, options or {}, seed)
    while not GAME.is_over(state):
        seat = GAME.to_move(state)
        action = rnd.choice(GAME.legal_actions(state, seat))
        new, events = GAME.apply(state, seat, action)
        yield state, seat, action, new, events
        state = new


def every_component() -> list[str]:
    return sorted(
        list(SHIPS)
        + [k for k in CARDS if k not in SHIPS]
        + list(GOALS)
        + list(TILES)
        + list(CONTRACTS)
        + list(COMPASS)
        + list(CAPTAINS)
    )


def all_ids(s) -> list[str]:
    """Every component id wherever it is; each must appear exactly once."""
    ids = list(s.small_pile) + list(s.large_pile) + list(s.card_pile) + list(s.contract_pile)
    ids += list(s.island_pile) + list(s.compass_pile) + list(s.compass_shown) + list(s.captains)
    ids += [x for x in s.small_offer + s.large_offer + s.contracts if x]
    for pile in s.goal_piles.values():
        ids += pile
    for pile in s.discard.values():
        ids += pile
    for p in s.players:
        ids += p["ships"] + p["hand"] + p["goals"] + p["captains"]
    ids += [c[0] for c in s.board.values()] + list(s.drawn)
    ids += [
        sid
        for a in ACTIONS
        for per in s.plan.get(a, [])
        for sid, _ in per
        if SHIPS[sid].kind == "charter"
    ]
    return sorted(ids)


def ledger(s) -> dict:
    goods = {
        g: s.supply[g] + sum(p["goods"][g] for p in s.players) + s.goods_field.count(g)
        for g in GOODS
    }
    goods["wood"] += len(s.scored)  # a good lies on each scored island or city
    markers = []
    for seat, p in enumerate(s.players):
        on_board = sum(k for c in s.board.values() for o, k in c[1] if o == seat)
        in_cities = sum(v.count(seat) for v in s.cities.values())
        markers.append(p["markers"] + on_board + in_cities + len(p["exts"]))
    frames = len(s.frames)
    return {
        "goods": goods,
        "markers": markers,
        "ids": all_ids(s),
        "frames": frames,
        "fifty": len(s.fifty) + sum(p["fifty"] is not None for p in s.players),
    }


def expected_ledger(n: int) -> dict:
    return {
        "goods": dict(SUPPLY),
        "markers": [MARKERS] * n,
        "ids": every_component(),
        "frames": 5,
        "fifty": 4,
    }


def hidden_ids(s, viewer) -> set[str]:
    """Ids the viewer may not see in this state."""
    hidden = set(s.small_pile) | set(s.large_pile) | set(s.card_pile) | set(s.contract_pile)
    hidden |= set(s.island_pile) | set(s.compass_pile) | {x for x in s.large_offer if x}
    for v in s.discard.values():
        hidden |= set(v)
    frame_pile = None
    if s.phase == "frame" and viewer == s.turn:
        from engine.new_found_land.data import FRAMES

        frame_pile = FRAMES[s.claims[0][1]]["gives"]
    for name, pile in s.goal_piles.items():
        if name != frame_pile:
            hidden |= set(pile)
    for i, p in enumerate(s.players):
        if i != viewer:
            hidden |= set(p["hand"]) | set(p["goals"])
    if viewer != s.turn:
        hidden |= set(s.drawn)
    return hidden


def strings(obj) -> set[str]:
    out: set[str] = set()
    if isinstance(obj, str):
        out.add(obj)
    elif isinstance(obj, dict):
        for k, v in obj.items():
            out |= strings(k) | strings(v)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            out |= strings(v)
    return out


def every_action_shape(s) -> list[dict]:
    """A superset of the actions of every decision, to probe what is refused."""
    seat = s.turn
    p = s.players[seat]
    out = [{"type": "done"}, {"type": "new_england"}]
    out += [
        {"type": "extend", "ext": e}
        for e in ["shipyard"] + [n["extension"]["id"] for n in NATIONS.values()]
    ]
    for row in ("small", "large"):
        for slot in range(5):
            out.append({"type": "build", "row": row, "slot": slot})
            out += [
                {"type": "build", "row": row, "slot": slot, "discard": x}
                for x in p["ships"] + ["s99"]
            ]
    for sid in p["ships"] + p["hand"] + list(SHIPS)[:3]:
        out.append({"type": "assign", "ship": sid})
        out += [{"type": "assign", "ship": sid, "captain": c} for c in CAPTAINS]
    ships = [sh[0] for sh in (s.work or {}).get("ships", [])] + ["s01"]
    for g in GOODS:
        out += [
            {"type": "load", "good": g},
            {"type": "antwerp", "good": g},
            {"type": "field_good", "good": g},
        ]
        out += [{"type": "antwerp", "good": g, "ship": sid} for sid in ships]
    out += [
        {"type": "pay", "gold_for": list(w)}
        for k in range(5)
        for w in combinations_with_replacement(GOODS, k)
    ]
    for c in list(s.drawn) + s.card_pile[-2:] + p["hand"] + list(CARDS)[:2]:
        out += [{"type": "keep", "card": c}, {"type": "play", "card": c}]
    for sp in list(SPACES)[:12] + list(s.board):
        out += [{"type": "settle", "space": sp, "bonus": b} for b in (0, 1)]
        out += [
            {"type": "settle", "space": sp, "bonus": b, "field": f} for b in (0, 1) for f in (0, 1)
        ]
    groups = [sorted(g) for k in (1, 2, 3) for g in combinations(ships, k)]
    for field in range(10):
        out += [{"type": "deliver", "field": field, "ships": g} for g in groups]
    for t in list(s.drawn) + s.island_pile[-2:]:
        out += [{"type": "place", "tile": t, "island": i} for i in ISLANDS]
    out += [{"type": "captain", "captain": c} for c in CAPTAINS]
    out += [{"type": "take_goal", "card": g} for g in GOALS]
    for g in list(p["goals"]) + ["G01"]:
        out.append({"type": "goal", "card": g})
        out += [{"type": "goal", "card": g, "pay": [a, b]} for a in GOODS for b in GOODS]
    return out


def neutral() -> int:
    return NEUTRAL


# -- positions built by hand (rule and example tests) -----------------------------
def bare(nations: list[str], start: int = 0, seed: int = 1):
    """A set-up state with these nations, empty stores, no ships or cards,
    an empty board; nobody to move yet."""
    from engine.new_found_land import setup

    s = setup.new_state(len(nations), seed)
    for i, p in enumerate(s.players):
        p["nation"] = nations[i]
        p["goods"] = dict.fromkeys(GOODS, 0)
        p["ships"], p["hand"] = [], []
    for sp, cell in list(s.board.items()):
        s.island_pile.append(cell[0])
    s.board = {}
    s.start = start
    return s


def run(s, enter, *args):
    """Start a phase (``enter(s, ev, *args)``) and play forced decisions; the events."""
    ev: list = []
    enter(s, ev, *args)
    s._legal = None
    GAME.play_forced(s, ev)
    return ev


def play(s, action, seat=None):
    """Apply one action for the seat to move (or ``seat``); the new state."""
    seat = s.turn if seat is None else seat
    new, _ = GAME.apply(s, seat, action)
    return new


def plan(s, action: str, seat: int, *ships: str, captain: str = "") -> None:
    from engine.new_found_land.data import ACTIONS as ALL

    if not s.plan:
        s.plan = {a: [[] for _ in range(s.n)] for a in ALL}
    s.plan[action][seat] = [[sid, captain if i == 0 else ""] for i, sid in enumerate(ships)]


def lay_tile(s, tile: str, space: str, fields=((None, 0), (None, 0))) -> None:
    if tile in s.island_pile:
        s.island_pile.remove(tile)
    s.board[space] = [tile, [list(f) for f in fields]]


def hold_at_goals(s, seat: int) -> None:
    """Give ``seat`` a goal card it can play, so a round's flow stops at the
    goal cards (before the next round's income)."""
    s.players[seat]["ships"] = [x for x in s.players[seat]["ships"] if x not in ("s16", "s17")]
    s.players[seat]["ships"] += ["s16", "s17"]
    s.players[seat]["goals"] = ["G11"]  # 2 small ships: 3 points
