"""The game state: plain data, copied before every change.

The rules say where a tile lies on the island or city does not matter, so a
player's board is counts: tiles and occupied tiles per kind, and colonists
per building.
"""

from __future__ import annotations

from typing import Any

from engine.puerto_rico.data import BUILDING_ORDER, CARDS, EFFECT_BUILDINGS, SETUPS

_SIZE = {b.name: b.size for b in CARDS.values()}
_CIRCLES = {b.name: b.circles for b in CARDS.values()}

VERSION = 1


def in_table_order(buildings: dict[str, int]) -> dict[str, int]:
    """Buildings in the order of the overview card: the one order the rules
    ever iterate them in, so a state means the same after any JSON trip."""
    return {name: buildings[name] for name in BUILDING_ORDER if name in buildings}


_RANK = {name: i for i, name in enumerate(BUILDING_ORDER)}


def with_building(buildings: dict[str, int], name: str) -> dict[str, int]:
    """A copy of ``buildings`` (in table order) with ``name`` added, empty,
    in its place: mostly at the end, as buildings are bought dearer and dearer."""
    out = {**buildings, name: 0}
    if buildings and _RANK[name] < _RANK[next(reversed(buildings))]:
        out = {n: out[n] for n in sorted(out, key=_RANK.__getitem__)}
    return out


class Player:
    __slots__ = ("doubloons", "vp", "goods", "tiles", "worked", "buildings", "san_juan", "forests")

    def __init__(self, doubloons: int = 0):
        self.doubloons = doubloons
        self.vp = 0  # victory-point chips (hidden from others)
        self.goods = [0] * 5
        self.tiles = [0] * 6  # plantations per good, then quarries
        self.worked = [0] * 6  # of those, how many have a colonist
        self.buildings: dict[str, int] = {}  # name -> colonists on it
        self.san_juan = 0
        # Forest house: plantation tiles placed face down, by kind (kept so
        # every tile can be counted); a tuple, so copies may share it.
        self.forests: tuple[int, ...] = ()

    def clone(self) -> Player:
        p = Player.__new__(Player)
        p.doubloons = self.doubloons
        p.vp = self.vp
        p.goods = self.goods[:]
        p.tiles = self.tiles[:]
        p.worked = self.worked[:]
        p.buildings = self.buildings.copy()
        p.san_juan = self.san_juan
        p.forests = self.forests
        return p

    # -- questions the phases ask -------------------------------------------
    def active(self, effect: str) -> bool:
        """Has an occupied building with this effect (only occupied ones work)."""
        b = self.buildings
        for name in EFFECT_BUILDINGS.get(effect, ()):
            if b.get(name, 0) > 0:
                return True
        return False

    def island_tiles(self) -> int:
        return sum(self.tiles) + len(self.forests)

    def city_spaces(self) -> int:
        return sum(map(_SIZE.__getitem__, self.buildings))

    def colonists(self) -> int:
        return sum(self.worked) + sum(self.buildings.values()) + self.san_juan

    def circles(self) -> int:
        return sum(self.tiles) + sum(map(_CIRCLES.__getitem__, self.buildings))

    def empty_building_circles(self) -> int:
        return sum(_CIRCLES[n] - c for n, c in self.buildings.items())

    def to_json(self) -> dict[str, Any]:
        d = {
            "doubloons": self.doubloons,
            "vp": self.vp,
            "goods": self.goods[:],
            "tiles": self.tiles[:],
            "worked": self.worked[:],
            "buildings": dict(self.buildings),
            "san_juan": self.san_juan,
        }
        if self.forests:  # absent in base games: their JSON is unchanged
            d["forests"] = list(self.forests)
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Player:
        p = cls(d["doubloons"])
        p.vp, p.goods, p.tiles, p.worked = (
            d["vp"],
            list(d["goods"]),
            list(d["tiles"]),
            list(d["worked"]),
        )
        p.buildings, p.san_juan = in_table_order(d["buildings"]), d["san_juan"]
        p.forests = tuple(d.get("forests", ()))
        return p


# Fields copied as they are (ints, strings, tuples) and fields that are lists
# or dicts of immutables.  The next state ``apply`` makes (``successor``)
# copies ``goods_supply``, ``roles`` and ``taken`` (changed by many actions)
# and the list of players (see ``edit``); the other containers change a few
# times a game, so it shares them, and the rules replace them instead of
# changing them in place (``s.house = s.house + [kind]``).
_SCALARS = (
    "n",
    "rng",
    "round",
    "governor",
    "phase",
    "turn",
    "role_player",
    "picks",
    "colonist_supply",
    "colonist_ship",
    "vp_supply",
    "bank",
    "quarries",
    "end_triggered",
    "over",
    "step",
    "idle",
    "captain_bonus_paid",
    "mayor_pool",
    "hacienda_used",
)
_FLAT = (
    "goods_supply",
    "stack",
    "face_up",
    "discard",
    "house",
    "order",
    "wharf_used",
    "roles",
    "taken",
    "buildings_left",
    "memo",
)  # a phase's own notes: the mayor's previous arrangement, the
# craftsman's produced kinds; None between phases


# ``x``: the expansion's own notes (None in a base game, and then absent from
# the JSON, so base snapshots read and write exactly as before).  Keys:
#   "set"      the building option in play ("extended" or "random")
#   "pending"  a follow-up decision of the seat to move (black market payment,
#              hacienda tile, second settler tile, guest moves, craftsman bonus)
#   "small_wharf_used"  seats that used their small wharf this captain phase
# Values are replaced, never changed in place, so a shallow copy is enough.
class State:
    __slots__ = _SCALARS + _FLAT + ("players", "ships", "x", "_legal", "_owned")

    # The fields, declared for type checkers (mypy cannot read a computed
    # __slots__); annotations only: nothing at run time changes.
    n: int
    rng: int
    round: int
    governor: int
    phase: str
    turn: Any
    role_player: Any
    picks: int
    colonist_supply: int
    colonist_ship: int
    vp_supply: int
    bank: int
    quarries: int
    end_triggered: str
    over: bool
    step: int
    idle: int
    captain_bonus_paid: bool
    mayor_pool: int
    hacienda_used: bool
    goods_supply: list[int]
    stack: list[int]
    face_up: list[int]
    discard: list[int]
    house: list[int]
    order: list[int]
    wharf_used: list[bool]
    roles: dict[str, int]
    taken: dict[str, int]
    buildings_left: dict[str, int]
    memo: Any
    players: list[Player]
    ships: list[list[int]]
    x: Any
    _legal: Any
    _owned: int

    def edit(self, seat: int) -> Player:
        """The player at ``seat``, safe to change.

        A clone shares its Player objects with the state it came from (copying
        all of them for every action was the engine's largest cost); the first
        edit of a seat copies that one player.  Phases must change players only
        through this method; reading through ``players[seat]`` is fine.
        """
        if not self._owned >> seat & 1:
            self.players[seat] = self.players[seat].clone()
            self._owned |= 1 << seat
        return self.players[seat]

    def clone(self) -> State:
        """A copy whose lists and dicts are its own (a bot may shuffle its
        stack); its players are shared until edited (see ``edit``)."""
        s = self.successor()
        s.stack, s.face_up, s.discard, s.house = (
            self.stack[:],
            self.face_up[:],
            self.discard[:],
            self.house[:],
        )
        s.wharf_used, s.buildings_left = self.wharf_used[:], self.buildings_left.copy()
        s.ships = [sh[:] for sh in self.ships]
        s.x = None if self.x is None else self.x.copy()
        return s

    def successor(self) -> State:
        """The copy ``apply`` changes: it shares more with this state than a
        clone does, as the rules replace those lists and dicts instead of
        changing them (see _FLAT).  Written out field by field, a statement
        each (tuple assignments build and unpack tuples: 1.6 times slower):
        this runs once per action of ``apply``."""
        s = State.__new__(State)
        s.n = self.n
        s.rng = self.rng
        s.round = self.round
        s.governor = self.governor
        s.phase = self.phase
        s.turn = self.turn
        s.role_player = self.role_player
        s.picks = self.picks
        s.colonist_supply = self.colonist_supply
        s.colonist_ship = self.colonist_ship
        s.vp_supply = self.vp_supply
        s.bank = self.bank
        s.quarries = self.quarries
        s.end_triggered = self.end_triggered
        s.over = self.over
        s.step = self.step
        s.idle = self.idle
        s.captain_bonus_paid = self.captain_bonus_paid
        s.mayor_pool = self.mayor_pool
        s.hacienda_used = self.hacienda_used
        s.goods_supply = self.goods_supply.copy()
        s.roles = self.roles.copy()
        s.taken = self.taken.copy()
        s.stack = self.stack
        s.face_up = self.face_up
        s.discard = self.discard
        s.house = self.house
        s.order = self.order
        s.wharf_used = self.wharf_used
        s.buildings_left = self.buildings_left
        s.memo = self.memo
        s.ships = self.ships
        s.x = self.x
        s.players = self.players[:]
        # Both now share every Player: neither may change one in place (a
        # simulation goes on after its snapshot()).
        s._owned = self._owned = 0
        s._legal = None
        return s

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"version": VERSION}
        for f in _SCALARS:
            d[f] = getattr(self, f)
        for f in _FLAT:
            v = getattr(self, f)
            d[f] = (dict(v) if isinstance(v, dict) else list(v)) if v is not None else None
        d["players"] = [p.to_json() for p in self.players]
        d["ships"] = [list(sh) for sh in self.ships]
        if self.x is not None:
            d["x"] = _plain(self.x)
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> State:
        if d.get("version") != VERSION:
            raise ValueError(f"Puerto Rico state version {d.get('version')!r}, expected {VERSION}")
        s = State.__new__(State)  # not cls: the compiled build (mypyc) needs the class named
        for f in _SCALARS:
            setattr(s, f, d[f])
        for f in _FLAT:
            v = d[f]
            setattr(s, f, (dict(v) if isinstance(v, dict) else list(v)) if v is not None else None)
        s.players = [Player.from_json(p) for p in d["players"]]
        s.ships = [list(sh) for sh in d["ships"]]
        s.x = _plain(d["x"]) if d.get("x") is not None else None
        # Stored JSON may come back with its keys in any order (jsonb sorts
        # them); the rules iterate these dicts, so put them in table order.
        s.roles = {r: s.roles[r] for r in SETUPS[s.n].roles if r in s.roles}
        s.buildings_left = in_table_order(s.buildings_left)
        if s.memo and "buildings" in s.memo:
            s.memo = dict(s.memo, buildings=in_table_order(s.memo["buildings"]))
        s._legal = None
        s._owned = -1  # all players are this state's own
        return s

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]


def _plain(v: Any) -> Any:
    """A deep copy made of dicts, lists and scalars (JSON's own shapes)."""
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    return v
