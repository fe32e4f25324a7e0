"""The one interface the server uses for every game.

A game is a stateless object with pure functions over an opaque, immutable
state.  States are never mutated after ``apply`` returns them, so callers may
cache and share them freely.  Actions are small JSON-able dicts with a
``"type"`` key; the list returned by ``legal_actions`` is the whole truth about
what a seat may do.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib.resources import files
from typing import Any

from engine.words import Words

Action = dict[str, Any]


_SEAT_REF = re.compile(r"\{s(\d+)\}")


def name_seats(text: str, names: Sequence[str] | None = None) -> str:
    """Replace the engine's seat references ``{s0}``, ``{s1}`` … by names."""

    def name(m: re.Match) -> str:
        i = int(m.group(1))
        return names[i] if names is not None and i < len(names) else f"Player {i + 1}"

    return _SEAT_REF.sub(name, text)


class IllegalMove(ValueError):
    """An action that is not allowed now; the message is meant for players."""


@dataclass(frozen=True)
class OptionSpec:
    """A setting chosen before the game starts (``/option base``).

    ``help``, when given, runs parallel to ``choices``: a one-line
    explanation of each value, for the lobby.  ``synonyms`` are accepted
    everywhere a choice is and stored as the choice they name."""

    name: str
    label: str
    choices: tuple[str, ...]
    default: str
    help: tuple[str, ...] = ()
    # Other words for a choice, as (word, choice): "/option extension".
    synonyms: tuple[tuple[str, str], ...] = ()

    def canonical(self, value: str) -> str | None:
        """The choice ``value`` names (itself or through a synonym), or None."""
        value = dict(self.synonyms).get(value, value)
        return value if value in self.choices else None

    def allowed(self) -> str:
        """Every accepted word, for an error message."""
        return ", ".join(self.choices + tuple(word for word, _ in self.synonyms))

    def help_for(self, value: str) -> str:
        """The explanation of ``value``, or "" when there is none."""
        if value in self.choices and len(self.help) == len(self.choices):
            return self.help[self.choices.index(value)]
        return ""


@dataclass(frozen=True)
class Choice:
    """One legal action with the words a form shows for it."""

    action: Action
    label: str
    group: str = ""


class Event:
    """Something that happened, for the game log and the emails.

    ``private_to`` set: only that seat may read ``text``; everybody else
    reads ``public_text`` (which may be empty: nothing to show them).
    A plain slotted class rather than a dataclass: engines make one or two
    per action, and this is measurably cheaper.
    """

    __slots__ = ("text", "seat", "private_to", "public_text")

    def __init__(
        self,
        text: str,
        seat: int | None = None,
        private_to: int | None = None,
        public_text: str = "",
    ):
        self.text, self.seat = text, seat
        self.private_to, self.public_text = private_to, public_text

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Event) and self.to_json() == other.to_json()

    def __repr__(self) -> str:
        return f"Event({self.text!r}, seat={self.seat}, private_to={self.private_to})"

    def text_for(
        self,
        viewer: int | None,
        names: Sequence[str] | None = None,
        say: Callable[[str], str] | None = None,
    ) -> str:
        """What ``viewer`` may read, with ``{s0}``-style seat references named;
        ``say`` puts the engine's ``Words`` into the reader's language."""
        if self.private_to is None or self.private_to == viewer:
            raw = self.text
        else:
            raw = self.public_text
        return name_seats(say(raw) if say else raw, names)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "text": self.text,
            "seat": self.seat,
            "private_to": self.private_to,
            "public_text": self.public_text,
        }
        # The texts' templates, for readers of other languages.
        if isinstance(self.text, Words):
            data["words"] = self.text.to_json()
        if isinstance(self.public_text, Words):
            data["public_words"] = self.public_text.to_json()
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Event:
        text, public = data["text"], data.get("public_text", "")
        if "words" in data:
            text = Words.from_json(data["words"])
        if "public_words" in data:
            public = Words.from_json(data["public_words"])
        return cls(text, data.get("seat"), data.get("private_to"), public)


@dataclass(frozen=True)
class Section:
    """A block of the board as a viewer may see it: a title and labelled rows."""

    title: str
    rows: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class SeatScore:
    seat: int
    total: int
    breakdown: tuple[tuple[str, int], ...]
    tiebreak: int


@dataclass(frozen=True)
class Outcome:
    """Final result: scores in seat order and the winning seats (ties share)."""

    scores: tuple[SeatScore, ...]
    winners: tuple[int, ...]
    reason: str = ""

    def to_json(self) -> dict[str, Any]:
        # "reason_words": the reason's template, for readers of other languages.
        words = {"reason_words": self.reason.to_json()} if isinstance(self.reason, Words) else {}
        return {
            **words,
            "reason": self.reason,
            "winners": list(self.winners),
            "scores": [
                {
                    "seat": s.seat,
                    "total": s.total,
                    "tiebreak": s.tiebreak,
                    "breakdown": [list(b) for b in s.breakdown],
                }
                for s in self.scores
            ],
        }


class Rules(ABC):
    """What every game in ``engine.GAMES`` provides.  All methods are pure."""

    name: str
    title: str
    # One line for the new-game page, marked N_ so the game's catalogs hold it.
    description: str = ""
    min_players: int
    max_players: int
    options: tuple[OptionSpec, ...] = ()
    state_version: int = 1

    # -- words -------------------------------------------------------------
    # A game carries its own catalogs: its words (N_, msg, nmsg) translated in
    # <its package>/translations/<lang>/LC_MESSAGES/<domain>.po and .mo, which
    # the server reads beside its own (server/i18n.py).
    @property
    def domain(self) -> str:
        """The gettext domain of the game's catalogs: its name."""
        return self.name

    def translations_dir(self) -> str | None:
        """The folder of the game's catalogs: ``translations`` beside the
        module that defines the game's class; None for a top-level module."""
        package = type(self).__module__.rpartition(".")[0]
        return str(files(package) / "translations") if package else None

    # -- lifecycle -------------------------------------------------------
    @abstractmethod
    def new_game(
        self, players: int, options: Mapping[str, str] | None = None, seed: int = 0
    ) -> Any:
        """A fresh state; raises ``IllegalMove`` for a bad player count or option."""

    @abstractmethod
    def to_move(self, state: Any) -> int | None:
        """The seat whose decision it is, or None when the game is over."""

    @abstractmethod
    def prompt(self, state: Any) -> str:
        """What the seat to move is asked, e.g. "choose a role"."""

    def prompt_message(self, state: Any) -> tuple[str, dict[str, Any]]:
        """The prompt as an English template (``%(name)s`` placeholders) and
        its values, for a server that translates the template:
        ``engine.words.fill(*prompt_message(state)) == prompt(state)``."""
        return self.prompt(state), {}

    @abstractmethod
    def legal_actions(self, state: Any, seat: int) -> list[Action]:
        """Every action ``seat`` may take now (empty if it is not their turn)."""

    @abstractmethod
    def label(self, state: Any, action: Action) -> str:
        """Human words for one legal action."""

    def choices(self, state: Any, seat: int) -> list[Choice]:
        return [
            Choice(a, self.label(state, a), self.group_title(a.get("type", "")))
            for a in self.legal_actions(state, seat)
        ]

    def group_title(self, action_type: str) -> str:
        """The heading over a kind of choice ("Build"); an engine may hand
        out ``Words`` so the heading reads in the player's language."""
        return action_type.replace("_", " ").capitalize()

    @abstractmethod
    def apply(self, state: Any, seat: int, action: Action) -> tuple[Any, list[Event]]:
        """The new state and what happened; raises ``IllegalMove``."""

    @abstractmethod
    def default_action(self, state: Any) -> Action:
        """What a timed-out seat plays: a pass where allowed, else a fixed choice."""

    # -- reading ---------------------------------------------------------
    @abstractmethod
    def view(self, state: Any, seat: int | None) -> dict[str, Any]:
        """JSON-able state as ``seat`` may see it (None: a spectator)."""

    @abstractmethod
    def board(self, view: Mapping[str, Any], names: Sequence[str] | None = None) -> list[Section]:
        """A view laid out as titled rows of text, for pages and emails."""

    def board_layout(
        self,
        view: Mapping[str, Any],
        names: Sequence[str] | None = None,
        say: Callable[[str], str] = str,
    ) -> list[dict[str, Any]] | None:
        """The view as panels of tiles (engine/layout.py) that a page lays
        out as HTML for any width, or None for a game without one."""
        return None

    @abstractmethod
    def outcome(self, state: Any) -> Outcome | None:
        """Final scores and winners, or None while the game goes on."""

    @abstractmethod
    def standing(self, state: Any) -> Outcome:
        """The scores as they stand now, hidden parts included: for a game
        that ends early (abandoned by a moderator).  Winners: the leaders."""

    def is_over(self, state: Any) -> bool:
        return self.to_move(state) is None

    def seat_count(self, state: Any) -> int:
        return len(self.view(state, None)["players"])

    # -- storage ---------------------------------------------------------
    @abstractmethod
    def to_json(self, state: Any) -> dict[str, Any]:
        """Everything, hidden parts included, with ``"version"``."""

    @abstractmethod
    def from_json(self, data: Mapping[str, Any]) -> Any:
        """Inverse of ``to_json``; raises ``ValueError`` for another version."""
