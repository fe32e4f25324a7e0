"""The drawn board on a page: the engine draws it from the viewer's view,
unless the reader asked for the board as text only."""
from __future__ import annotations

from functools import partial

from flask_login import current_user

from server.i18n import say
from server.models import Seat
from server.web.languages import page_language


def drawing(kind, state, viewer: int | None, names: list[str], seat: Seat | None) -> str | None:
    """The SVG, or None: the reader's choice in Settings (a mail link's
    visitor gets their seat's player's choice), or a game without a drawing."""
    reader = current_user if current_user.is_authenticated else (seat.user if seat else None)
    if reader is not None and reader.board_as_text:
        return None
    return kind.board_svg(kind.view(state, viewer), names, partial(say, page_language()))
