"""Race to 21: two players take turns adding 1, 2 or 3 to a shared count;
whoever brings it to exactly 21 wins.

The whole game, behind pbem's game interface: the state is a small frozen
dataclass, every text for people is marked (``N_``, ``msg``) so that its
catalogs (translations/, domain ``race_to_21``) say it in Dutch, German or
French.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine import Event, IllegalMove, Outcome, Rules, SeatScore, Section
from engine.words import N_, msg

GOAL = 21
STEPS = (1, 2, 3)
VERSION = 1


@dataclass(frozen=True)
class State:
    count: int = 0
    seat: int = 0  # whose turn; the winner once over
    over: bool = False


class RaceTo21(Rules):
    name = "race_to_21"
    title = "Race to 21"
    description = N_("Two players take turns adding 1, 2 or 3 to a count; whoever reaches 21 wins.")
    min_players, max_players = 2, 2
    state_version = VERSION

    def new_game(
        self, players: int, options: Mapping[str, str] | None = None, seed: int = 0
    ) -> State:
        if players != 2:
            raise IllegalMove(msg("Race to 21 is for 2 players, not %(n)s", n=players))
        if options:
            raise IllegalMove(msg("Race to 21 has no options"))
        return State()

    def to_move(self, state: State) -> int | None:
        return None if state.over else state.seat

    def prompt(self, state: State) -> str:
        template, values = self.prompt_message(state)
        return template % values

    def prompt_message(self, state: State) -> tuple[str, dict[str, Any]]:
        return N_("add 1, 2 or 3 to the count (now %(count)s)"), {"count": state.count}

    def legal_actions(self, state: State, seat: int) -> list[dict[str, Any]]:
        if state.over or seat != state.seat:
            return []
        return [{"type": "add", "n": n} for n in STEPS if state.count + n <= GOAL]

    def label(self, state: State, action: dict[str, Any]) -> str:
        return msg("Add %(n)s (to %(count)s)", n=action["n"], count=state.count + action["n"])

    def group_title(self, action_type: str) -> str:
        return msg("Add")

    def apply(self, state: State, seat: int, action: dict[str, Any]) -> tuple[State, list[Event]]:
        if action not in self.legal_actions(state, seat):
            raise IllegalMove(msg("You may add 1, 2 or 3, up to 21."))
        count = state.count + action["n"]
        events = [
            Event(
                msg(
                    "{s%(seat)s} adds %(n)s: the count is %(count)s.",
                    seat=seat,
                    n=action["n"],
                    count=count,
                ),
                seat,
            )
        ]
        if count == GOAL:
            events.append(Event(msg("{s%(seat)s} reaches 21 and wins.", seat=seat), seat))
            return replace(state, count=count, over=True), events
        return replace(state, count=count, seat=1 - seat), events

    def default_action(self, state: State) -> dict[str, Any]:
        return self.legal_actions(state, state.seat)[0]  # add 1: the smallest step

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return {
            "players": [{"seat": 0}, {"seat": 1}],
            "count": state.count,
            "to_move": self.to_move(state),
            "goal": GOAL,
        }

    def board(self, view: Mapping[str, Any], names: Sequence[str] | None = None) -> list[Section]:
        return [
            Section(
                msg("The count"),
                ((msg("Count"), str(view["count"])), (msg("Goal"), str(view["goal"]))),
            )
        ]

    def outcome(self, state: State) -> Outcome | None:
        return self.standing(state) if state.over else None

    def standing(self, state: State) -> Outcome:
        # The one who reached 21 scores 1; a game ended early has no winner
        # but a tie (both 0), as nobody leads a shared count.
        won = state.seat if state.over else None
        scores = tuple(
            SeatScore(s, int(s == won), ((msg("Won"), int(s == won)),), 0) for s in (0, 1)
        )
        return Outcome(scores, (won,) if won is not None else (0, 1))

    def to_json(self, state: State) -> dict[str, Any]:
        return {"version": VERSION, "count": state.count, "seat": state.seat, "over": state.over}

    def from_json(self, data: Mapping[str, Any]) -> State:
        if data.get("version") != VERSION:
            raise ValueError(f"Race to 21 state version {data.get('version')!r}")
        return State(int(data["count"]), int(data["seat"]), bool(data["over"]))
