"""Words for prompts, actions and components, as a form or an email shows them."""

from __future__ import annotations

from typing import Any

from engine.new_found_land import board
from engine.new_found_land.common import bundle_text, payment, payments
from engine.new_found_land.components import NEW_ENGLAND
from engine.new_found_land.data import (
    CAPTAINS,
    CARDS,
    CONTRACT_FIELDS,
    CONTRACTS,
    GOALS,
    SHIPS,
    TILES,
)
from engine.new_found_land.phases.deliver import TOLL_HOUSE_POINTS, antwerp_sender
from engine.new_found_land.phases.land import action_cost, ext_title
from engine.new_found_land.phases.planning import TITLES
from engine.new_found_land.phases.settle import OVERSIGHT
from engine.new_found_land.state import State
from engine.words import N_, Words, fill, listing, msg, nmsg, term

CHOOSE = N_("gold may stand in: you choose how to pay next")
# The ships goal names its row whole: "small" alone is a ship's kind, "s05
# (small)", and French and Dutch inflect it differently before "ships".
SHIP_ROWS = {"small": N_("small ships"), "large": N_("large ships")}
GOAL_WORDS = {
    "symbol": N_("%(param)s value on your ships"),
    "city_markers": N_("markers in cities"),
    "full_cities": N_("completed cities with your marker"),
    "one_island": N_("markers on one island"),
    "full_islands": N_("completed islands with 6 of your markers"),
    "island_markers": N_("markers on islands"),
}
# Names that components.py keeps as plain literals, marked here for the catalogs.
NAMES = (
    N_("wood"),
    N_("cloth"),
    N_("iron"),
    N_("gold"),
    N_("shipyard"),
    N_("colonial oversight"),
    N_("colonial harbour"),
    N_("toll house"),
    N_("naval base"),
    N_("Portugal"),
    N_("Spain"),
    N_("England"),
    N_("France"),
    N_("Netherlands"),
    N_("bar"),
    N_("corner"),
    N_("square"),
    N_("tee"),
    N_("crate"),
    N_("person"),
    N_("sail"),
    N_("spyglass"),
    N_("large"),
    N_("small"),
    N_("charter"),
    # The frame tiles (components.FRAMES), by their symbols.
    N_("pentagon"),
    N_("circle"),
    N_("triangle"),
    N_("star"),
    # The values of the frame_tiles option (game.py).
    N_("standard"),
    N_("advanced"),
)
SHIP_VALUES = {
    "crate": N_("crate %(n)s"),
    "person": N_("person %(n)s"),
    "spyglass": N_("spyglass %(n)s"),
}


def ship_text(sid: str) -> Words:
    sh = SHIPS[sid]
    parts = [msg("sail %(n)s", n=sh.sail)] + [
        msg(SHIP_VALUES[k], n=getattr(sh, k)) for k in SHIP_VALUES if getattr(sh, k)
    ]
    return msg("%(ship)s (%(values)s)", ship=sid, values=listing(parts))


def card_text(cid: str) -> Words:
    c = CARDS[cid]
    if c["kind"] == "charter":
        return msg("charter ship %(ship)s", ship=ship_text(cid))
    return msg("%(card)s (%(gain)s)", card=cid, gain=bundle_text(c["gain"]))


def goal_text(gid: str) -> Words:
    g = GOALS[gid]
    if g["kind"] == "goods":
        return nmsg(
            "%(goal)s (%(count)s %(good)s: %(n)s point)",
            "%(goal)s (%(count)s %(good)s: %(n)s points)",
            g["lower"][1],
            goal=gid,
            count=g["lower"][0],
            good=term(g["param"]),
        )
    # Words(), not msg(): the template is looked up, and the catalogs find
    # GOAL_WORDS through its N_ marks.
    if g["kind"] == "ships":
        what = term(SHIP_ROWS[g["param"]])
    elif g["kind"] == "symbol":
        what = Words(GOAL_WORDS[g["kind"]], {"param": term(g["param"])})
    else:
        what = term(GOAL_WORDS[g["kind"]])
    # "markers in cities: 3 for 4 points, 5 for 8 points": no "1 ships".
    return msg(
        "%(goal)s (%(what)s: %(lower)s, %(upper)s)",
        goal=gid,
        what=what,
        lower=_for_points(*g["lower"]),
        upper=_for_points(*g["upper"]),
    )


def _for_points(n: int, points: int) -> Words:
    return nmsg("%(count)s for %(n)s point", "%(count)s for %(n)s points", points, count=n)


def tile_text(tid: str) -> Words:
    t = TILES[tid]
    return msg(
        "%(tile)s (%(shape)s: %(bonuses)s)",
        tile=tid,
        shape=term(t["shape"]),
        bonuses=listing([bundle_text(b) for b in t["bonuses"]], " / "),
    )


def contract_text(cid: str) -> Words:
    k = CONTRACTS[cid]
    return nmsg(
        "%(goods)s for %(n)s point",
        "%(goods)s for %(n)s points",
        k["points"],
        goods=bundle_text(k["goods"]),
    )


# The planning prompt per action: "send ships to" + planning.TITLES.
PLAN_PROMPTS = {
    "load": N_("send ships to Load"),
    "settle": N_("send ships to Settle"),
    "deliver": N_("send ships to Deliver"),
    "explore": N_("send ships to Explore"),
}


# Headings over the kinds of choice on the move page.
GROUPS = {
    "extend": N_("Extend"),
    "build": N_("Build"),
    "pay": N_("Pay"),
    "done": N_("Done"),
    "assign": N_("Assign"),
    "load": N_("Load"),
    "keep": N_("Keep"),
    "settle": N_("Settle"),
    "new_england": N_("New England"),
    "deliver": N_("Deliver"),
    "antwerp": N_("Antwerp"),
    "place": N_("Place"),
    "captain": N_("Captain"),
    "field_good": N_("Field good"),
    "take_goal": N_("Take goal"),
    "goal": N_("Goal"),
    "play": N_("Play"),
}


def prompt(s: State) -> str:
    return fill(*prompt_message(s))


def prompt_message(s: State) -> tuple[str, dict]:
    """The prompt as a template and its values (``Rules.prompt_message``)."""
    if s.work and s.work.get("pending"):
        return N_("choose how to pay (gold may stand in for wood, cloth or iron)"), {}
    if s.phase == "land":
        return N_("extend your harbour and build ships, then end your land phase"), {}
    if s.phase == "plan":
        return PLAN_PROMPTS[s.action], {}
    if s.phase == "frame":
        return (
            N_("take your reward for reaching the %(frame)s frame tile"),
            {"frame": term(s.claims[0][1])},
        )
    if s.phase == "goals":
        return N_("play goal cards"), {}
    if s.phase == "act":
        return _act_prompt(s)
    return N_("nothing: the game is over"), {}


def _act_prompt(s: State) -> tuple[str, dict]:
    w = s.work or {}
    if s.action == "load":
        return (N_("keep a one-time card") if w.get("keep") else N_("choose the good to load")), {}
    if s.action == "settle":
        if not w.get("queue"):
            return N_("settle"), {}
        if w["queue"][0] == OVERSIGHT:
            return N_("place the colonial oversight's extra marker on an island tile"), {}
        return N_("settle a ship with person value %(value)s"), {"value": w["queue"][0]}
    if s.action == "deliver":
        return N_("fulfil contracts or deliver to Antwerp"), {}
    return N_("place an island tile you drew"), {}


def label(s: State, a: dict) -> Words:
    t, seat = a["type"], s.turn
    p: Any = s.players[seat] if seat is not None else None
    if t in ("extend", "build"):
        return _build_label(s, p, a)
    if t == "pay":
        return pay_text(s, p, a)
    if t == "done":
        return _done_label(s)
    if t == "settle":
        return _settle_label(s, a)
    if t == "deliver":
        return _deliver_label(s, p, a)
    if t in SIMPLE_LABELS:
        return SIMPLE_LABELS[t](s, a)
    return t


def _build_label(s: State, p: dict, a: dict) -> Words:
    price = price_text(p["goods"], action_cost(s, s.turn, a))
    if a["type"] == "extend":
        return msg(
            "Build the %(extension)s for %(price)s", extension=ext_title(p, a["ext"]), price=price
        )
    if "discard" in a:
        return msg(
            "Build %(what)s for %(price)s, discarding %(ship)s",
            what=built_text(s, a),
            price=price,
            ship=ship_text(a["discard"]),
        )
    return msg("Build %(what)s for %(price)s", what=built_text(s, a), price=price)


def _settle_label(s: State, a: dict) -> Words:
    bonus = bundle_text(board.tile_bonuses(s, a["space"])[a["bonus"]])
    step = s.work["queue"][0]
    said = dict(space=a["space"], island=board.island_of(a["space"]), bonus=bonus)
    if step == OVERSIGHT and "field" in a:
        return msg(
            "Put the colonial oversight's extra marker onto your marker on %(space)s "
            "(%(island)s) and take %(bonus)s",
            **said,
        )
    if step == OVERSIGHT:
        return msg(
            "Put the colonial oversight's extra marker on %(space)s (%(island)s) and take "
            "%(bonus)s",
            **said,
        )
    if step == 2:
        return msg("Put a tower on %(space)s (%(island)s) and take %(bonus)s", **said)
    return msg("Put a marker on %(space)s (%(island)s) and take %(bonus)s", **said)


def _deliver_label(s: State, p: dict, a: dict) -> Words:
    cid = s.contracts[a["field"]]
    extra = TOLL_HOUSE_POINTS if "toll_house" in p["exts"] else 0
    want = CONTRACTS[cid]["goods"]
    ways = payments(p["goods"], want)
    said = dict(
        goods=bundle_text(want),
        city=CONTRACT_FIELDS[a["field"]],
        points=CONTRACTS[cid]["points"] + extra,
        ships=", ".join(a["ships"]),
    )
    if ways[0][0] != want:
        text = msg(
            "Deliver %(goods)s to %(city)s, paying %(paid)s, for %(points)s points with %(ships)s",
            paid=bundle_text(ways[0][0]),
            **said,
        )
    else:
        text = msg("Deliver %(goods)s to %(city)s for %(points)s points with %(ships)s", **said)
    return msg("%(choice)s (%(note)s)", choice=text, note=term(CHOOSE)) if len(ways) > 1 else text


def _assign_label(s: State, a: dict) -> Words:
    said = dict(ship=ship_text(a["ship"]), action=term(TITLES[s.action]))
    if a.get("captain"):
        return msg(
            "Send %(ship)s with %(captain)s to %(action)s", captain=CAPTAINS[a["captain"]], **said
        )
    return msg("Send %(ship)s to %(action)s", **said)


def _antwerp_label(s: State, a: dict) -> Words:
    sid = antwerp_sender(s, a)
    if sid:
        return msg(
            "Deliver 1 %(good)s to Antwerp for 1 point, sending %(ship)s there",
            good=term(a["good"]),
            ship=ship_text(sid),
        )
    return msg("Deliver 1 %(good)s to Antwerp for 1 point", good=term(a["good"]))


def _goal_label(s: State, a: dict) -> Words:
    if "pay" in a:
        return msg(
            "Play goal card %(card)s, paying %(goods)s",
            card=goal_text(a["card"]),
            goods=listing([term(g) for g in a["pay"]], " + "),
        )
    return msg("Play goal card %(card)s", card=goal_text(a["card"]))


def _new_england_label(s: State, a: dict) -> Words:
    pts = s.work["queue"][0] * NEW_ENGLAND["points_per_marker"]
    return nmsg(
        "Settle in New England for %(n)s point", "Settle in New England for %(n)s points", pts
    )


SIMPLE_LABELS = {
    "assign": _assign_label,
    "load": lambda s, a: msg("Load 1 %(good)s", good=term(a["good"])),
    "keep": lambda s, a: msg("Keep %(card)s", card=card_text(a["card"])),
    "new_england": _new_england_label,
    "antwerp": _antwerp_label,
    "place": lambda s, a: msg(
        "Place %(tile)s on %(island)s", tile=tile_text(a["tile"]), island=a["island"]
    ),
    "captain": lambda s, a: msg("Take %(captain)s", captain=CAPTAINS[a["captain"]]),
    "field_good": lambda s, a: msg("Take 1 %(good)s from the goods field", good=term(a["good"])),
    "take_goal": lambda s, a: msg("Keep goal card %(card)s", card=goal_text(a["card"])),
    "goal": _goal_label,
    "play": lambda s, a: msg("Play one-time card %(card)s", card=card_text(a["card"])),
}


def price_text(goods: dict, cost: dict) -> Words:
    """What a cost takes from the store: the payment itself when there is one
    way to pay, else the cost and a word that the next decision chooses."""
    ways = payments(goods, cost)
    if len(ways) == 1:
        return bundle_text(ways[0][0])
    return msg("%(choice)s (%(note)s)", choice=bundle_text(cost), note=term(CHOOSE))


def built_text(s: State, a: dict) -> Words:
    if a["type"] == "extend":
        return msg("the %(extension)s", extension=ext_title(s.players[s.turn], a["ext"]))
    sid = (s.small_offer if a["row"] == "small" else s.large_offer)[a["slot"]]
    return (
        msg("a small ship %(ship)s", ship=ship_text(sid))
        if a["row"] == "small"
        else msg("the large ship in slot %(slot)s", slot=a["slot"] + 1)
    )


def pay_text(s: State, p: dict, a: dict) -> Words:
    pending = s.work["pending"]
    if pending["type"] == "deliver":
        cost = CONTRACTS[s.contracts[pending["field"]]]["goods"]
        what = msg(
            "the contract in %(city)s (%(goods)s)",
            city=CONTRACT_FIELDS[pending["field"]],
            goods=bundle_text(cost),
        )
    else:
        cost = action_cost(s, s.turn, pending)
        what = built_text(s, pending)
    paid: Any = payment(p["goods"], cost, a["gold_for"])  # a legal "pay": payable
    pay = bundle_text(paid)
    instead = {g: a["gold_for"].count(g) for g in a["gold_for"]}
    if instead:
        return msg(
            "Pay %(goods)s (gold for %(instead)s) for %(what)s",
            goods=pay,
            instead=bundle_text(instead),
            what=what,
        )
    return msg("Pay %(goods)s for %(what)s", goods=pay, what=what)


def _done_label(s: State) -> Words:
    if s.phase == "land":
        return msg("End your land phase")
    if s.phase == "plan":
        return msg("Send no more ships to %(action)s", action=term(TITLES[s.action]))
    if s.phase == "goals":
        return msg("Play no more goal cards")
    if s.action == "settle":
        return msg("Place no extra marker")
    return msg("Deliver nothing more")
