"""Race to the New Found Land as layout data (engine/layout.py), from a
seat's view only: the viewer's harbour first, then the score track (each
player's points, the frame tiles), the islands space by space with the
markers on their fields, the cities, the other harbours, and the ships
and contracts on offer.  A marker carries its seat's number as well as its
colour."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine.interface import name_seats
from engine.layout import group, mark, panel, tile
from engine.new_found_land.data import CAPTAINS, CITIES, ISLANDS
from engine.new_found_land.view import EXTENSION_NAMES
from engine.words import Words, listing, msg, nmsg, term

Say = Callable[[str], str]
# A frame tile's symbol as a character, so the track needs no drawing.
FRAME_SIGNS = {"square": "□", "pentagon": "⬠", "circle": "○", "triangle": "△", "star": "☆"}


def _goods(goods: Mapping[str, int], separator: str = ", ") -> Words:
    return listing(
        [msg("%(n)s %(good)s", n=n, good=term(k)) for k, n in goods.items() if n], separator
    )


def _seat_marks(seats: Sequence[int]) -> list[dict]:
    return [mark(True, s, str(s + 1)) for s in seats]


def score_track(v: Mapping[str, Any], names: list[str], say: Say) -> dict:
    players = [
        tile(
            names[s],
            say(nmsg("%(n)s point", "%(n)s points", p["score"])),
            f"seat-{s}",
            marks=_seat_marks([s]),
        )
        for s, p in enumerate(v["players"])
    ]
    frames = [
        tile(
            f"{FRAME_SIGNS.get(name, '')} {say(term(name))}",
            say(
                msg(
                    "%(where)s, reached by %(who)s",
                    where=msg("off the track")
                    if f["space"] is None
                    else msg("space %(n)s", n=f["space"]),
                    who=", ".join(names[s] for s in f["reached"]) or msg("nobody"),
                )
            ),
            "frame",
            marks=_seat_marks(f["reached"]),
        )
        for name, f in v["frames"].items()
    ]
    return panel(
        say(msg("Score track")),
        [group(say(msg("Points")), players), group(say(msg("Frame tiles")), frames)],
    )


def island_space(space: str, placed: Mapping[str, Any] | None, say: Say) -> dict:
    if placed is None:
        return tile(space, say(msg("unexplored")), "sea")
    marks = [mark(bool(n), owner, str(n) if n else "") for owner, n in placed["fields"]]
    taken = [
        msg(
            "seat %(seat)s: %(n)s", seat=owner + 1 if owner is not None and owner >= 0 else "–", n=n
        )
        for owner, n in placed["fields"]
        if n
    ]
    return tile(
        space,
        placed["tile"],
        "land",
        marks=marks,
        marks_text=say(listing(taken) or msg("free fields")),
    )


def islands(v: Mapping[str, Any], say: Say) -> dict:
    groups = []
    for name, island in ISLANDS.items():
        said = dict(name=name, first=island["first"], second=island["second"])
        title = (
            msg("%(name)s (%(first)s/%(second)s points) — scored", **said)
            if name in v["scored"]
            else msg("%(name)s (%(first)s/%(second)s points)", **said)
        )
        groups.append(
            group(
                say(title),
                [island_space(sp["id"], v["board"].get(sp["id"]), say) for sp in island["spaces"]],
                "island",
            )
        )
    cities = []
    for name, city in CITIES.items():
        seats = v["cities"].get(name, [])
        said = dict(name=name, first=city["first"], second=city["second"])
        cities.append(
            tile(
                name,
                say(
                    msg("%(first)s/%(second)s, scored", **said)
                    if name in v["scored"]
                    else msg("%(first)s/%(second)s", **said)
                ),
                "city",
                marks=[
                    mark(
                        f < len(seats),
                        seats[f] if f < len(seats) else None,
                        str(seats[f] + 1) if f < len(seats) else "",
                    )
                    for f in range(city["fields"])
                ],
            )
        )
    groups.append(group(say(msg("Cities")), cities))
    return panel(
        say(msg("Islands (a circle: a field; the number: markers on it)")), groups, wide=True
    )


def ship_tile(ship: Mapping[str, Any], say: Say) -> dict:
    return tile(
        say(msg("%(ship)s (%(kind)s)", ship=ship["id"], kind=term(ship["kind"]))),
        say(
            msg(
                "sail %(sail)s crate %(crate)s person %(person)s spyglass %(glass)s",
                sail=ship["sail"],
                crate=ship["crate"],
                person=ship["person"],
                glass=ship["spyglass"],
            )
        ),
        "ship",
    )


def harbour(seat: int, p: Mapping[str, Any], name: str, viewer: int | None, say: Say) -> dict:
    hand = (
        nmsg("%(n)s card in hand", "%(n)s cards in hand", len(p["hand"]))
        if p.get("hand") is not None
        else nmsg("%(n)s card in hand (hidden)", "%(n)s cards in hand (hidden)", p["hand_count"])
    )
    extensions = listing([term(EXTENSION_NAMES.get(x, x)) for x in p["extensions"]])
    lines = [
        msg(
            "%(nation)s: %(points)s",
            nation=term(p["nation"]),
            points=nmsg("%(n)s point", "%(n)s points", p["score"]),
        ),
        _goods(p["goods"]) or msg("no goods"),
        ", ".join(CAPTAINS.get(c, c) for c in p["captains"]) or msg("no captain"),
        msg("extensions: %(extensions)s", extensions=extensions or msg("no extensions")),
        nmsg("%(n)s marker left", "%(n)s markers left", p["markers"]),
        hand,
    ]
    who = msg("%(name)s (you)", name=name) if viewer == seat else name
    return panel(
        say(who),
        [group(say(msg("Ships")), [ship_tile(s, say) for s in p["ships"]])],
        [say(line) for line in lines],
        seat=seat,
        mine=viewer == seat,
    )


def offers(v: Mapping[str, Any], say: Say) -> dict:
    small = [ship_tile(s, say) for s in v["small_offer"] if s is not None]  # None: sold out
    large = [tile(say(_goods(o["cost"], " + ")), kind="ship") for o in v["large_offer"] if o]
    contracts = [
        tile(
            c["city"],
            say(
                msg(
                    "%(goods)s = %(points)s points",
                    goods=_goods(c["goods"], " + "),
                    points=c["points"],
                )
            ),
            "contract",
        )
        for c in v["contracts"]
        if c is not None
    ]  # None: a field delivered to
    return panel(
        say(msg("On offer")),
        [
            group(say(msg("Small ships for sale")), small),
            group(say(msg("Large ships for sale (cost)")), large),
            group(say(msg("Contracts")), contracts),
        ],
    )


def layout(v: Mapping[str, Any], names: Sequence[str] | None = None, say: Say = str) -> list[dict]:
    """The viewer's harbour first, then the track, the islands and cities,
    the other harbours and the offers."""
    seats = [name_seats("{s%d}" % i, names) for i in range(len(v["players"]))]
    viewer = v.get("viewer")
    harbours = [harbour(s, p, seats[s], viewer, say) for s, p in enumerate(v["players"])]
    return (
        [h for h in harbours if h["mine"]]
        + [score_track(v, seats, say), islands(v, say)]
        + [h for h in harbours if not h["mine"]]
        + [offers(v, say)]
    )
