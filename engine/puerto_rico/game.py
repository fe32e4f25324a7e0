"""Puerto Rico behind the common game interface."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine.interface import Choice, IllegalMove, Outcome, Section
from engine.puerto_rico import guests, labels, layout, phases, scoring, setup, view
from engine.puerto_rico import options as building_options
from engine.puerto_rico.data import GOODS, PRICE
from engine.puerto_rico.phases import select, storage
from engine.puerto_rico.phases.captain import load_options
from engine.puerto_rico.phases.common import PASS
from engine.puerto_rico.phases.mayor import AUTO
from engine.puerto_rico.state import VERSION, State
from engine.turns import OneSeatAtATime
from engine.words import N_, Words, msg, term


class PuertoRico(OneSeatAtATime):
    name = "puerto_rico"
    title = "Puerto Rico"
    description = N_(
        "Plant, build and ship as a colonial governor: the most victory "
        "points from buildings and shipped goods wins."
    )
    min_players, max_players = 2, 5
    options = building_options.OPTIONS
    state_version = VERSION
    state_class = State

    def new_game(
        self, players: int, options: Mapping[str, str] | None = None, seed: int = 0
    ) -> State:
        return setup.new_state(players, seed, building_options.building_set(options))

    def prompt(self, state: State) -> str:
        return labels.prompt(state)

    def prompt_message(self, state: State) -> tuple[str, dict]:
        return labels.prompt_message(state)

    def label(self, state: State, action: dict) -> str:
        return labels.label(state, action)

    # The phases' own functions, not methods calling them: one call less on
    # every move (see bench/engine_random_games.py).
    turn_options = staticmethod(phases.options)
    turn_act = staticmethod(phases.act)
    step_in_place = staticmethod(phases.step)  # the same steps (see phases.step)

    def successor(self, state: State) -> State:
        return state.successor()

    def default_action(self, state: State) -> dict:
        opts = self.legal_actions(state, state.turn)
        if not opts:
            raise IllegalMove(msg("Nobody is to move."))
        phase = state.phase
        if guests.DONE in opts:
            return guests.DONE  # the guests stay where they are
        if phase == "select":
            return select.default(state, opts)
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

    def group_title(self, action_type: str) -> Words:
        return term(labels.GROUPS.get(action_type, action_type))

    def choices(self, state: State, seat: int) -> list[Choice]:
        """Grouped (labels.group_of), the buildings by column and cost."""
        actions = sorted(self.legal_actions(state, seat), key=labels.order_of)
        return [Choice(a, self.label(state, a), labels.group_of(a)) for a in actions]

    def board_layout(
        self,
        v: Mapping[str, Any],
        names: Sequence[str] | None = None,
        say: Callable[[str], str] = str,
    ) -> list[dict[str, Any]]:
        return layout.layout(v, names, say)

    def outcome(self, state: State) -> Outcome | None:
        return scoring.outcome(state) if state.over else None

    def standing(self, state: State) -> Outcome:
        return scoring.outcome(state)  # the final count works at any moment


def _default_role(s: State, opts: list[dict]) -> dict:
    """Prospector when on offer (nobody else acts: the closest to a pass);
    otherwise the role with the most doubloons, first in table order."""
    opts = [a for a in opts if a["type"] == "role"]  # guests stay put
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
