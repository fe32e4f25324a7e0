"""Race to the New Found Land behind the common game interface."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from engine.interface import Event, Game, IllegalMove, OptionSpec, Outcome, Section
from engine.new_found_land import labels, scoring, setup, view
from engine.new_found_land.common import DONE
from engine.new_found_land.phases import PHASES, cards, land
from engine.new_found_land.phases.settle import NEW_ENGLAND_ACTION
from engine.new_found_land.state import VERSION, State


class NewFoundLand(Game):
    name = "new_found_land"
    title = "Race to the New Found Land"
    min_players, max_players = 2, 4
    options = (OptionSpec("frame_tiles", "Frame tiles", ("standard", "advanced"), "standard"),)
    state_version = VERSION

    def new_game(self, players: int, options: Mapping[str, str] | None = None,
                 seed: int = 0) -> State:
        for key, value in (options or {}).items():
            spec = next((o for o in self.options if o.name == key), None)
            if spec is None or value not in spec.choices:
                raise IllegalMove(f"unknown option {key}={value}")
        s = setup.new_state(players, seed, (options or {}).get("frame_tiles") == "advanced")
        ev: list[Event] = []
        land.enter(s, ev)
        _play_forced(s, ev)
        return s

    def to_move(self, state: State) -> int | None:
        return None if state.over else state.turn

    def prompt(self, state: State) -> str:
        return labels.prompt(state)

    def legal_actions(self, state: State, seat: int) -> list[dict]:
        if state.over or seat != state.turn:
            return []
        if state._legal is None:
            state._legal = options(state, seat)
        return list(state._legal)

    def label(self, state: State, action: dict) -> str:
        return labels.label(state, action)

    def apply(self, state: State, seat: int, action: dict) -> tuple[State, list[Event]]:
        if state.over:
            raise IllegalMove("The game is over.")
        if seat != state.turn:
            raise IllegalMove("It is not your turn.")
        if state._legal is None:
            state._legal = options(state, seat)
        if action not in state._legal:
            raise IllegalMove(f"That move is not allowed now; you were asked to {self.prompt(state)}.")
        s = state.clone()
        ev: list[Event] = []
        act(s, seat, action, ev)
        _play_forced(s, ev)
        return s, ev

    def default_action(self, state: State) -> dict:
        """Pass where the rules allow ("done": land phase, planning, deliveries,
        goal cards); settling falls back on New England (the rules' "will not
        settle"); loading takes the best good and keeps the first card drawn;
        explore places the first drawn tile that fits on the first island it
        fits; a frame tile gives the first card, captain or good on offer."""
        opts = self.legal_actions(state, state.turn) if not state.over else []
        if not opts:
            raise IllegalMove("Nobody is to move.")
        for pick in (DONE, NEW_ENGLAND_ACTION):
            if pick in opts:
                return pick
        loads = [a for a in opts if a["type"] == "load"]
        return loads[-1] if loads else opts[0]

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


def options(s: State, seat: int) -> list[dict]:
    """The phase's choices, plus one-time cards the seat may play now."""
    if s.over or seat != s.turn:
        return []
    opts = PHASES[s.phase].options(s, seat)
    return opts + cards.play_options(s, seat) if opts else opts


def act(s: State, seat: int, a: dict, ev: list[Event]) -> None:
    if a["type"] == "play":
        cards.play(s, seat, a, ev)         # frame tiles wait for the end of the turn
    else:
        PHASES[s.phase].act(s, seat, a, ev)


def _play_forced(s: State, ev: list[Event]) -> None:
    """A decision with exactly one legal action is played at once (and logged)."""
    while not s.over:
        opts = options(s, s.turn)
        if len(opts) != 1:
            s._legal = opts
            return
        act(s, s.turn, opts[0], ev)
