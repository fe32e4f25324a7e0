"""The game state: plain JSON-able data, copied once per action.

Every field holds only dicts, lists, strings, ints, bools and None, so
``to_json`` is the fields themselves.  A clone (once per action, and a
thinking bot's rollouts make thousands a decision) copies each field as
cheaply as its shape allows: a plain value is shared, a flat list sliced,
each nested field copied as deep as it is ever changed (``_copy_nested``:
three times cheaper than one ``marshal`` round trip of them all, which was
a quarter of the thinking bot's time), and the board, the largest of them
and changed only by settling and exploring, is shared until one of the
states changes it (board.py's ``writable_space`` copies it, and the entry
it changes, first).

Ids: small ships ``s01``…, large ships ``L01``…, one-time cards ``K01``…,
goal cards ``G01``…, island tiles ``T01``…, contracts ``C01``…, compass tiles
``P1``…  Every id is unique across kinds, so a view can be searched for them.
"""

from __future__ import annotations

import marshal
from typing import Any

VERSION = 1
NEUTRAL = -1  # the third colour's markers in a 2-player game

FIELDS = (
    "n",
    "rng",
    "options",
    "round",
    "start",
    "phase",
    "turn",
    "over",
    "action",  # load/settle/deliver/explore in planning and actions
    "order",
    "step",  # seats of the current ordered phase and whose turn it is
    "resume",  # the phase a frame-tile pick interrupted
    "players",
    "small_pile",
    "small_offer",
    "large_pile",
    "large_offer",
    "card_pile",
    "contract_pile",
    "contracts",
    "goal_piles",
    "captains",
    "goods_field",
    "supply",
    "island_pile",
    "compass_pile",
    "compass_shown",
    "board",  # space id -> [tile id, [[owner, markers], [owner, markers]]]
    "cities",  # city -> list of seats, one per marker
    "scored",  # islands and cities already scored (a good lies on them)
    "frames",  # frame id -> [space or None when off the track, seats that reached it]
    "fifty",  # 50/100 cards left, top first (indices into FIFTY_CARDS)
    "discard",  # kind -> list of ids on the discard board
    "plan",  # action -> per seat: [[ship id, captain or ""], ...]
    "work",  # the seat to move's notes inside its turn (an action's crates or
    # settle queue, tiles to place, a payment waiting for "pay")
    "drawn",  # cards or tiles the seat to move drew and may look at
    "claims",  # [[seat, frame id], ...] waiting for the end of a turn
    "queue",  # scoring awards still to hand out: [[seat, points, text], ...]
)


def new_player(nation: str, markers: int) -> dict[str, Any]:
    return {
        "nation": nation,
        "score": 0,
        "goods": {"wood": 0, "cloth": 0, "iron": 0, "gold": 0},
        "ships": [],
        "exts": [],
        "hand": [],
        "goals": [],
        "captains": [],
        "markers": markers,
        "fifty": None,
        "hundred": False,
        "goals_played": 0,
        "final": [],
    }


# Fields holding an int, a string, a bool or None: never changed in place.
PLAIN = ("n", "rng", "round", "start", "phase", "turn", "over", "action", "step", "resume")
# Fields holding a list of ints, strings or None (tests/engine/new_found_land/
# test_state_clone.py checks them through whole games).
FLAT = (
    "order",
    "small_pile",
    "small_offer",
    "large_pile",
    "large_offer",
    "card_pile",
    "contract_pile",
    "contracts",
    "captains",
    "goods_field",
    "island_pile",
    "compass_pile",
    "compass_shown",
    "scored",
    "fifty",
    "drawn",
)
NESTED = tuple(f for f in FIELDS if f not in PLAIN and f not in FLAT and f != "board")


class State:
    # _board_own: None while this state shares its board (after a clone),
    # else the spaces whose entries it alone holds (board.writable_space).
    __slots__ = FIELDS + ("_legal", "_board_own")

    # The fields, declared for type checkers (mypy cannot read a computed
    # __slots__); annotations only: nothing at run time changes.  Mostly
    # Any: the values are the JSON-able data the module docstring describes.
    n: int
    rng: Any
    options: Any
    round: int
    start: Any
    phase: str
    turn: Any
    over: bool
    action: Any
    order: Any
    step: Any
    resume: Any
    players: list[dict[str, Any]]
    small_pile: Any
    small_offer: Any
    large_pile: Any
    large_offer: Any
    card_pile: Any
    contract_pile: Any
    contracts: Any
    goal_piles: Any
    captains: Any
    goods_field: Any
    supply: Any
    island_pile: Any
    compass_pile: Any
    compass_shown: Any
    board: Any
    cities: Any
    scored: Any
    frames: Any
    fifty: Any
    discard: Any
    plan: Any
    work: Any
    drawn: Any
    claims: Any
    queue: Any
    _legal: Any
    _board_own: set[str] | None

    def clone(self) -> State:
        s = State.__new__(State)
        for f in PLAIN:
            setattr(s, f, getattr(self, f))
        for f in FLAT:
            setattr(s, f, getattr(self, f)[:])
        _copy_nested(self, s)
        s.board = self.board
        self._board_own = s._board_own = None  # shared now: copied before a change
        s._legal = None
        return s

    def to_json(self) -> dict[str, Any]:
        d = marshal.loads(marshal.dumps({f: getattr(self, f) for f in FIELDS}))
        d["version"] = VERSION
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> State:
        if d.get("version") != VERSION:
            raise ValueError(
                f"New Found Land state version {d.get('version')!r}, expected {VERSION}"
            )
        s = State.__new__(State)  # not cls: the compiled build (mypyc) needs the class named
        data = marshal.loads(marshal.dumps({f: d[f] for f in FIELDS}))
        for f in FIELDS:
            setattr(s, f, data[f])
        s._legal = None
        s._board_own = set(s.board)
        return s

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]


# The nested fields' shapes, which _copy_nested relies on
# (tests/engine/new_found_land/test_nfl_state_clone.py checks them through
# whole games): a player is a dict of plain values, the goods dict of ints
# and the lists below; claims and queue are lists of lists never changed in
# place; plan is action -> per seat a list of [ship, captain] pairs, each
# made anew; frames is id -> [space, seats], both parts changed in place.
PLAYER_LISTS = ("ships", "exts", "hand", "goals", "captains", "final")


def _copy_player(p: dict[str, Any]) -> dict[str, Any]:
    q = p.copy()
    q["goods"] = p["goods"].copy()
    for key in PLAYER_LISTS:
        q[key] = p[key][:]
    return q


def _copy_lists(d: dict[str, list[Any]]) -> dict[str, list[Any]]:
    return {k: v[:] for k, v in d.items()}


def _copy_nested(old: State, new: State) -> None:
    new.options = old.options.copy()
    new.players = [_copy_player(p) for p in old.players]
    new.goal_piles = _copy_lists(old.goal_piles)
    new.supply = old.supply.copy()
    new.cities = _copy_lists(old.cities)
    new.frames = {fid: [space, seats[:]] for fid, (space, seats) in old.frames.items()}
    new.discard = _copy_lists(old.discard)
    new.plan = {action: [ships[:] for ships in seats] for action, seats in old.plan.items()}
    new.work = marshal.loads(marshal.dumps(old.work))  # small, and of many shapes
    new.claims = [claim[:] for claim in old.claims]
    new.queue = [award[:] for award in old.queue]
