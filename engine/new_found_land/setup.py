"""A new game laid out as the rulebook's "Voorbereiding" says (steps 1-13)."""

from __future__ import annotations

from engine import rng
from engine.interface import Event, IllegalMove
from engine.new_found_land import board
from engine.new_found_land.common import draw
from engine.new_found_land.components import (
    FIFTY_CARDS,
    GOAL_PILES,
    GOODS_FIELD,
    OFFER,
    START_IRON,
)
from engine.new_found_land.data import (
    CAPTAINS,
    CARDS,
    CITIES,
    COMPASS,
    CONTRACTS,
    FRAMES,
    GOALS,
    MARKERS,
    NATION_ORDER,
    NATIONS,
    SHIPS,
    SUPPLY,
    TILES,
)
from engine.new_found_land.state import State, new_player
from engine.words import msg


def new_state(n: int, seed: int, advanced_frames: bool = False) -> State:
    if not 2 <= n <= 4:
        raise IllegalMove(msg("Race to the New Found Land is for 2 to 4 players, not %(n)s", n=n))
    s = State.__new__(State)
    s._legal, s._board_own = None, set()
    s.n, s.rng = n, seed & rng.MASK
    s.options = {"frame_tiles": "advanced" if advanced_frames else "standard"}
    nations = list(NATION_ORDER)  # 2. random player boards
    s.rng = rng.shuffle(s.rng, nations)
    s.players = [new_player(nations[i], MARKERS) for i in range(n)]
    s.supply = dict(SUPPLY)
    s.discard = {"small": [], "large": [], "cards": [], "goals": [], "islands": [], "contracts": []}
    _ships(s)
    _cards(s)
    s.fifty = list(range(len(FIFTY_CARDS)))  # 6.
    s.contract_pile = sorted(CONTRACTS)  # 7.
    s.rng = rng.shuffle(s.rng, s.contract_pile)
    s.contracts = [s.contract_pile.pop() for _ in range(OFFER["contracts"])]
    goals = sorted(GOALS)  # 8.
    s.rng = rng.shuffle(s.rng, goals)
    size = GOAL_PILES["size"]
    s.goal_piles = {
        name: goals[i * size : (i + 1) * size] for i, name in enumerate(GOAL_PILES["names"])
    }
    s.captains = list(CAPTAINS)  # 9.
    s.goods_field = list(GOODS_FIELD["goods"])  # 10.
    for g in s.goods_field:
        s.supply[g] -= 1
    for p in s.players:
        p["goods"]["iron"] += START_IRON["value"]
        s.supply["iron"] -= START_IRON["value"]
    key = "advanced_space" if advanced_frames else "space"  # 11.
    s.frames = {fid: [f[key], []] for fid, f in FRAMES.items()}
    s.board, s.scored = {}, []
    s.cities = {c: [] for c in CITIES}
    _islands(s)  # 12.
    # 13. the lowest number on a player board starts
    s.start = min(range(n), key=lambda i: NATIONS[s.players[i]["nation"]]["number"])
    s.round, s.phase, s.turn, s.over = 1, "land", None, False
    s.action, s.order, s.step, s.resume = "", [], 0, ""
    s.plan, s.work, s.drawn, s.claims, s.queue = {}, None, [], [], []
    return s


def _ships(s: State) -> None:
    """3. start ships to their nations, the rest small; 4. large ships."""
    for p in s.players:
        p["ships"].append(next(k for k, sh in SHIPS.items() if sh.start == p["nation"]))
    taken = {p["ships"][0] for p in s.players}
    s.small_pile = [k for k, sh in SHIPS.items() if sh.kind == "small" and k not in taken]
    s.rng = rng.shuffle(s.rng, s.small_pile)
    s.small_offer = [s.small_pile.pop() for _ in range(OFFER["small"])]
    s.large_pile = [k for k, sh in SHIPS.items() if sh.kind == "large"]
    s.rng = rng.shuffle(s.rng, s.large_pile)
    s.large_offer = [s.large_pile.pop() for _ in range(OFFER["large"])]


def _cards(s: State) -> None:
    """5. start cards to their nations, the other start cards to the discard."""
    nations = {p["nation"] for p in s.players}
    for p in s.players:
        p["hand"].append(
            next(k for k, c in CARDS.items() if c["kind"] == "start" and c["nation"] == p["nation"])
        )
    s.discard["cards"] = sorted(
        k for k, c in CARDS.items() if c["kind"] == "start" and c["nation"] not in nations
    )
    s.card_pile = sorted(k for k, c in CARDS.items() if c["kind"] != "start")
    s.rng = rng.shuffle(s.rng, s.card_pile)


def _islands(s: State) -> None:
    """12. one compass tile per player; one fitting island tile on each island
    shown; non-fitting tiles to the discard; then all compass tiles reshuffled."""
    s.island_pile = sorted(TILES)
    s.rng = rng.shuffle(s.rng, s.island_pile)
    compass = sorted(COMPASS)
    s.rng = rng.shuffle(s.rng, compass)
    for pid in compass[-s.n :]:
        place_fitting(s, COMPASS[pid], [])
    s.compass_pile = sorted(COMPASS)
    s.rng = rng.shuffle(s.rng, s.compass_pile)
    s.compass_shown = []


def place_fitting(s: State, island: str, ev: list[Event]) -> str | None:
    """Draw island tiles until one fits the island; the others go to the
    discard.  None when the island is full or no tile left could fit."""
    if board.island_full(s, island):
        return None
    tries = 2 * (len(s.island_pile) + len(s.discard["islands"]))
    while tries > 0:
        got = draw(s, "island_pile", "islands", 1)
        if not got:
            return None
        tile = got[0]
        if board.free_space(s, island, tile):
            return board.place_tile(s, tile, island)
        s.discard["islands"].append(tile)
        tries -= 1
    return None
