"""Puerto Rico behind the common game interface."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from engine.interface import Event, Game, IllegalMove, OptionSpec, Outcome, Section
from engine.puerto_rico import labels, scoring, setup, view
from engine.puerto_rico.data import GOODS, PRICE
from engine.puerto_rico.phases import PHASES, storage
from engine.puerto_rico.phases.captain import load_options
from engine.puerto_rico.phases.common import PASS
from engine.puerto_rico.phases.mayor import AUTO
from engine.puerto_rico.state import VERSION, State


class PuertoRico(Game):
    name = "puerto_rico"
    title = "Puerto Rico"
    min_players, max_players = 2, 5
    options = (OptionSpec("buildings", "Building set", ("base",), "base"),)
    state_version = VERSION

    def new_game(self, players: int, options: Mapping[str, str] | None = None,
                 seed: int = 0) -> State:
        for key, value in (options or {}).items():
            spec = next((o for o in self.options if o.name == key), None)
            if spec is None or value not in spec.choices:
                raise IllegalMove(f"unknown option {key}={value}")
        return setup.new_state(players, seed)

    def to_move(self, state: State) -> int | None:
        return None if state.over else state.turn

    def prompt(self, state: State) -> str:
        return labels.prompt(state)

    def legal_actions(self, state: State, seat: int) -> list[dict]:
        if state.over or seat != state.turn:
            return []
        if state._legal is None:        # states never change, so caching is safe
            state._legal = PHASES[state.phase].options(state, seat)
        return list(state._legal)

    def label(self, state: State, action: dict) -> str:
        return labels.label(state, action)

    def apply(self, state: State, seat: int, action: dict) -> tuple[State, list[Event]]:
        if state.over:
            raise IllegalMove("The game is over.")
        if seat != state.turn:
            raise IllegalMove("It is not your turn.")
        if state._legal is None:
            state._legal = PHASES[state.phase].options(state, seat)
        if action not in state._legal:
            raise IllegalMove(f"That move is not allowed now; you were asked to {self.prompt(state)}.")
        s = state.clone()
        ev: list[Event] = []
        PHASES[s.phase].act(s, seat, action, ev)
        self._play_forced(s, ev)
        return s, ev

    def _play_forced(self, s: State, ev: list[Event]) -> None:
        """A decision with exactly one legal action is played at once (and logged)."""
        while not s.over:
            opts = s._legal
            if opts is None:
                opts = s._legal = PHASES[s.phase].options(s, s.turn)
            if len(opts) != 1:
                return
            s._legal = None             # the state changes again below
            PHASES[s.phase].act(s, s.turn, opts[0], ev)

    def default_action(self, state: State) -> dict:
        opts = self.legal_actions(state, state.turn)
        if not opts:
            raise IllegalMove("Nobody is to move.")
        phase = state.phase
        if phase == "role":
            return _default_role(state, opts)
        if phase == "mayor":
            return AUTO
        if phase == "craftsman":
            return max(opts, key=lambda a: PRICE[GOODS.index(a["kind"])])
        if phase == "captain":
            return _default_shipment(state, opts)
        if phase == "storage":
            return storage.best_option(state, state.turn)
        return PASS if PASS in opts else opts[0]

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return view.view(state, seat)

    def board(self, v: Mapping[str, Any], names: Sequence[str] | None = None) -> list[Section]:
        return view.board(v, names)

    def outcome(self, state: State) -> Outcome | None:
        return scoring.outcome(state) if state.over else None

    def seat_count(self, state: State) -> int:
        return state.n

    def to_json(self, state: State) -> dict[str, Any]:
        return state.to_json()

    def from_json(self, data: Mapping[str, Any]) -> State:
        return State.from_json(dict(data))


def _default_role(s: State, opts: list[dict]) -> dict:
    """Prospector when on offer (nobody else acts: the closest to a pass);
    otherwise the role with the most doubloons, first in table order."""
    for a in opts:
        if a["role"].startswith("prospector"):
            return a
    return max(opts, key=lambda a: s.roles[a["role"]])


def _default_shipment(s: State, opts: list[dict]) -> dict:
    """Passing where allowed (only the wharf is left), else the load that
    ships the most barrels, first in list order on a tie."""
    if PASS in opts:
        return PASS
    goods = s.players[s.turn].goods
    loads = load_options(s, s.turn)

    def barrels(a: dict) -> int:
        cap, _, count = s.ships[a["ship"]]
        return min(goods[GOODS.index(a["kind"])], cap - count)

    return max(loads, key=barrels) if loads else opts[0]
