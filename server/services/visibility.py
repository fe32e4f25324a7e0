"""Who may see a game: one rule for its page, its log and record, and every
API answer about it, so no door shows what another keeps hidden.

A public game is there for every signed-in reader; a private one (practice
tables included, when made private) only for the people who hold or held a
seat, its host and the site's moderators.  A lobby not listed among the open
games is there only for its host, those it invited and the moderators.  To
anyone else such a game does not exist: the same 404 as a game that never
was, whatever its status.  What a viewer who may see it sees of it (the
board, the log, table talk) is what_a_seat_sees.py."""

from __future__ import annotations

from server.models import Game, Invitation, Seat
from server.services.profiles import may_see_private


def may_see(game: Game, user, seat: Seat | None) -> bool:
    """Whether ``user`` (signed in or not) with ``seat`` (the seat they act
    for in this game, or None) may see ``game`` at all."""
    if seat is not None:
        return True
    if game.status == "open" and not game.public and not _asked_in(game, user):
        return False
    return not game.private or may_see_private(game, user)


def _asked_in(game: Game, user) -> bool:
    """Whether an unlisted lobby is ``user``'s business: host, invited or moderator."""
    if not getattr(user, "is_authenticated", False):
        return False
    if game.host_id == user.id or user.is_moderator:
        return True
    return (
        Invitation.select()
        .where((Invitation.game == game.id) & (Invitation.email == user.email))
        .exists()
    )
