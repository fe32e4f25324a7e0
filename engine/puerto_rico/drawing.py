"""The Puerto Rico board drawn as SVG, from a seat's view only.

Pure: a view in, SVG text out (the server puts it inline in the game page;
no script).  Each player gets a panel with the island (12 spaces: plantations
and quarries, a filled circle where a colonist works) and the city (12
spaces; a large building spans two; one circle per colonist it holds), then
the table: roles with their doubloons, the cargo ships, the trading house,
the colonist ship and the supplies.  Every shape has a text label, so the
drawing reads without its colours too.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine.interface import name_seats
from engine.puerto_rico.data import CARDS, GOODS, TILES
from engine.puerto_rico.phases.roles import ROLE_TITLES
from engine.svg import circles, document, rect, text
from engine.words import N_, listing, msg, nmsg, term

WIDTH, PAD, CELL_W, CELL_H = 640, 10, 70, 44
ISLAND_W = 6 * (CELL_W * 0.6 + 3)  # six spaces a row
CITY_W = (WIDTH - 2 * PAD - 16 - ISLAND_W - 12 - 9) / 4  # four a row, in what is left
COLOURS: dict[str | None, str] = {
    "corn": "#f2d64b",
    "indigo": "#3b5bab",
    "sugar": "#f4f4f4",
    "tobacco": "#a0673a",
    "coffee": "#4a2f1e",
    "quarry": "#9a9a9a",
    "forest": "#3c7a3c",
}
INK: dict[str | None, str] = {
    "indigo": "#fff",
    "coffee": "#fff",
    "tobacco": "#fff",
    "forest": "#fff",
}
TILE_WORDS = {"forest": N_("forest")}
# The drawing's words go through ``say`` (the server's translation of
# engine/words.py's Words into the reader's language; English by default).
Say = Callable[[str], str]


def island(x: float, y: float, player: Mapping[str, Any], say: Say = str) -> str:
    """Twelve spaces, 6 x 2: the plantations and quarries, worked ones filled."""
    spaces = []
    for kind in TILES:
        worked = player["worked"].get(kind, 0)
        spaces += [(kind, i < worked) for i in range(player["tiles"].get(kind, 0))]
    spaces += [("forest", False)] * player.get("forests", 0)
    parts = [text(x, y - 4, say(msg("Island")), 11, weight="bold")]
    for i in range(12):
        cx, cy = x + (i % 6) * (CELL_W * 0.6 + 3), y + (i // 6) * (CELL_H * 0.7 + 3)
        w, h = CELL_W * 0.6, CELL_H * 0.7
        if i < len(spaces):
            kind, worked = spaces[i]
            ink = INK.get(kind, "#222")
            parts += [
                rect(cx, cy, w, h, COLOURS[kind]),
                text(cx + w / 2, cy + 12, say(term(TILE_WORDS.get(kind, kind))), 9, "middle", ink),
            ]
            if kind != "forest":
                parts.append(circles(cx + w / 2, cy + h - 7, 1, int(worked), ink))
        else:
            parts.append(rect(cx, cy, w, h, "#e8efe0", "#bbb"))
    return "".join(parts)


def city_cells(buildings: Mapping[str, int]) -> list[tuple[str, int, int]]:
    """(building, column, row) on the 4 x 3 city, a large one over two rows."""
    taken: set[tuple[int, int]] = set()
    placed: list[tuple[str, int, int]] = []
    for name in buildings:
        rows = 2 if CARDS[name].large else 1
        for pos in range(12):
            col, row = pos % 4, pos // 4
            cells = {(col, row + k) for k in range(rows)}
            if row + rows <= 3 and not cells & taken:
                taken |= cells
                placed.append((name, col, row))
                break
    return placed


def city(x: float, y: float, player: Mapping[str, Any], say: Say = str) -> str:
    """Twelve spaces, 4 x 3 as on the player board; large buildings span two."""
    parts = [text(x, y - 4, say(msg("City")), 11, weight="bold")]
    w, h = CITY_W, CELL_H * 0.8
    for col in range(4):
        for row in range(3):
            parts.append(rect(x + col * (w + 3), y + row * (h + 3), w, h, "#f3eee6", "#ccc"))
    for name, col, row in city_cells(player["buildings"]):
        card = CARDS[name]
        good = GOODS[card.produces] if card.produces is not None else None
        fill, ink = COLOURS.get(good, "#d9c7e8"), INK.get(good, "#222")
        bx, by = x + col * (w + 3), y + row * (h + 3)
        height = h * 2 + 3 if card.large else h
        parts += [
            rect(bx, by, w, height, fill),
            text(bx + 4, by + 12, say(term(card.title)), 9, fill=ink),
            circles(bx + 8, by + height - 8, card.circles, player["buildings"][name], ink),
        ]
    return "".join(parts)


def player_panel(
    y: float, i: int, p: Mapping[str, Any], name: str, viewer, say: Say = str
) -> tuple[str, float]:
    who = msg("%(name)s (you)", name=name) if viewer == i else name
    vp = p["vp"] if p.get("vp") is not None else msg("hidden")
    goods = listing(
        [msg("%(n)s %(good)s", n=n, good=term(k)) for k, n in p["goods"].items() if n]
    ) or msg("no goods")
    head = msg(
        "%(who)s: %(doubloons)s, VP chips %(vp)s, %(goods)s, %(colonists)s in San Juan",
        who=who,
        vp=vp,
        goods=goods,
        doubloons=nmsg("%(n)s doubloon", "%(n)s doubloons", p["doubloons"]),
        colonists=nmsg("%(n)s colonist", "%(n)s colonists", p["san_juan"]),
    )
    height = 3 * (CELL_H * 0.8 + 3) + 48
    parts = [
        rect(PAD, y, WIDTH - 2 * PAD, height, "#fbfaf6", "#999"),
        text(PAD + 8, y + 16, say(head), 11, weight="bold"),
        island(PAD + 8, y + 40, p, say),
        city(PAD + 8 + ISLAND_W + 12, y + 40, p, say),
    ]
    return "".join(parts), height + 8


def table(y: float, v: Mapping[str, Any], say: Say = str) -> tuple[str, float]:
    parts = [text(PAD, y + 12, say(msg("Roles (doubloons on them)")), 11, weight="bold")]
    roles = list(v["roles"].items()) + [(r, None) for r in v["taken"]]
    for i, (role, coins) in enumerate(roles):
        rx = PAD + i * 78
        taken = coins is None
        parts += [
            rect(rx, y + 18, 74, 34, "#ddd" if taken else "#fff3c4"),
            text(rx + 37, y + 32, say(term(ROLE_TITLES.get(role, role))), 10, "middle"),
            text(
                rx + 37,
                y + 46,
                say(msg("taken") if taken else msg("%(n)s d", n=coins)),
                9,
                "middle",
            ),
        ]
    y += 62
    parts.append(text(PAD, y + 12, say(msg("Cargo ships")), 11, weight="bold"))
    for i, ship in enumerate(v["ships"]):
        sx = PAD + i * 150
        kind = ship["kind"]
        parts += [
            rect(sx, y + 18, 140, 30, COLOURS.get(kind, "#e6f0f7")),
            text(
                sx + 6,
                y + 37,
                say(
                    msg(
                        "%(count)s/%(capacity)s %(cargo)s",
                        count=ship["count"],
                        capacity=ship["capacity"],
                        cargo=term(kind) if kind else msg("empty"),
                    )
                ),
                10,
                fill=INK.get(kind, "#222"),
            ),
        ]
    y += 56
    house = v["trading_house"] + [None] * (4 - len(v["trading_house"]))
    parts.append(text(PAD, y + 12, say(msg("Trading house")), 11, weight="bold"))
    for i, good in enumerate(house):
        hx = PAD + i * 64
        parts += [
            rect(hx, y + 18, 60, 24, COLOURS.get(good, "#fff")),
            text(
                hx + 30,
                y + 34,
                say(term(good) if good else msg("free")),
                9,
                "middle",
                INK.get(good, "#222"),
            ),
        ]
    supply = listing(
        [msg("%(n)s %(good)s", n=n, good=term(k)) for k, n in v["goods_supply"].items()]
    )
    face_up = listing([term(t) for t in v["face_up"]]) or msg("no plantations")
    parts += [
        text(
            PAD + 270,
            y + 30,
            say(
                msg(
                    "Colonist ship %(ship)s, supply %(supply)s",
                    ship=v["colonist_ship"],
                    supply=v["colonist_supply"],
                )
            ),
            10,
        ),
        text(PAD, y + 62, say(msg("Goods left: %(goods)s", goods=supply)), 10),
        text(
            PAD,
            y + 78,
            say(
                msg(
                    "VP chips left %(vp)s, quarries %(quarries)s, face-up plantations: %(face_up)s",
                    vp=v["vp_supply"],
                    quarries=v["quarries"],
                    face_up=face_up,
                )
            ),
            10,
        ),
    ]
    return "".join(parts), y + 90


def board_title(v: Mapping[str, Any]) -> str:
    """The drawing's title; seats are counted from 1 for people, and a
    spectator (no viewing seat) gets a title of its own."""
    viewer = v.get("viewer")
    if viewer is None:
        return msg(
            "Puerto Rico, round %(round)s: the board as a spectator sees it", round=v["round"]
        )
    return msg(
        "Puerto Rico, round %(round)s: the board as seat %(seat)s sees it",
        round=v["round"],
        seat=viewer + 1,
    )


def svg(v: Mapping[str, Any], names: Sequence[str] | None = None, say: Say = str) -> str:
    """The whole board from view ``v``: players first, the table below."""
    parts: list[str] = []
    y: float = PAD
    for i, p in enumerate(v["players"]):
        name = name_seats("{s%d}" % i, names)
        panel, height = player_panel(y, i, p, name, v.get("viewer"), say)
        parts.append(panel)
        y += height
    shared, y = table(y + 4, v, say)
    parts.append(shared)
    title = say(board_title(v))
    return document(WIDTH, y + PAD, title, parts)
