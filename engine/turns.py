"""What every game where one seat decides at a time shares.

A game subclasses ``OneSeatAtATime`` and writes its rules as two functions:
``turn_options(state, seat)`` (every legal action of the seat to move) and
``turn_act(state, seat, action, events)`` (apply one to a copied state).
Its states carry ``over``, ``turn``, a ``_legal`` cache and
``clone``/``to_json``/``from_json``.  This class does the rest of the
interface: validation, copying, forced moves, caching, storage.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Mapping
from typing import Any

from engine.interface import Event, IllegalMove, Rules
from engine.words import Words, msg


class OneSeatAtATime(Rules):
    state_class: Any  # the game's State class: clone(), to_json(), from_json()

    @abstractmethod
    def turn_options(self, s: Any, seat: int) -> list[dict]:
        """Every action ``seat`` may take in state ``s`` (it is their turn)."""

    @abstractmethod
    def turn_act(self, s: Any, seat: int, action: dict, ev: list[Event]) -> None:
        """Apply a legal action to ``s`` (a private copy), noting events."""

    def checked_options(self, options: Mapping[str, str] | None) -> dict[str, str]:
        """The options given, each checked against ``self.options``."""
        checked = {}
        for key, value in (options or {}).items():
            spec = next((o for o in self.options if o.name == key), None)
            choice = spec.canonical(value) if spec is not None else None
            if spec is None or choice is None:
                raise IllegalMove(
                    f"unknown option {key}={value}"
                    + (f"; allowed: {spec.allowed()}" if spec else "")
                )
            checked[key] = choice
        return checked

    def to_move(self, state: Any) -> int | None:
        return None if state.over else state.turn

    def legal_actions(self, state: Any, seat: int) -> list[dict]:
        if state.over or seat != state.turn:
            return []
        if state._legal is None:  # states never change, so caching is safe
            state._legal = self.turn_options(state, seat)
        return list(state._legal)

    def apply(self, state: Any, seat: int, action: dict) -> tuple[Any, list[Event]]:
        if state.over:
            raise IllegalMove(msg("The game is over."))
        if seat != state.turn:
            raise IllegalMove(msg("It is not your turn."))
        if state._legal is None:
            state._legal = self.turn_options(state, seat)
        if action not in state._legal:
            raise IllegalMove(
                msg(
                    "That move is not allowed now; you were asked to %(prompt)s.",
                    prompt=Words(*self.prompt_message(state)),
                )
            )
        s = self.successor(state)
        ev: list[Event] = []
        self.step_in_place(s, action, ev)
        return s, ev

    def successor(self, state: Any) -> Any:
        """The copy of ``state`` that ``apply`` changes in place:
        ``state.clone()``, unless a game's states can share more with the
        state they came from (Puerto Rico's do)."""
        return state.clone()

    def step_in_place(self, s: Any, action: dict, ev: list[Event]) -> None:
        """Play one of ``s``'s legal actions on ``s`` itself, then the forced
        moves after it: the one path both ``apply`` and ``Simulation`` take."""
        s._legal = None
        self.turn_act(s, s.turn, action, ev)
        opts = s._legal
        if opts is None or len(opts) == 1:  # else a real decision is waiting
            self.play_forced(s, ev)

    def simulate(self, state: Any) -> Simulation:
        return Simulation(self, state)

    def play_forced(self, s: Any, ev: list[Event]) -> None:
        """A decision with exactly one legal action is played at once (and logged).

        ``s._legal`` may already hold the options, found while the rules
        looked for the next seat with a decision; it is reset before every
        change."""
        while not s.over:
            opts = s._legal
            if opts is None:
                opts = s._legal = self.turn_options(s, s.turn)
            if len(opts) != 1:
                return
            s._legal = None
            self.turn_act(s, s.turn, opts[0], ev)

    def seat_count(self, state: Any) -> int:
        return state.n

    def to_json(self, state: Any) -> dict[str, Any]:
        return state.to_json()

    def from_json(self, data: Mapping[str, Any]) -> Any:
        return self.state_class.from_json(dict(data))


class _Discard(list):
    """An event list that keeps nothing: a simulation reads no log."""

    __slots__ = ()

    def append(self, _event) -> None:
        pass


# The event list a ``Simulation`` hands to the rules.  Appending to it does
# nothing, so any game works with it; a game whose texts cost time to write
# may test ``ev is NO_EVENTS`` and not write them (Puerto Rico does: its
# texts were a quarter of a simulation's time).
NO_EVENTS = _Discard()


class Simulation:
    """Many moves on one private copy, for bots and benchmarks.

    ``apply`` copies the state for every action, so every position stays
    valid; a rollout keeps only its last position, so this copies once and
    then changes its copy in place, skips the check that the action is
    legal (take it from ``legal()``) and keeps no events.  It runs the very
    rules ``apply`` runs (``step_in_place``): the same moves give the same
    states.  The lists ``legal()`` returns are the state's own: read them,
    never change them.

    >>> from engine import GAMES
    >>> game = GAMES["puerto_rico"]
    >>> sim = game.simulate(game.new_game(3, {}, seed=1))
    >>> while sim.to_move() is not None:
    ...     sim.play(sim.legal()[0])
    >>> game.outcome(sim.state) is not None
    True
    """

    __slots__ = ("rules", "state", "_events", "_step")

    def __init__(self, rules: OneSeatAtATime, state: Any):
        self.rules, self.state, self._events = rules, state.clone(), NO_EVENTS
        self._step = rules.step_in_place  # looked up once: play() runs per move

    def to_move(self) -> int | None:
        s = self.state
        return None if s.over else s.turn

    def legal(self) -> list[dict]:
        s = self.state
        if s._legal is None:
            s._legal = self.rules.turn_options(s, s.turn)
        return s._legal

    def play(self, action: dict) -> None:
        self._step(self.state, action, NO_EVENTS)
        if NO_EVENTS:  # compiled rules (mypyc) append with a C call, past _Discard.append
            NO_EVENTS.clear()

    def snapshot(self) -> Any:
        """The position now, as a state of its own (the simulation goes on)."""
        return self.state.clone()
