"""The bot interface and the simplest bot."""
from __future__ import annotations

import random
from abc import ABC, abstractmethod

from engine.interface import Action, Game


class Bot(ABC):
    """Chooses one legal action for a seat; pure and seeded."""

    name: str
    title: str          # for players: "a careful bot"
    description: str = ""

    @abstractmethod
    def choose(self, game: Game, state, seat: int, seed: int) -> Action:
        """One of ``game.legal_actions(state, seat)``; never raises for a
        seat that has a legal action."""


class RandomBot(Bot):
    """Uniformly random legal moves: the yardstick the others must beat."""

    name = "random"
    title = "random bot"
    description = "plays any legal move at random"

    def choose(self, game: Game, state, seat: int, seed: int) -> Action:
        return random.Random(seed).choice(game.legal_actions(state, seat))
