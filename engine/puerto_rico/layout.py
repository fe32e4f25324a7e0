"""The Puerto Rico board as layout data (engine/layout.py), from a seat's
view only: a panel per player (the island's 12 spaces, the city's 12, a
large building over two, a circle per colonist), then the table (roles
with their doubloons, the cargo ships, the trading house, the supplies).
The viewer's own panel comes first."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine.interface import name_seats
from engine.layout import group, mark, panel, tile
from engine.puerto_rico.data import CARDS, GOODS, TILES
from engine.puerto_rico.phases.roles import ROLE_TITLES
from engine.words import N_, listing, msg, nmsg, term

Say = Callable[[str], str]
FOREST = N_("forest")  # a forest tile (the expansion's Forest house)


def _goods(goods: Mapping[str, int]) -> Any:
    return listing([msg("%(n)s %(good)s", n=n, good=term(k)) for k, n in goods.items() if n])


def island(p: Mapping[str, Any], say: Say) -> dict:
    tiles = []
    for kind in TILES:
        worked = p["worked"].get(kind, 0)
        for i in range(p["tiles"].get(kind, 0)):
            tiles.append(
                tile(
                    say(term(kind)),
                    kind=kind,
                    marks=[mark(i < worked)],
                    marks_text=say(msg("worked") if i < worked else msg("idle")),
                )
            )
    tiles += [tile(say(term(FOREST)), kind="forest")] * p.get("forests", 0)
    tiles += [tile("", kind="empty")] * (12 - len(tiles))
    return group(say(msg("Island")), tiles, "island")


def city(p: Mapping[str, Any], say: Say) -> dict:
    tiles = []
    for name, colonists in p["buildings"].items():
        card = CARDS[name]
        good = GOODS[card.produces] if card.produces is not None else "violet"
        tiles.append(
            tile(
                say(term(card.title)),
                kind=good,
                span=2 if card.large else 1,
                marks=[mark(i < colonists) for i in range(card.circles)],
                marks_text=say(
                    msg("%(manned)s/%(circles)s colonists", manned=colonists, circles=card.circles)
                ),
            )
        )
    tiles += [tile("", kind="empty")] * (12 - p["city_spaces"])
    return group(say(msg("City")), tiles, "city")


def player(i: int, p: Mapping[str, Any], name: str, viewer: int | None, say: Say) -> dict:
    vp = p["vp"] if p.get("vp") is not None else msg("hidden")
    lines = [
        nmsg("%(n)s doubloon", "%(n)s doubloons", p["doubloons"]),
        msg("VP chips %(vp)s", vp=vp),
        _goods(p["goods"]) or msg("no goods"),
        msg(
            "%(colonists)s in San Juan",
            colonists=nmsg("%(n)s colonist", "%(n)s colonists", p["san_juan"]),
        ),
    ]
    title = msg("%(name)s (you)", name=name) if viewer == i else name
    return panel(
        say(title),
        [island(p, say), city(p, say)],
        [say(line) for line in lines],
        seat=i,
        mine=viewer == i,
    )


def table(v: Mapping[str, Any], say: Say) -> dict:
    roles = [
        tile(say(term(ROLE_TITLES.get(r, r))), say(msg("%(n)s d", n=c)), "role")
        for r, c in v["roles"].items()
    ]
    roles += [
        tile(say(term(ROLE_TITLES.get(r, r))), say(msg("taken")), "taken") for r in v["taken"]
    ]
    ships = [
        tile(
            say(msg("%(count)s/%(capacity)s", count=s["count"], capacity=s["capacity"])),
            say(term(s["kind"]) if s["kind"] else msg("empty")),
            s["kind"] or "ship",
        )
        for s in v["ships"]
    ]
    house = v["trading_house"] + [None] * (4 - len(v["trading_house"]))
    trading = [tile(say(term(g) if g else msg("free")), kind=g or "empty") for g in house]
    face_up = [tile(say(term(t)), kind=t) for t in v["face_up"]]
    lines = [
        msg(
            "Colonist ship %(ship)s, supply %(supply)s",
            ship=v["colonist_ship"],
            supply=v["colonist_supply"],
        ),
        msg("Goods left: %(goods)s", goods=_goods(v["goods_supply"]) or msg("no goods")),
        msg(
            "VP chips left %(vp)s, quarries %(quarries)s", vp=v["vp_supply"], quarries=v["quarries"]
        ),
    ]
    groups = [
        group(say(msg("Roles (doubloons on them)")), roles),
        group(say(msg("Cargo ships")), ships),
        group(say(msg("Trading house")), trading),
        group(say(msg("Face-up plantations")), face_up, "island"),
    ]
    return panel(say(msg("Table")), groups, [say(line) for line in lines])


def layout(v: Mapping[str, Any], names: Sequence[str] | None = None, say: Say = str) -> list[dict]:
    """The viewer's panel, the table, then the other players in seat order."""
    viewer = v.get("viewer")
    players = [
        player(i, p, name_seats("{s%d}" % i, names), viewer, say)
        for i, p in enumerate(v["players"])
    ]
    mine = [p for p in players if p["mine"]]
    return mine + [table(v, say)] + [p for p in players if not p["mine"]]
