"""Race to the New Found Land behind the common game interface."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine.interface import Event, IllegalMove, OptionSpec, Outcome, Section
from engine.new_found_land import labels, layout, scoring, setup, view
from engine.new_found_land.common import DONE
from engine.new_found_land.phases import PHASES, cards, land
from engine.new_found_land.phases.settle import NEW_ENGLAND_ACTION
from engine.new_found_land.state import VERSION, State
from engine.turns import OneSeatAtATime
from engine.words import N_, Words, msg, term


class NewFoundLand(OneSeatAtATime):
    name = "new_found_land"
    title = "Race to the New Found Land"
    description = N_(
        "Send your ships to explore, settle and deliver in the New World: "
        "the most points from islands, trade and goals wins."
    )
    min_players, max_players = 2, 4
    # The advanced frame tiles (components.FRAMES' advanced_space) lie further up.
    options = (
        OptionSpec(
            "frame_tiles",
            N_("Frame tiles"),
            ("standard", "advanced"),
            "standard",
            help=(
                N_("The frame tiles lie on spaces 7, 15, 20, 25 and 35 of the score track."),
                N_(
                    "The frame tiles lie on spaces 7, 15, 20, 30 and 40: the last two rewards "
                    "come later."
                ),
            ),
        ),
    )
    state_version = VERSION
    state_class = State

    def new_game(
        self, players: int, options: Mapping[str, str] | None = None, seed: int = 0
    ) -> State:
        options = self.checked_options(options)
        s = setup.new_state(players, seed, options.get("frame_tiles") == "advanced")
        ev: list[Event] = []
        land.enter(s, ev)
        self.play_forced(s, ev)
        return s

    def prompt(self, state: State) -> str:
        return labels.prompt(state)

    def prompt_message(self, state: State) -> tuple[str, dict]:
        return labels.prompt_message(state)

    def label(self, state: State, action: dict) -> str:
        return labels.label(state, action)

    def turn_options(self, s: State, seat: int) -> list[dict]:
        """The phase's choices, plus one-time cards the seat may play now."""
        opts = PHASES[s.phase].options(s, seat)
        return opts + cards.play_options(s, seat) if opts else opts

    def turn_act(self, s: State, seat: int, a: dict, ev: list[Event]) -> None:
        if a["type"] == "play":
            cards.play(s, seat, a, ev)  # frame tiles wait for the end of the turn
        else:
            PHASES[s.phase].act(s, seat, a, ev)

    def default_action(self, state: State) -> dict:
        """Pass where the rules allow ("done": land phase, planning, deliveries,
        goal cards, Spain's extra marker); settling falls back on New England
        (the rules' "will not settle"); loading takes the best good and keeps
        the first card drawn; a payment with a choice pays with the goods
        themselves, gold only for what is lacking; explore places the first
        drawn tile that fits on the first island it fits; a frame tile gives
        the first card, captain or good on offer."""
        opts = self.legal_actions(state, state.turn) if not state.over else []
        if not opts:
            raise IllegalMove(msg("Nobody is to move."))
        for pick in (DONE, NEW_ENGLAND_ACTION):
            if pick in opts:
                return pick
        loads = [a for a in opts if a["type"] == "load"]
        return loads[-1] if loads else opts[0]

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return view.view(state, seat)

    def board(self, v: Mapping[str, Any], names: Sequence[str] | None = None) -> list[Section]:
        return view.board(v, names)

    def group_title(self, action_type: str) -> Words:
        return term(labels.GROUPS.get(action_type, action_type))

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
        return scoring.outcome(state)  # points on the score track so far
