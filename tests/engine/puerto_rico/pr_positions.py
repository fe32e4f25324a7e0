"""Building Puerto Rico positions for the rulebook tests, DATC style.

A position starts from ``GAME.new_game`` and then sets fields of the state
directly (it is plain data until it is handed to ``apply``).  Everything after
that goes through the public interface: ``legal_actions``, ``apply``,
``default_action``, ``view`` and ``outcome``.

Seats are numbered clockwise: seat ``i + 1`` sits to the left of seat ``i``.
Goods and tiles are given by name: ``goods={"corn": 2, "sugar": 6}``.
"""

from __future__ import annotations

from engine import GAMES
from engine.puerto_rico.data import BUILDINGS, GOODS, SETUPS, TILES

GAME = GAMES["puerto_rico"]

PASS = {"type": "pass"}
QUARRY = {"type": "quarry"}
HACIENDA = {"type": "hacienda"}
AUTO = {"type": "auto_place"}


# -- actions -----------------------------------------------------------------
def role(name: str) -> dict:
    return {"type": "role", "role": name}


def plantation(kind: str) -> dict:
    return {"type": "plantation", "kind": kind}


def place(target: str, count: int = 1) -> dict:
    return {"type": "place", "target": target, "count": count}


def build(name: str) -> dict:
    return {"type": "build", "building": name}


def bonus(kind: str) -> dict:
    return {"type": "bonus", "kind": kind}


def sell(kind: str) -> dict:
    return {"type": "sell", "kind": kind}


def load(kind: str, ship: int) -> dict:
    return {"type": "load", "kind": kind, "ship": ship}


def wharf(kind: str) -> dict:
    return {"type": "wharf", "kind": kind}


def store(warehouse: list[str], single: str) -> dict:
    return {"type": "store", "warehouse": list(warehouse), "single": single}


# -- positions ---------------------------------------------------------------
def table(n: int, governor: int = 0, seed: int = 1, *, clear: bool = True):
    """A new ``n``-player game with ``governor`` to choose the first role.

    With ``clear`` every player's island is emptied (the starting plantations
    are taken away), so a test puts on the boards exactly what it needs.
    """
    s = fresh(GAME.new_game(n, {}, seed))
    s.governor = s.turn = governor
    if clear:
        for p in s.players:
            p.tiles = [0] * 6
            p.worked = [0] * 6
    return s


def fresh(s):
    """A copy of ``s`` whose every part may be changed (states returned by
    ``apply`` share unchanged players with their predecessors)."""
    return GAME.from_json(GAME.to_json(s))


def _by_name(names: tuple[str, ...], values: dict[str, int] | None) -> list[int]:
    values = values or {}
    unknown = set(values) - set(names)
    assert not unknown, f"unknown names {unknown}"
    return [values.get(k, 0) for k in names]


def setp(
    s,
    seat: int,
    *,
    doubloons: int | None = None,
    vp: int | None = None,
    goods: dict | None = None,
    tiles: dict | None = None,
    worked: dict | None = None,
    buildings: dict | None = None,
    san_juan: int | None = None,
):
    """Set parts of one player's board; unnamed parts are left as they are.

    ``tiles`` without ``worked`` leaves every tile unoccupied;
    ``buildings`` maps a building to the colonists on it.
    """
    p = s.players[seat]
    if doubloons is not None:
        p.doubloons = doubloons
    if vp is not None:
        p.vp = vp
    if goods is not None:
        p.goods = _by_name(GOODS, goods)
    if tiles is not None:
        p.tiles = _by_name(TILES, tiles)
        if worked is None:
            p.worked = [0] * 6
    if worked is not None:
        p.worked = _by_name(TILES, worked)
        assert all(w <= t for w, t in zip(p.worked, p.tiles)), "more colonists than tiles"
    if buildings is not None:
        for name, c in buildings.items():
            assert 0 <= c <= BUILDINGS[name].circles, name
        p.buildings = dict(buildings)
    if san_juan is not None:
        p.san_juan = san_juan
    s._legal = None
    return p


def set_ships(s, *ships: tuple[int, str | None, int]) -> None:
    """``set_ships(s, (5, None, 0), (6, "corn", 3))``: capacity, cargo kind, count."""
    s.ships = [
        [cap, -1 if kind is None else GOODS.index(kind), count] for cap, kind, count in ships
    ]
    s._legal = None


def ship_view(s) -> list[tuple[int, str | None, int]]:
    return [(c, GOODS[k] if k >= 0 else None, n) for c, k, n in s.ships]


def goods_of(s, seat: int) -> dict[str, int]:
    return {g: n for g, n in zip(GOODS, s.players[seat].goods) if n}


def supply(s, kind: str) -> int:
    return s.goods_supply[GOODS.index(kind)]


def set_supply(s, **counts: int) -> None:
    for kind, n in counts.items():
        s.goods_supply[GOODS.index(kind)] = n
    s._legal = None


def picks_per_round(n: int) -> int:
    return n * SETUPS[n].roles_per_player


# -- driving -----------------------------------------------------------------
def choose(s, seat: int, name: str):
    """``seat`` chooses role ``name`` now (as if it were their pick of the
    round); returns the new state and its events."""
    s.phase = "role"
    s.turn = seat
    s.picks = (seat - s.governor) % s.n
    s._legal = None
    return GAME.apply(s, seat, role(name))


def act(s, action: dict, seat: int | None = None):
    """The seat to move (or ``seat``, which must be to move) plays ``action``."""
    seat = GAME.to_move(s) if seat is None else seat
    return GAME.apply(s, seat, action)[0]


def legal(s, seat: int | None = None) -> list[dict]:
    seat = GAME.to_move(s) if seat is None else seat
    return GAME.legal_actions(s, seat)


def game_over_now(s):
    """Mark the game as ended here, for final-scoring positions."""
    s.over, s.phase, s.turn = True, "over", None
    s._legal = None
    return GAME.outcome(s)
