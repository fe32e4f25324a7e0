"""The islands and cities on the board: fitting tiles, fields, markers."""

from __future__ import annotations

from engine.new_found_land.data import CITIES, ISLANDS, SPACES, TILES
from engine.new_found_land.state import State


def free_space(s: State, island: str, tile: str) -> str | None:
    """The island's first empty space the tile fits (turned as needed), or None."""
    shape = TILES[tile]["shape"]
    for sp in ISLANDS[island]["spaces"]:
        if sp["shape"] == shape and sp["id"] not in s.board:
            return sp["id"]
    return None


def fitting_islands(s: State, tile: str) -> list[str]:
    return [name for name in ISLANDS if free_space(s, name, tile)]


def island_full(s: State, island: str) -> bool:
    return all(sp["id"] in s.board for sp in ISLANDS[island]["spaces"])


def writable_space(s: State, space: str | None = None) -> dict:
    """``s.board``, with ``space``'s entry, made ``s``'s own first where a
    clone shares them (State.clone shares the board, and a changed board
    shares the entries it did not change): every change to the board goes
    through here.  ``s._board_own`` is None while the dict is shared, else
    the spaces whose entries are ``s``'s own."""
    own = s._board_own
    if own is None:
        s.board = dict(s.board)
        own = s._board_own = set()
    if space is not None and space not in own:
        if space in s.board:
            tile, fields = s.board[space]
            s.board[space] = [tile, [f[:] for f in fields]]
        own.add(space)
    return s.board


def shared_board(s: State) -> dict:
    """``s.board`` for a reader that keeps it (a bot's cache keyed on the
    object): ``s`` copies it before it next changes it, so it stays as read."""
    s._board_own = None
    return s.board


def place_tile(s: State, tile: str, island: str) -> str:
    space = free_space(s, island, tile)
    assert space is not None
    writable_space(s, space)[space] = [tile, [[None, 0], [None, 0]]]
    return space


def open_field(s: State, space: str) -> int | None:
    fields = s.board[space][1]
    for i, (owner, _) in enumerate(fields):
        if owner is None:
            return i
    return None


def put_markers(s: State, space: str, owner: int, count: int) -> None:
    """``count`` markers of ``owner`` on one empty field (2 = a tower)."""
    i = open_field(s, space)
    assert i is not None
    writable_space(s, space)[space][1][i] = [owner, count]
    if owner >= 0:
        s.players[owner]["markers"] -= count


def own_field(s: State, space: str, owner: int) -> int | None:
    """The first field of the tile holding ``owner``'s markers, or None."""
    for i, (who, _) in enumerate(s.board[space][1]):
        if who == owner:
            return i
    return None


def add_markers(s: State, space: str, field: int, owner: int, count: int) -> None:
    """``count`` more markers of ``owner`` on a field that already holds theirs."""
    cell = writable_space(s, space)[space][1][field]
    assert cell[0] == owner
    cell[1] += count
    s.players[owner]["markers"] -= count


def placed_spaces(s: State) -> list[str]:
    """Spaces holding an island tile, in board order."""
    return [sp for sp in SPACES if sp in s.board]


def settle_spaces(s: State) -> list[str]:
    """Placed island tiles with an empty field, in board order."""
    return [sp for sp in SPACES if sp in s.board and open_field(s, sp) is not None]


def island_of(space: str) -> str:
    return SPACES[space][0]


def island_markers(s: State, island: str) -> dict[int, int]:
    """Markers per owner on one island (towers count two)."""
    out: dict[int, int] = {}
    for sp in ISLANDS[island]["spaces"]:
        cell = s.board.get(sp["id"])
        if cell:
            for owner, k in cell[1]:
                if owner is not None:
                    out[owner] = out.get(owner, 0) + k
    return out


def city_markers(s: State, city: str) -> dict[int, int]:
    out: dict[int, int] = {}
    for owner in s.cities[city]:
        out[owner] = out.get(owner, 0) + 1
    return out


def city_full(s: State, city: str) -> bool:
    return len(s.cities[city]) >= CITIES[city]["fields"]


def tile_bonuses(s: State, space: str) -> list[dict]:
    return TILES[s.board[space][0]]["bonuses"]
