"""Words for prompts and actions, as a form or an email shows them."""
from __future__ import annotations

from collections import Counter

from engine.puerto_rico.catalogue import describe
from engine.puerto_rico.data import CARDS, GOODS
from engine.puerto_rico.phases.builder import cost
from engine.puerto_rico.phases.roles import ROLE_TITLES
from engine.puerto_rico.phases.trader import price
from engine.puerto_rico.state import State
from engine.words import N_, article, count, fill

PROMPTS = {
    "role": N_("choose a role"),
    "settler": N_("take a plantation"),
    "mayor": N_("place your colonists"),
    "builder": N_("build a building"),
    "craftsman": N_("choose the craftsman's extra barrel"),
    "trader": N_("sell a good"),
    "captain": N_("ship goods"),
    "storage": N_("choose which goods to keep"),
    "select": N_("choose a violet building for the building set"),
    "over": N_("nothing: the game is over"),
}
PENDING_PROMPTS = {"black_market": N_("pay the rest of the price on the black market"),
                   "hacienda_tile": N_("place the hacienda's tile face up or as a forest"),
                   "second_tile": N_("take a second tile (library)"),
                   "guests": N_("move colonists from the Guest house, or leave them"),
                   "bonus": N_("choose the craftsman's extra barrel")}
PASS_LABELS = {"settler": "Take no plantation", "builder": "Build nothing",
               "trader": "Sell nothing", "captain": "Do not use the wharf now"}


def prompt(s: State) -> str:
    return fill(*prompt_message(s))


def prompt_message(s: State) -> tuple[str, dict]:
    """The prompt as a template and its values (``Game.prompt_message``)."""
    if s.phase == "mayor":
        return N_("place your colonists (%(left)s left to place)"), {"left": s.mayor_pool}
    pending = s.x and s.x["pending"]
    if pending and s.phase != "over":
        return PENDING_PROMPTS[pending["kind"]], {}
    return PROMPTS[s.phase], {}


def target_title(target: str) -> str:
    if target in CARDS:
        return CARDS[target].title
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
        return f"Take {article(a['kind'])} plantation"
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
        name = a["building"]
        return f"Build the {CARDS[name].title} for {cost(s, seat, name)} ({describe(name)})"
    if t == "sell" and a.get("to") == "trading_post":
        kind = GOODS.index(a["kind"])
        return f"Sell one {a['kind']} to your trading post for {price(s, seat, kind, 'trading_post')}"
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
        loose = Counter(a.get("barrels", [a.get("single")]))
        kept = [f"all {g}" for g in a["warehouse"]]
        kept += [f"{'one' if n == 1 else n} {g}" for g, n in loose.items()]
        return "Keep " + ", ".join(kept) + "; return the rest"
    return EXPANSION_LABELS[t](s, seat, a)


def _black_market(s: State, seat: int, a: dict) -> str:
    what = a["pay"]
    if what == "cancel":
        return "Do not build it after all"
    if what == "good":
        return f"Black market: give one {a['kind']} for a doubloon"
    if what == "vp":
        return "Black market: give a victory point for a doubloon"
    where = "San Juan" if a["from"] == "san_juan" else target_title(a["from"])
    return f"Black market: give a colonist from the {where} for a doubloon"


def _small_wharf(s: State, seat: int, a: dict) -> str:
    goods = s.players[seat].goods
    n = sum(goods[GOODS.index(g)] for g in a["kinds"])
    return f"Ship all {', '.join(a['kinds'])} ({count(n, 'barrel')}) on your small wharf"


EXPANSION_LABELS = {
    "select": lambda s, seat, a: (f"Choose the {CARDS[a['building']].title} "
                                  f"({describe(a['building'])})"),
    "forest": lambda s, seat, a: "Take a forest (a face-down tile: -1 doubloon per 2 when building)",
    "hacienda_tile": lambda s, seat, a: ("Keep the drawn tile face up" if a["as"] == "plantation"
                                         else "Turn the drawn tile face down as a forest"),
    "guest": lambda s, seat, a: f"Move a guest to the {target_title(a['target'])}",
    "guests_done": lambda s, seat, a: "Leave the guests where they are",
    "black_market": _black_market,
    "small_wharf": _small_wharf,
}
