"""Who may see a game: one rule for its page, its log and record, and every
API answer about it, so no door shows what another keeps hidden.

A public game is there for every signed-in reader; a private one (practice
tables included, when made private) only for the people who hold or held a
seat, its host and the site's moderators.  To anyone else a private game
does not exist: the same 404 as a game that never was, whatever its status."""

from __future__ import annotations

from server.models import Game, Seat
from server.services.profiles import may_see_private


def may_see(game: Game, user, seat: Seat | None) -> bool:
    """Whether ``user`` (signed in or not) with ``seat`` (the seat they act
    for in this game, or None) may see ``game`` at all."""
    return seat is not None or not game.private or may_see_private(game, user)
