"""Words for prompts and actions, as a form or an email shows them."""
from __future__ import annotations

from engine.puerto_rico.data import BUILDINGS, GOODS
from engine.puerto_rico.phases.builder import cost
from engine.puerto_rico.phases.roles import ROLE_TITLES
from engine.puerto_rico.phases.trader import price
from engine.puerto_rico.state import State

PROMPTS = {
    "role": "choose a role",
    "settler": "take a plantation",
    "mayor": "place your colonists",
    "builder": "build a building",
    "craftsman": "choose the craftsman's extra barrel",
    "trader": "sell a good",
    "captain": "ship goods",
    "storage": "choose which goods to keep",
    "over": "nothing: the game is over",
}
PASS_LABELS = {"settler": "Take no plantation", "builder": "Build nothing",
               "trader": "Sell nothing", "captain": "Do not use the wharf now"}


def prompt(s: State) -> str:
    if s.phase == "mayor":
        return f"place your colonists ({s.mayor_pool} left to place)"
    return PROMPTS[s.phase]


def target_title(target: str) -> str:
    if target in BUILDINGS:
        return BUILDINGS[target].title
    return "quarry" if target == "quarry" else f"{target} plantation"


def label(s: State, a: dict) -> str:
    text = _label(s, a)
    if a.get("colonist") is False:
        text += " without the free colonist"
    return text


def _label(s: State, a: dict) -> str:
    t = a["type"]
    seat = s.turn
    if t == "role":
        coins = s.roles.get(a["role"], 0)
        return ROLE_TITLES[a["role"]] + (f" (+{coins} doubloon{'s' * (coins > 1)})" if coins else "")
    if t == "pass":
        return PASS_LABELS.get(s.phase, "Pass")
    if t == "plantation":
        return f"Take a {a['kind']} plantation"
    if t == "quarry":
        return "Take a quarry"
    if t == "hacienda":
        return "Hacienda: first draw an extra face-down plantation"
    if t == "place":
        n = a["count"]
        return f"Put {'a colonist' if n == 1 else f'{n} colonists'} on the {target_title(a['target'])}"
    if t == "auto_place":
        return "Place the rest automatically (last arrangement first)"
    if t == "build":
        return f"Build the {BUILDINGS[a['building']].title} for {cost(s, seat, a['building'])}"
    if t == "bonus":
        return f"Take one more {a['kind']}"
    if t == "sell":
        return f"Sell one {a['kind']} for {price(s, seat, GOODS.index(a['kind']))}"
    if t == "load":
        cap, _, count = s.ships[a["ship"]]
        n = min(s.players[seat].goods[GOODS.index(a["kind"])], cap - count)
        return f"Load {n} {a['kind']} on the {cap}-ship"
    if t == "wharf":
        n = s.players[seat].goods[GOODS.index(a["kind"])]
        return f"Ship all {n} {a['kind']} with your wharf"
    if t == "store":
        kept = [f"all {g}" for g in a["warehouse"]] + [f"one {a['single']}"]
        return "Keep " + ", ".join(kept) + "; return the rest"
    return t
