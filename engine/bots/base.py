"""The bot interface, the bots' seeded draws and the simplest bot."""

from __future__ import annotations

from abc import ABC, abstractmethod

from engine import rng
from engine.interface import Action, Rules
from engine.words import N_


class Draws:
    """A seeded stream of random choices on engine/rng.py: the engine takes
    no randomness from outside the seeds it is given."""

    def __init__(self, seed: int):
        self.x = seed & rng.MASK

    def below(self, n: int) -> int:
        self.x, i = rng.below(self.x, n)
        return i

    def choice(self, items):
        return items[self.below(len(items))]

    def shuffle(self, items: list) -> None:
        self.x = rng.shuffle(self.x, items)

    def bits(self) -> int:
        self.x, r = rng.step(self.x)
        return r


class Bot(ABC):
    """Chooses one legal action for a seat; pure and seeded."""

    name: str
    title: str  # for players: "a careful bot"
    description: str = ""

    @abstractmethod
    def choose(self, game: Rules, state, seat: int, seed: int) -> Action:
        """One of ``game.legal_actions(state, seat)``; never raises for a
        seat that has a legal action."""


class RandomBot(Bot):
    """Uniformly random legal moves: the yardstick the others must beat."""

    name = "random"
    title = N_("random bot")
    description = "plays any legal move at random"

    def choose(self, game: Rules, state, seat: int, seed: int) -> Action:
        return Draws(seed).choice(game.legal_actions(state, seat))
