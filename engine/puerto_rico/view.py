"""What one seat may see, and the board laid out as text rows.

Hidden: other players' victory-point chips (they may be kept face down) and
the order of the face-down plantation stack (only its size is shown).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable, Mapping, Sequence
from functools import lru_cache, partial
from typing import Any

from engine.interface import Section, name_seats
from engine.puerto_rico import building_sets, catalogue
from engine.puerto_rico.data import CARDS, GOODS, TILES, VIOLET_SLOTS
from engine.puerto_rico.phases.roles import ROLE_TITLES
from engine.puerto_rico.state import State
from engine.words import N_, Words, listing, msg, nmsg, term

SET_TITLES = {
    "base": N_("base game"),
    "extended": N_("extended (chosen by the players)"),
    "random": N_("random (drawn by the server)"),
}


def view(s: State, seat: int | None) -> dict[str, Any]:
    players = []
    for i, p in enumerate(s.players):
        players.append(
            {
                "doubloons": p.doubloons,
                "vp": p.vp if (i == seat or s.over) else None,
                "goods": dict(zip(GOODS, p.goods)),
                "tiles": dict(zip(TILES, p.tiles)),
                "worked": dict(zip(TILES, p.worked)),
                "buildings": dict(p.buildings),
                "san_juan": p.san_juan,
                "city_spaces": p.city_spaces(),
                "forests": len(p.forests),
            }
        )
    return {
        "game": "puerto_rico",
        "viewer": seat,
        "round": s.round,
        "governor": s.governor,
        "phase": s.phase,
        "turn": s.turn,
        "role_player": s.role_player,
        "roles": dict(s.roles),
        "taken": dict(s.taken),
        "colonist_supply": s.colonist_supply,
        "colonist_ship": s.colonist_ship,
        "vp_supply": s.vp_supply,
        "bank": s.bank,
        "quarries": s.quarries,
        "goods_supply": dict(zip(GOODS, s.goods_supply)),
        "stack_size": len(s.stack),
        "face_up": [TILES[k] for k in s.face_up],
        "discard": [TILES[k] for k in s.discard],
        "ships": [
            {"capacity": c, "kind": GOODS[k] if k >= 0 else None, "count": n} for c, k, n in s.ships
        ],
        "trading_house": [GOODS[k] for k in s.house],
        "buildings_left": dict(s.buildings_left),
        "mayor_pool": s.mayor_pool if s.phase == "mayor" else 0,
        "end_triggered": s.end_triggered,
        "over": s.over,
        "building_set": s.x["set"] if s.x is not None else "base",
        "players": players,
    }


def _counts(d: Mapping[str, int]) -> Words:
    return listing([msg("%(n)s %(good)s", n=n, good=term(k)) for k, n in d.items() if n]) or msg(
        "no goods"
    )


def _names(items: list, empty: str = N_("none")) -> Words:
    return listing(items) or term(empty)


def board(v: Mapping[str, Any], names: Sequence[str] | None = None) -> list[Section]:
    # Each section is made once per content: a page and the turn mail show
    # one position to two seats, and most of a board stays as it was from
    # one move to the next.  (Sections and Words are never changed after.)
    who = lambda i: name_seats("{s%d}" % i, names)  # noqa: E731
    seats = None if names is None else tuple(names)
    sections = [_TABLES.get((_table_key(v), seats), partial(_table, v, names))]
    for i, p in enumerate(v["players"]):
        rows = _PLAYER_ROWS.get(_player_key(p), partial(_player_rows, p))
        sections.append(Section(who(i), rows))
    return sections + [_building_set(v)]


class _Memo:
    """A bounded cache of values made from a view's parts, keyed by a tuple
    of everything the value reads (the oldest entry goes first)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.values: dict[Hashable, Any] = {}

    def get(self, key: Hashable, make: Callable[[], Any]) -> Any:
        value = self.values.get(key)
        if value is None:
            value = make()
            if len(self.values) >= self.size:
                self.values.pop(next(iter(self.values)), None)
            self.values[key] = value
        return value


_TABLES = _Memo(256)
_PLAYER_ROWS = _Memo(1024)


# What ``_table`` reads of a view (tests/engine/test_board_sections_cache.py
# checks that it reads nothing else): the table's key, so that a move that
# changes only whose turn it is, or a seat's own view, finds it kept.
TABLE_READS = (
    "round",
    "governor",
    "roles",
    "taken",
    "ships",
    "trading_house",
    "face_up",
    "stack_size",
    "discard",
    "quarries",
    "colonist_ship",
    "colonist_supply",
    "vp_supply",
    "goods_supply",
    "buildings_left",
)


def _table_key(v: Mapping[str, Any]) -> str:
    """All ``_table`` reads of the view."""
    return json.dumps([v[k] for k in TABLE_READS])


def _player_key(p: Mapping[str, Any]) -> str:
    """All of a player's view: all ``_player_rows`` may read (a field added
    to the view is in the key without a word here; a view is JSON, as the
    API sends it)."""
    return json.dumps(p)


def _table(v: Mapping[str, Any], names: Sequence[str] | None) -> Section:
    who = lambda i: name_seats("{s%d}" % i, names)  # noqa: E731
    roles = [
        msg("%(role)s (%(n)s)", role=term(ROLE_TITLES[r]), n=c) if c else term(ROLE_TITLES[r])
        for r, c in v["roles"].items()
    ]
    taken = [
        msg("%(role)s: %(who)s", role=term(ROLE_TITLES[r]), who=who(i))
        for r, i in v["taken"].items()
    ]
    ships = listing(
        [
            msg(
                "%(size)s-ship: %(cargo)s",
                size=sh["capacity"],
                cargo=msg("%(n)s %(good)s", n=sh["count"], good=term(sh["kind"]))
                if sh["kind"]
                else msg("empty"),
            )
            for sh in v["ships"]
        ],
        msg("; "),  # French spaces it: "vide ; navire"
    )
    return Section(
        msg("Table"),
        (
            (
                msg("Round"),
                msg("%(round)s, governor %(who)s", round=v["round"], who=who(v["governor"])),
            ),
            (msg("Roles on offer"), _names(roles)),
            (msg("Roles taken"), _names(taken)),
            (msg("Ships"), ships),
            (msg("Trading house"), _names([term(g) for g in v["trading_house"]], N_("empty"))),
            (
                msg("Face-up plantations"),
                _names([term(t) for t in v["face_up"]], N_("no plantations")),
            ),
            (
                msg("Plantations"),
                nmsg(
                    "%(face_down)s face down, %(discarded)s discarded, %(n)s quarry",
                    "%(face_down)s face down, %(discarded)s discarded, %(n)s quarries",
                    v["quarries"],
                    face_down=v["stack_size"],
                    discarded=len(v["discard"]),
                ),
            ),
            (
                msg("Colonists"),
                msg(
                    "%(ship)s on the ship, %(supply)s in supply",
                    ship=v["colonist_ship"],
                    supply=v["colonist_supply"],
                ),
            ),
            (
                msg("Victory points"),
                nmsg("%(n)s chip left", "%(n)s chips left", v["vp_supply"]),
            ),
            (msg("Goods in supply"), _counts(v["goods_supply"])),
            (
                msg("Buildings left"),
                listing(
                    [
                        msg("%(building)s ×%(n)s", building=term(CARDS[b].title), n=n)
                        for b, n in v["buildings_left"].items()
                        if n
                    ]
                ),
            ),
        ),
    )


def _player_rows(p: Mapping[str, Any]) -> tuple:
    tiles = [
        msg(
            "%(n)s %(kind)s (%(worked)s worked)",
            n=p["tiles"][t],
            kind=term(t),
            worked=p["worked"][t],
        )
        for t in TILES
        if p["tiles"][t] and t != "quarry"
    ]
    if p["tiles"]["quarry"]:  # a countable noun: "2 quarries", "2 Steinbrüche"
        tiles.append(
            nmsg(
                "%(n)s quarry (%(worked)s worked)",
                "%(n)s quarries (%(worked)s worked)",
                p["tiles"]["quarry"],
                worked=p["worked"]["quarry"],
            )
        )
    if p.get("forests"):
        tiles.append(nmsg("%(n)s forest", "%(n)s forests", p["forests"]))
    city = listing(
        [
            msg(
                "%(building)s (%(manned)s/%(circles)s)",
                building=term(CARDS[b].title),
                manned=c,
                circles=CARDS[b].circles,
            )
            for b, c in p["buildings"].items()
        ]
    )
    return (
        (msg("Doubloons"), str(p["doubloons"])),
        (msg("Victory-point chips"), msg("hidden") if p["vp"] is None else str(p["vp"])),
        (msg("Goods"), _counts(p["goods"])),
        (msg("Island"), _names(tiles, N_("empty"))),
        (
            msg("City"),
            msg("%(city)s — %(used)s/12 spaces", city=city or msg("empty"), used=p["city_spaces"]),
        ),
        (msg("San Juan"), str(p["san_juan"])),
    )


def _building_set(v: Mapping[str, Any]) -> Section:
    """The buildings in play with their cards; while the players choose
    (extended), the slots per cost that are still open."""
    # The same from one move to the next until somebody builds: made once
    # per set and counts (Sections and Words are never changed after).
    left = tuple(v["buildings_left"].items())
    if v["phase"] == "select":
        return _set_being_chosen(left)
    return _buildings_in_play(v.get("building_set", "base"), left)


@lru_cache(maxsize=256)
def _set_being_chosen(counts: tuple[tuple[str, int], ...]) -> Section:
    left = dict(counts)
    slots = building_sets.open_slots(left)
    rows = tuple(
        (msg("Cost %(cost)s", cost=cost), _slot_row(left, cost, slots[cost]))
        for cost in sorted(VIOLET_SLOTS)
    )
    return Section(msg("Building set being chosen (extended)"), rows)


@lru_cache(maxsize=256)
def _buildings_in_play(kind: str, counts: tuple[tuple[str, int], ...]) -> Section:
    rows = tuple(
        (term(CARDS[b].title), msg("%(card)s (%(n)s left)", card=_describe(b), n=n))
        for b, n in counts
    )
    return Section(msg("Buildings in play: %(set)s", set=term(SET_TITLES.get(kind, kind))), rows)


@lru_cache(maxsize=128)
def _describe(name: str) -> Words:
    """A card's line never changes (catalogue.py stays uncached: it is
    compiled with the engine, this module is not)."""
    return catalogue.describe(name)


def _slot_row(left: Mapping[str, int], cost: int, still_open: int) -> Words:
    chosen = _names(
        [term(CARDS[b].title) for b in left if CARDS[b].violet and CARDS[b].cost == cost],
        N_("nothing yet"),
    )
    return msg(
        "%(chosen)s; %(open)s of %(slots)s open",
        chosen=chosen,
        open=still_open,
        slots=VIOLET_SLOTS[cost],
    )
