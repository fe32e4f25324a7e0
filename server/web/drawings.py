"""The drawn board on a page: the engine lays it out from the viewer's view
(panels of tiles, engine/layout.py) and templates/play/_board.html makes it
HTML that reflows from a phone to a wide screen, unless the reader asked
for the board as text only."""

from __future__ import annotations

from functools import partial

from flask_login import current_user

from server.i18n import say
from server.models import Seat
from server.web.languages import page_language


def drawing(
    kind, state, viewer: int | None, names: list[str], seat: Seat | None
) -> list[dict] | None:
    """The board's panels, or None: the reader's choice in Settings (a mail
    link's visitor gets their seat's player's choice), or a game without a
    drawn board."""
    reader = current_user if current_user.is_authenticated else (seat.user if seat else None)
    if reader is not None and reader.board_as_text:
        return None
    return kind.board_layout(kind.view(state, viewer), names, partial(say, page_language()))


def split(panels: list[dict] | None) -> tuple[dict | None, list[dict]]:
    """The viewer's own panel (shown next to the move form) and the rest."""
    panels = panels or []
    mine = next((p for p in panels if p["mine"]), None)
    return mine, [p for p in panels if p is not mine]
