"""The components, checked on import and laid out for the rules.

``components.py`` is the one data file; this module validates it (raising
``ComponentError`` that names the entry) and builds the lookup tables the
phases use.  Nothing here is a value of its own.
"""

from __future__ import annotations

import copy
from typing import Any, NamedTuple

from engine.new_found_land import components


class ComponentError(ValueError):
    """The data file is inconsistent; the message names the bad entry."""


class Ship(NamedTuple):
    id: str
    kind: str  # "small", "large" or "charter"
    sail: int
    crate: int
    person: int
    spyglass: int
    cost: dict
    start: str | None  # nation flag of a start ship


ACTIONS = ("load", "settle", "deliver", "explore")
DA_GAMA_CRATES = 3
MAGELLAN_SAIL = 7
NAVAL_BASE_SAIL = 2


def raw() -> dict[str, Any]:
    """A deep copy of the data file's values (tests corrupt it to probe ``validate``)."""
    return copy.deepcopy(
        {
            k: getattr(components, k)
            for k in dir(components)
            if k.isupper() and not k.startswith("_") and k not in ("R", "X")
        }
    )


def _fail(where: str, why: str) -> None:
    raise ComponentError(f"components.py, {where}: {why}")


def _check(cond: object, where: str, why: str) -> None:
    if not cond:
        _fail(where, why)


def _check_src(entry: dict, where: str) -> None:
    src = entry.get("src", "")
    _check(
        isinstance(src, str) and (src.startswith("rulebook") or src.startswith("reconstructed")),
        where,
        "needs a src starting with 'rulebook' or 'reconstructed'",
    )


def _check_goods(d: dict, goods: list, where: str, points: bool = False) -> None:
    _check(isinstance(d, dict) and d, where, "needs a non-empty dict of goods")
    for k, v in d.items():
        _check(k in goods or (points and k == "points"), where, f"unknown good {k!r}")
        _check(isinstance(v, int) and 1 <= v <= 6, where, f"{k} must be 1..6")


def _check_count(items: list, want: int, where: str) -> None:
    _check(len(items) == want, where, f"{len(items)} entries, the game has {want}")
    ids = [i.get("id", i.get("name")) for i in items]
    _check(len(set(ids)) == len(ids), where, "ids must be unique")


def validate(c: dict[str, Any]) -> None:
    """Check counts, ranges and shapes; raise ``ComponentError`` on the first fault."""
    goods, n = c["GOODS"]["order"], c["COUNTS"]
    _check(goods == ["wood", "cloth", "iron", "gold"], "GOODS", "the four goods, cheapest first")
    for name, v in c.items():
        if isinstance(v, dict) and name != "SHAPES":
            _check_src(v, name)
        if isinstance(v, list):
            for i, e in enumerate(v):
                _check_src(e, f"{name}[{i}]")
    _validate_nations(c, goods, n)
    _validate_ships(c, goods, n)
    _validate_cards(c, goods, n)
    _validate_board(c, goods, n)
    _validate_track(c, goods, n)


def _validate_nations(c, goods, n) -> None:
    nations = c["NATIONS"]
    _check_count(nations, n["nations"], "NATIONS")
    _check(sorted(x["number"] for x in nations) == list(range(1, 6)), "NATIONS", "numbers 1..5")
    top = (
        max(
            s["crate"]
            for s in c["SMALL_SHIPS"]
            + c["LARGE_SHIPS"]
            + [k for k in c["ONE_TIME_CARDS"] if k["kind"] == "charter"]
        )
        + DA_GAMA_CRATES
    )
    for x in nations:
        where = f"NATIONS {x['name']}"
        table = x["load"]
        _check(len(table) >= top, where, f"load table must cover crate values 1..{top}")
        ranks = [goods.index(g) if g in goods else -1 for g in table]
        _check(-1 not in ranks, where, "load table names an unknown good")
        _check(ranks == sorted(ranks), where, "load table must not fall in value")
        _check(
            set(x["max"]) == {"settle", "deliver", "explore"},
            where,
            "max for settle/deliver/explore",
        )
        _check(all(1 <= v <= 4 for v in x["max"].values()), where, "max ships 1..4")
        _check_goods(x["extension"]["cost"], goods[:3], where + " extension cost")


def _validate_ships(c, goods, n) -> None:
    small, large = c["SMALL_SHIPS"], c["LARGE_SHIPS"]
    _check_count(small, n["small_ships"], "SMALL_SHIPS")
    _check_count(large, n["large_ships"], "LARGE_SHIPS")
    flags = [s["start"] for s in small if s["start"]]
    _check(
        sorted(flags) == sorted(x["name"] for x in c["NATIONS"]) and len(flags) == n["start_ships"],
        "SMALL_SHIPS",
        "one start ship per nation",
    )
    for s in small + large:
        where = f"ship {s['id']}"
        _check(1 <= s["sail"] <= 9, where, "sail 1..9")
        _check_symbols(s, where)
    for s in large:
        _check_goods(s["cost"], goods[:3], f"ship {s['id']} cost")


def _check_symbols(s: dict, where: str) -> None:
    """Every ship shows all three action symbols (components.py)."""
    _check(1 <= s["crate"] <= 4 and 1 <= s["spyglass"] <= 4, where, "crate/spyglass 1..4")
    _check(s["person"] in (1, 2), where, "person 1 or 2")


def _validate_cards(c, goods, n) -> None:
    cards = c["ONE_TIME_CARDS"]
    _check_count(cards, n["one_time_cards"], "ONE_TIME_CARDS")
    kinds = [k["kind"] for k in cards]
    for kind, key in (
        ("start", "start_cards"),
        ("charter", "charter_cards"),
        ("goods", "goods_cards"),
    ):
        _check(kinds.count(kind) == n[key], "ONE_TIME_CARDS", f"{n[key]} {kind} cards")
    for k in cards:
        if k["kind"] == "charter":
            _check(1 <= k["sail"] <= 9, k["id"], "sail 1..9")
            _check_symbols(k, k["id"])
        else:
            _check_goods(k["gain"], goods, k["id"], points=True)
    _check(
        sorted(k["nation"] for k in cards if k["kind"] == "start")
        == sorted(x["name"] for x in c["NATIONS"]),
        "ONE_TIME_CARDS",
        "one start card per nation",
    )
    goals, piles = c["GOAL_CARDS"], c["GOAL_PILES"]
    _check_count(goals, n["goal_cards"], "GOAL_CARDS")
    _check(
        len(piles["names"]) * piles["size"] == len(goals),
        "GOAL_PILES",
        "piles must hold every card",
    )
    kinds_ok = {
        "goods",
        "symbol",
        "city_markers",
        "full_cities",
        "ships",
        "one_island",
        "full_islands",
        "island_markers",
    }
    for g in goals:
        _check(g["kind"] in kinds_ok, g["id"], f"unknown goal kind {g['kind']!r}")
        lo, hi = g["lower"], g.get("upper")
        _check(lo[0] >= 1 and lo[1] >= 1, g["id"], "lower goal needs threshold and points")
        if hi:
            _check(hi[0] > lo[0] and hi[1] > lo[1], g["id"], "upper goal must ask and pay more")
        if g["kind"] == "goods":
            _check(g["param"] in goods and not hi, g["id"], "goods goals: one good, one goal")
    _check_count(c["CAPTAINS"], n["captains"], "CAPTAINS")


def _validate_board(c, goods, n) -> None:
    shapes = {k: v for k, v in c["SHAPES"].items() if k != "src"}
    islands = c["ISLANDS"]
    _check_count(islands, n["islands"], "ISLANDS")
    space_shapes = set()
    for isl in islands:
        _check(isl["first"] > isl["second"] > 0, isl["name"], "first bonus above second")
        _check_count(isl["spaces"], len(isl["spaces"]), isl["name"] + " spaces")
        for sp in isl["spaces"]:
            _check(
                sp["shape"] in shapes and sp["orientation"] in shapes[sp["shape"]],
                sp["id"],
                "shape/orientation not in SHAPES",
            )
            space_shapes.add(sp["shape"])
    tiles = c["ISLAND_TILES"]
    _check_count(tiles, n["island_tiles"], "ISLAND_TILES")
    for t in tiles:
        _check(t["shape"] in space_shapes, t["id"], f"no board space is a {t['shape']}")
        _check(len(t["bonuses"]) == 2, t["id"], "two bonuses")
        for b in t["bonuses"]:
            _check_goods(b, goods, t["id"], points=True)
    for shape in space_shapes:
        want = sum(sp["shape"] == shape for isl in islands for sp in isl["spaces"])
        have = sum(t["shape"] == shape for t in tiles)
        _check(have >= want, "ISLAND_TILES", f"fewer {shape} tiles than {shape} spaces")
    names = {i["name"] for i in islands}
    _check_count(c["COMPASS_TILES"], n["compass_tiles"], "COMPASS_TILES")
    for p in c["COMPASS_TILES"]:
        _check(p["island"] in names, p["id"], "names no island")
    _check(all(str(k) in c["CARTOGRAPHY_TILES"] for k in (2, 3, 4)), "CARTOGRAPHY_TILES", "2, 3, 4")
    cities = c["CITIES"]
    _check_count(cities, n["cities"], "CITIES")
    _check(
        sum(x["contract_fields"] for x in cities) == c["OFFER"]["contracts"],
        "CITIES",
        "contract fields must add up to the contract offer",
    )
    for x in cities:
        _check(x["first"] > x["second"] > 0 and x["fields"] >= 2, x["name"], "fields and bonus")
    _validate_contracts(c, goods, n)


def _validate_contracts(c, goods, n) -> None:
    contracts = c["CONTRACTS"]
    _check_count(contracts, n["contracts"], "CONTRACTS")
    for k in contracts:
        _check_goods(k["goods"], goods[:3], k["id"])
        count = sum(k["goods"].values())
        _check(count <= 7, k["id"], "no ship group carries more than 7 goods")
        _check(k["points"] > count, k["id"], "a contract must pay more than Antwerp")
    for a in contracts:
        for b in contracts:
            if (
                a is not b
                and all(b["goods"].get(g, 0) >= v for g, v in a["goods"].items())
                and sum(b["goods"].values()) > sum(a["goods"].values())
            ):
                _check(
                    b["points"] > a["points"], b["id"], f"asks more than {a['id']} but pays no more"
                )


def _validate_track(c, goods, n) -> None:
    frames = c["FRAME_TILES"]
    _check_count(frames, n["frame_tiles"], "FRAME_TILES")
    for key in ("space", "advanced_space"):
        spaces = [f[key] for f in frames]
        _check(spaces == sorted(set(spaces)) and spaces[0] > 3, "FRAME_TILES", f"{key} rising")
    gives = [f["gives"] for f in frames]
    _check(
        sorted(g for g in gives if g not in ("captain", "good"))
        == sorted(c["GOAL_PILES"]["names"]),
        "FRAME_TILES",
        "each goal pile has one frame tile",
    )
    _check(
        gives[1] == "captain" and gives[3] == "good",
        "FRAME_TILES",
        "the second gives a captain, the fourth a good",
    )
    _check(len(c["FIFTY_CARDS"]) == n["fifty_cards"], "FIFTY_CARDS", "count")
    _check(all(g in goods for g in c["GOODS_FIELD"]["goods"]), "GOODS_FIELD", "goods")


validate(raw())

# -- lookup tables for the rules -------------------------------------------------
GOODS: tuple[str, ...] = tuple(components.GOODS["order"])
RANK = {g: i for i, g in enumerate(GOODS)}
SUPPLY = dict(components.GOODS["supply"])
MARKERS = components.MARKERS_PER_PLAYER["value"]
ROUNDS = components.ROUNDS["value"]
NATIONS = {x["name"]: x for x in components.NATIONS}
NATION_ORDER = tuple(sorted(NATIONS, key=lambda k: NATIONS[k]["number"]))

SHIPS: dict[str, Ship] = {}
for _s in components.SMALL_SHIPS:
    SHIPS[_s["id"]] = Ship(
        _s["id"],
        "small",
        _s["sail"],
        _s["crate"],
        _s["person"],
        _s["spyglass"],
        dict(components.SMALL_SHIP_COST["cost"]),
        _s["start"],
    )
for _s in components.LARGE_SHIPS:
    SHIPS[_s["id"]] = Ship(
        _s["id"],
        "large",
        _s["sail"],
        _s["crate"],
        _s["person"],
        _s["spyglass"],
        dict(_s["cost"]),
        None,
    )
CARDS = {k["id"]: k for k in components.ONE_TIME_CARDS}
for _k in components.ONE_TIME_CARDS:
    if _k["kind"] == "charter":
        SHIPS[_k["id"]] = Ship(
            _k["id"], "charter", _k["sail"], _k["crate"], _k["person"], _k["spyglass"], {}, None
        )
GOALS = {g["id"]: g for g in components.GOAL_CARDS}
CAPTAINS = {c["id"]: c["title"] for c in components.CAPTAINS}
FRAMES = {f["id"]: f for f in components.FRAME_TILES}
ISLANDS = {i["name"]: i for i in components.ISLANDS}
SPACES = {
    sp["id"]: (isl["name"], sp["shape"], sp["orientation"])
    for isl in components.ISLANDS
    for sp in isl["spaces"]
}
TILES = {t["id"]: t for t in components.ISLAND_TILES}
COMPASS = {p["id"]: p["island"] for p in components.COMPASS_TILES}
CITIES = {x["name"]: x for x in components.CITIES}
CONTRACT_FIELDS: tuple[str, ...] = tuple(
    x["name"] for x in components.CITIES for _ in range(x["contract_fields"])
)
CONTRACTS = {k["id"]: k for k in components.CONTRACTS}


def ship(ship_id: str) -> Ship:
    return SHIPS[ship_id]


def load_good(nation: str, crate: int) -> str:
    """The best good a ship with this crate value loads for ``nation``."""
    table = NATIONS[nation]["load"]
    return table[min(crate, len(table)) - 1]


def fits(tile_id: str, space_id: str) -> bool:
    """A tile fits a space of its shape, turned as needed."""
    return TILES[tile_id]["shape"] == SPACES[space_id][1]
