"""Words for prompts and actions, as a form or an email shows them."""

from __future__ import annotations

from collections import Counter

from engine.puerto_rico.catalogue import describe
from engine.puerto_rico.data import CARDS, GOODS
from engine.puerto_rico.phases.builder import cost
from engine.puerto_rico.phases.common import tile_name
from engine.puerto_rico.phases.roles import ROLE_TITLES
from engine.puerto_rico.phases.trader import price
from engine.puerto_rico.state import State
from engine.words import N_, Words, fill, listing, msg, nmsg, term

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
# Each plantation by its own name: "plantation d'indigo" is no "plantation de %s".
# Templates the rules no longer write but stored event logs still hold: kept
# in the game's catalogs so old games read in every language.
STORED_TEMPLATES = (N_("%(kind)s plantation"),)
PLANTATION_NAMES = {
    "corn": N_("corn plantation"),
    "indigo": N_("indigo plantation"),
    "sugar": N_("sugar plantation"),
    "tobacco": N_("tobacco plantation"),
    "coffee": N_("coffee plantation"),
}
# The values of the building-set option (options.py), as the lobby names them.
OPTION_VALUES = (N_("base"), N_("extended"), N_("random"))
PENDING_PROMPTS = {
    "black_market": N_("pay the rest of the price on the black market"),
    "hacienda_tile": N_("place the hacienda's tile face up or as a forest"),
    "second_tile": N_("take a second tile (library)"),
    "guests": N_("move colonists from the Guest house, or leave them"),
    "bonus": N_("choose the craftsman's extra barrel"),
}
PASS_LABELS = {
    "settler": N_("Take no plantation"),
    "builder": N_("Build nothing"),
    "trader": N_("Sell nothing"),
    "captain": N_("Do not use the wharf now"),
}


# Headings over the kinds of choice on the move page.
GROUPS = {
    "role": N_("Role"),
    "pass": N_("Pass"),
    "plantation": N_("Plantation"),
    "quarry": N_("Quarry"),
    "hacienda": N_("Hacienda"),
    "place": N_("Place"),
    "auto_place": N_("Auto place"),
    "build": N_("Build"),
    "sell": N_("Sell"),
    "bonus": N_("Bonus"),
    "load": N_("Load"),
    "wharf": N_("Wharf"),
    "store": N_("Store"),
    "select": N_("Select"),
    "forest": N_("Forest"),
    "hacienda_tile": N_("Hacienda tile"),
    "guest": N_("Guest"),
    "guests_done": N_("Guests done"),
    "black_market": N_("Black market"),
    "small_wharf": N_("Small wharf"),
}


def prompt(s: State) -> str:
    return fill(*prompt_message(s))


def prompt_message(s: State) -> tuple[str, dict]:
    """The prompt as a template and its values (``Rules.prompt_message``)."""
    if s.phase == "mayor":
        return N_("place your colonists (%(left)s left to place)"), {"left": s.mayor_pool}
    pending = s.x and s.x["pending"]
    if pending and s.phase != "over":
        return PENDING_PROMPTS[pending["kind"]], {}
    return PROMPTS[s.phase], {}


def target_title(target: str) -> Words:
    if target in CARDS:
        return term(CARDS[target].title)
    return msg("quarry") if target == "quarry" else term(PLANTATION_NAMES[target])


def label(s: State, a: dict) -> Words:
    text = _label(s, a)
    if a.get("colonist") is False:
        return msg("%(choice)s without the free colonist", choice=text)
    return text


def _label(s: State, a: dict) -> Words:
    t = a["type"]
    seat = s.turn
    if t == "role":
        coins = s.roles.get(a["role"], 0)
        role = term(ROLE_TITLES[a["role"]])
        if coins:
            return nmsg(
                "%(role)s (+%(n)s doubloon)", "%(role)s (+%(n)s doubloons)", coins, role=role
            )
        return role
    if t == "pass":
        return term(PASS_LABELS.get(s.phase, N_("Pass")))
    if t in SIMPLE_LABELS:
        return SIMPLE_LABELS[t](s, seat, a)
    return EXPANSION_LABELS[t](s, seat, a)


def _place(s: State, seat: int, a: dict) -> Words:
    return nmsg(
        "Put a colonist on the %(target)s",
        "Put %(n)s colonists on the %(target)s",
        a["count"],
        target=target_title(a["target"]),
    )


def _build(s: State, seat: int, a: dict) -> Words:
    name = a["building"]
    return msg(
        "Build the %(building)s for %(price)s (%(card)s)",
        building=term(CARDS[name].title),
        price=cost(s, seat, name),
        card=describe(name),
    )


def _sell(s: State, seat: int, a: dict) -> Words:
    good = term(a["kind"])
    if a.get("to") == "trading_post":
        kind = GOODS.index(a["kind"])
        return msg(
            "Sell one %(good)s to your trading post for %(price)s",
            good=good,
            price=price(s, seat, kind, "trading_post"),
        )
    return msg(
        "Sell one %(good)s for %(price)s", good=good, price=price(s, seat, GOODS.index(a["kind"]))
    )


def _load(s: State, seat: int, a: dict) -> Words:
    cap, _, on_board = s.ships[a["ship"]]
    n = min(s.players[seat].goods[GOODS.index(a["kind"])], cap - on_board)
    return msg("Load %(n)s %(good)s on the %(size)s-ship", n=n, good=term(a["kind"]), size=cap)


def _store(s: State, seat: int, a: dict) -> Words:
    loose = Counter(a.get("barrels", [a.get("single")]))
    kept = [msg("all %(good)s", good=term(g)) for g in a["warehouse"]]
    kept += [
        msg("one %(good)s", good=term(g)) if n == 1 else msg("%(n)s %(good)s", n=n, good=term(g))
        for g, n in loose.items()
    ]
    return msg("Keep %(goods)s; return the rest", goods=listing(kept))


SIMPLE_LABELS = {
    "plantation": lambda s, seat, a: msg(
        "Take %(tile)s plantation", tile=tile_name(GOODS.index(a["kind"]))
    ),
    "quarry": lambda s, seat, a: msg("Take a quarry"),
    "hacienda": lambda s, seat, a: msg("Hacienda: first draw an extra face-down plantation"),
    "place": _place,
    "auto_place": lambda s, seat, a: msg("Place the rest automatically (last arrangement first)"),
    "build": _build,
    "sell": _sell,
    "bonus": lambda s, seat, a: msg("Take one more %(good)s", good=term(a["kind"])),
    "load": _load,
    "wharf": lambda s, seat, a: msg(
        "Ship all %(n)s %(good)s with your wharf",
        n=s.players[seat].goods[GOODS.index(a["kind"])],
        good=term(a["kind"]),
    ),
    "store": _store,
}


def _black_market(s: State, seat: int, a: dict) -> Words:
    what = a["pay"]
    if what == "cancel":
        return msg("Do not build it after all")
    if what == "good":
        return msg("Black market: give one %(good)s for a doubloon", good=term(a["kind"]))
    if what == "vp":
        return msg("Black market: give a victory point for a doubloon")
    where = msg("San Juan") if a["from"] == "san_juan" else target_title(a["from"])
    return msg("Black market: give a colonist from the %(where)s for a doubloon", where=where)


def _small_wharf(s: State, seat: int, a: dict) -> Words:
    goods = s.players[seat].goods
    n = sum(goods[GOODS.index(g)] for g in a["kinds"])
    return nmsg(
        "Ship all %(kinds)s (%(n)s barrel) on your small wharf",
        "Ship all %(kinds)s (%(n)s barrels) on your small wharf",
        n,
        kinds=listing([term(g) for g in a["kinds"]]),
    )


EXPANSION_LABELS = {
    "select": lambda s, seat, a: msg(
        "Choose the %(building)s (%(card)s)",
        building=term(CARDS[a["building"]].title),
        card=describe(a["building"]),
    ),
    "forest": lambda s, seat, a: msg(
        "Take a forest (a face-down tile: -1 doubloon per 2 when building)"
    ),
    "hacienda_tile": lambda s, seat, a: (
        msg("Keep the drawn tile face up")
        if a["as"] == "plantation"
        else msg("Turn the drawn tile face down as a forest")
    ),
    "guest": lambda s, seat, a: msg(
        "Move a guest to the %(target)s", target=target_title(a["target"])
    ),
    "guests_done": lambda s, seat, a: msg("Leave the guests where they are"),
    "black_market": _black_market,
    "small_wharf": _small_wharf,
}


def group_of(action: dict) -> Words:
    """The heading a choice stands under: buildings by the supply board's
    column (their victory points) or, while the set is chosen, by cost, so a
    long list reads in parts; everything else by its kind."""
    kind = action.get("type", "")
    if kind == "build":
        card = CARDS[action["building"]]
        return nmsg(
            "Build: buildings worth %(n)s point", "Build: buildings worth %(n)s points", card.vp
        )
    if kind == "select":
        return msg("Select: cost %(cost)s", cost=CARDS[action["building"]].cost)
    return term(GROUPS.get(kind, kind))


def order_of(action: dict) -> tuple[int, int, int]:
    """Where a choice stands in the list (a stable sort keeps the rest):
    buildings after the other choices, by column, then cost."""
    if action.get("type") in ("build", "select"):
        card = CARDS[action["building"]]
        return (1, card.vp if action["type"] == "build" else 0, card.cost)
    return (0, 0, 0)
