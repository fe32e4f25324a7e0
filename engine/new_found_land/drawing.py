"""Race to the New Found Land drawn as SVG, from a seat's view only.

Pure: a view in, SVG text out (the server puts it inline in the game page;
no script).  From the top: the score track (50 spaces, every player's
position and the frame tiles on it), the islands space by space with the
tile's two fields and the markers on them, the three cities, each player's
harbour (ships with their values, extensions, captains, goods, cards in
hand as a count for others), and the ships and contracts on offer.  Colours
are the players'; every shape also has words, so it reads without them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from html import escape
from typing import Any

from engine.interface import name_seats
from engine.new_found_land.common import SEMICOLON
from engine.new_found_land.data import CAPTAINS, CITIES, ISLANDS
from engine.new_found_land.view import EXTENSION_NAMES
from engine.svg import document, rect, text
from engine.words import Words, listing, msg, nmsg, term

Say = Callable[[str], str]  # the reader's language (engine/words.py); English by default

WIDTH, PAD = 640, 10
SEAT_COLOURS = ("#c0392b", "#2e6fba", "#2e9b4f", "#d69e00")
NEUTRAL_COLOUR = "#8a8a8a"  # the third colour's markers in a 2-player game
TRACK = 50  # the track's spaces; 50+ and 100+ have cards
SPACE_W, SPACE_H = 72, 40


def colour(seat: int | None) -> str:
    if seat is None or seat < 0:
        return NEUTRAL_COLOUR
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def marker(x: float, y: float, seat: int | None, label: str = "", kind: str = "seat") -> str:
    """One player's piece: a circle in their colour, with a number if given;
    ``kind`` (field, city, seat) names what it stands for."""
    ink = colour(seat)
    return (
        f'<circle class="marker {kind}" cx="{x:.0f}" cy="{y:.0f}" r="6" fill="{ink}" '
        f'stroke="#222"/>' + (text(x, y + 3.5, label, 8, "middle", "#fff") if label else "")
    )


def frame_shape(kind: str, cx: float, cy: float, r: float = 5) -> str:
    """A frame tile's symbol (square, pentagon, circle, triangle, star) as a
    shape, so the track needs no word for it."""
    style = 'fill="none" stroke="#8a6d00" stroke-width="1.3"'
    if kind == "circle":
        return f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r:.1f}" {style}/>'
    if kind == "square":
        return (
            f'<rect x="{cx - r:.1f}" y="{cy - r:.1f}" width="{2 * r:.1f}" '
            f'height="{2 * r:.1f}" {style}/>'
        )
    corners = {"triangle": 3, "pentagon": 5, "star": 10}.get(kind, 4)
    points = []
    for i in range(corners):
        reach = r * (0.45 if kind == "star" and i % 2 else 1)
        angle = -math.pi / 2 + 2 * math.pi * i / corners
        points.append(f"{cx + reach * math.cos(angle):.1f},{cy + reach * math.sin(angle):.1f}")
    return f'<polygon points="{" ".join(points)}" {style}/>'


def score_track(
    y: float, v: Mapping[str, Any], names: list[str], say: Say = str
) -> tuple[str, float]:
    """Two rows of 25 spaces; a player's piece sits on their score modulo 50."""
    cell = (WIDTH - 2 * PAD) / 25
    parts = [text(PAD, y + 12, say(msg("Score track")), 11, weight="bold")]
    frames = {f["space"]: name for name, f in v["frames"].items() if f["space"] is not None}
    for space in range(TRACK):
        x, row_y = PAD + (space % 25) * cell, y + 18 + (space // 25) * 34
        parts.append(
            rect(x, row_y, cell - 2, 30, "#fff6d5" if space in frames else "#f4f1ea", "#bbb")
        )
        parts.append(text(x + 2, row_y + 9, str(space), 7, fill="#777"))
        if space in frames:
            parts.append(
                f'<g class="frame"><title>{escape(say(term(frames[space])))}</title>'
                + frame_shape(frames[space], x + cell - 9, row_y + 23)
                + "</g>"
            )
    for seat, p in enumerate(v["players"]):
        space = p["score"] % TRACK
        x, row_y = PAD + (space % 25) * cell, y + 18 + (space // 25) * 34
        parts.append(
            f'<g class="score" data-seat="{seat}">'
            + marker(x + 6 + (seat % 2) * 10, row_y + 14 + (seat // 2) * 8, seat)
            + "</g>"
        )
    y += 18 + 2 * 34
    lines = listing(
        [
            nmsg("%(who)s: %(n)s point", "%(who)s: %(n)s points", p["score"], who=names[seat])
            for seat, p in enumerate(v["players"])
        ],
        SEMICOLON,
    )
    reached = [
        msg(
            "%(frame)s tile (%(where)s) reached by %(who)s",
            frame=term(name),
            where=msg("off the track") if f["space"] is None else f["space"],
            who=", ".join(names[s] for s in f["reached"]) or msg("nobody"),
        )
        for name, f in v["frames"].items()
    ]
    parts.append(text(PAD, y + 12, say(lines), 10))
    for i, line in enumerate(reached):
        parts.append(text(PAD, y + 26 + 13 * i, say(line), 9, fill="#555"))
    return "".join(parts), y + 26 + 13 * len(reached)


def island_space(x: float, y: float, space: str, placed: Mapping[str, Any] | None) -> str:
    """A space: sea blue while unexplored, else its tile with two fields."""
    if placed is None:
        return rect(x, y, SPACE_W, SPACE_H, "#d7e9f5", "#9bb") + text(x + 4, y + 12, space, 9)
    parts = [
        rect(x, y, SPACE_W, SPACE_H, "#e3efd2"),
        text(x + 4, y + 12, space, 9),
        text(x + SPACE_W - 4, y + 12, placed["tile"], 8, "end", "#555"),
    ]
    for f, (owner, markers) in enumerate(placed["fields"]):
        fx = x + 14 + f * 30
        if markers:
            parts.append(marker(fx, y + 28, owner, str(markers), "field"))
        else:
            parts.append(
                f'<circle cx="{fx:.0f}" cy="{y + 28:.0f}" r="6" fill="none" '
                f'stroke="#999" stroke-dasharray="2 2"/>'
            )
    return "".join(parts)


def islands(y: float, v: Mapping[str, Any], say: Say = str) -> tuple[str, float]:
    parts = [
        text(
            PAD,
            y + 12,
            say(msg("Islands (a circle: a field; the number: markers on it)")),
            11,
            weight="bold",
        )
    ]
    y += 18
    per_row = int((WIDTH - 2 * PAD) // (SPACE_W + 4))
    for name, island in ISLANDS.items():
        said = dict(name=name, first=island["first"], second=island["second"])
        title = (
            msg("%(name)s (%(first)s/%(second)s points) — scored", **said)
            if name in v["scored"]
            else msg("%(name)s (%(first)s/%(second)s points)", **said)
        )
        parts.append(text(PAD, y + 11, say(title), 10, weight="bold"))
        y += 15
        for i, sp in enumerate(island["spaces"]):
            x = PAD + (i % per_row) * (SPACE_W + 4)
            row_y = y + (i // per_row) * (SPACE_H + 4)
            parts.append(island_space(x, row_y, sp["id"], v["board"].get(sp["id"])))
        rows = -(-len(island["spaces"]) // per_row)
        y += rows * (SPACE_H + 4) + 4
    return "".join(parts), y


def cities(y: float, v: Mapping[str, Any], say: Say = str) -> tuple[str, float]:
    parts = [text(PAD, y + 12, say(msg("Cities")), 11, weight="bold")]
    y += 18
    for i, (name, city) in enumerate(CITIES.items()):
        x = PAD + i * 208
        seats = v["cities"].get(name, [])
        said = dict(name=name, first=city["first"], second=city["second"])
        title = (
            msg("%(name)s (%(first)s/%(second)s, scored)", **said)
            if name in v["scored"]
            else msg("%(name)s (%(first)s/%(second)s)", **said)
        )
        parts += [rect(x, y, 200, 40, "#efe6f5"), text(x + 6, y + 13, say(title), 10)]
        for f in range(city["fields"]):
            fx = x + 12 + f * 16
            parts.append(
                marker(fx, y + 28, seats[f], kind="city")
                if f < len(seats)
                else f'<circle cx="{fx:.0f}" cy="{y + 28:.0f}" r="6" fill="none" stroke="#999"/>'
            )
    return "".join(parts), y + 48


def ship_box(x: float, y: float, ship: Mapping[str, Any], ink: str, say: Say = str) -> str:
    values = msg(
        "sail %(sail)s crate %(crate)s person %(person)s spyglass %(glass)s",
        sail=ship["sail"],
        crate=ship["crate"],
        person=ship["person"],
        glass=ship["spyglass"],
    )
    title = msg("%(ship)s (%(kind)s)", ship=ship["id"], kind=term(ship["kind"]))
    return (
        rect(x, y, 150, 30, "#fff", ink)
        + text(x + 5, y + 12, say(title), 9, weight="bold")
        + text(x + 5, y + 25, say(values), 8)
    )


def harbour(
    y: float, seat: int, p: Mapping[str, Any], name: str, viewer, say: Say = str
) -> tuple[str, float]:
    ink = colour(seat)
    who = msg("%(name)s (you)", name=name) if viewer == seat else name
    goods = listing(
        [msg("%(n)s %(good)s", n=n, good=term(k)) for k, n in p["goods"].items() if n]
    ) or msg("no goods")
    captains = ", ".join(CAPTAINS.get(c, c) for c in p["captains"]) or msg("no captain")
    hand = (
        nmsg("%(n)s card in hand", "%(n)s cards in hand", len(p["hand"]))
        if p.get("hand") is not None
        else nmsg("%(n)s card in hand (hidden)", "%(n)s cards in hand (hidden)", p["hand_count"])
    )
    head = nmsg(
        "%(who)s, %(nation)s: %(n)s point, %(goods)s",
        "%(who)s, %(nation)s: %(n)s points, %(goods)s",
        p["score"],
        who=who,
        nation=term(p["nation"]),
        goods=goods,
    )
    extensions = listing([term(EXTENSION_NAMES.get(x, x)) for x in p["extensions"]])
    line = msg(
        "%(captains)s; extensions: %(extensions)s; %(markers)s left; %(hand)s",
        captains=captains,
        extensions=extensions or msg("no extensions"),
        hand=hand,
        markers=nmsg("%(n)s marker", "%(n)s markers", p["markers"]),
    )
    rows = -(-max(len(p["ships"]), 1) // 4)
    height = 58 + rows * 34
    parts = [
        rect(PAD, y, WIDTH - 2 * PAD, height, "#fbfaf6", ink),
        marker(PAD + 14, y + 14, seat),
        text(PAD + 26, y + 18, say(head), 11, weight="bold"),
        text(PAD + 8, y + 34, say(line), 9),
    ]
    for i, ship in enumerate(p["ships"]):
        parts.append(ship_box(PAD + 6 + (i % 4) * 154, y + 44 + (i // 4) * 34, ship, ink, say))
    return "".join(parts), y + height + 6


def offers(y: float, v: Mapping[str, Any], say: Say = str) -> tuple[str, float]:
    parts = [text(PAD, y + 12, say(msg("Small ships for sale")), 11, weight="bold")]
    for i, ship in enumerate(v["small_offer"]):
        if ship is not None:  # None: a slot sold out
            parts.append(ship_box(PAD + (i % 4) * 154, y + 18 + (i // 4) * 34, ship, "#555", say))
    y += 18 + 34 * -(-max(len(v["small_offer"]), 1) // 4)
    costs = listing(
        [_goods(offer["cost"]) for offer in v["large_offer"] if offer], SEMICOLON
    )  # None: an empty slot
    parts.append(
        text(
            PAD,
            y + 12,
            say(msg("Large ships for sale (cost): %(costs)s", costs=costs or msg("none"))),
            10,
        )
    )
    y += 20
    parts.append(text(PAD, y + 12, say(msg("Contracts")), 11, weight="bold"))
    contracts = [c for c in v["contracts"] if c is not None]  # None: a field delivered to
    for i, c in enumerate(contracts):
        line = msg(
            "%(city)s: %(goods)s = %(points)s points",
            city=c["city"],
            goods=_goods(c["goods"]),
            points=c["points"],
        )
        parts.append(text(PAD + (i % 3) * 208, y + 28 + (i // 3) * 14, say(line), 9))
    return "".join(parts), y + 28 + 14 * -(-max(len(contracts), 1) // 3)


def _goods(goods: Mapping[str, int]) -> Words:
    return listing([msg("%(n)s %(good)s", n=n, good=term(k)) for k, n in goods.items()], " + ")


def board_title(v: Mapping[str, Any]) -> str:
    """The drawing's title; seats are counted from 1 for people, and a
    spectator (no viewing seat) gets a title of its own."""
    viewer = v.get("viewer")
    if viewer is None:
        return msg(
            "Race to the New Found Land, round %(round)s: the board as a spectator sees it",
            round=v["round"],
        )
    return msg(
        "Race to the New Found Land, round %(round)s: the board as seat %(seat)s sees it",
        round=v["round"],
        seat=viewer + 1,
    )


def svg(v: Mapping[str, Any], names: Sequence[str] | None = None, say: Say = str) -> str:
    """The whole board from view ``v``."""
    seats = [name_seats("{s%d}" % i, names) for i in range(len(v["players"]))]
    parts: list[str] = []
    y: float = PAD
    for draw in (
        lambda y: score_track(y, v, seats, say),
        lambda y: islands(y, v, say),
        lambda y: cities(y, v, say),
    ):
        part, y = draw(y)
        parts.append(part)
        y += 6
    parts.append(text(PAD, y + 12, say(msg("Harbours")), 11, weight="bold"))
    y += 18
    for seat, p in enumerate(v["players"]):
        part, y = harbour(y, seat, p, seats[seat], v.get("viewer"), say)
        parts.append(part)
    part, y = offers(y, v, say)
    parts.append(part)
    title = say(board_title(v))
    return document(WIDTH, y + PAD, title, parts)
