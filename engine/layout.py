"""The drawn board as layout data: panels of labelled groups of tiles.

Pure: the games build it from a seat's view with words already said in the
reader's language (``say``); the server's templates turn it into HTML that
reflows from a phone to a wide screen, so no drawing shrinks its words to
fit.  Every tile has words; a colour (``kind``) only repeats them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def mark(filled: bool = True, seat: int | None = None, text: str = "") -> dict[str, Any]:
    """A piece on a tile: a colonist's circle, a player's marker (``seat``
    gives its colour, ``text`` a number on it)."""
    return {"filled": filled, "seat": seat, "text": text}


def tile(
    label: str,
    detail: str = "",
    kind: str = "",
    *,
    span: int = 1,
    marks: Iterable[dict] = (),
    marks_text: str = "",
) -> dict[str, Any]:
    """One space: its name, a detail below it, the CSS kind that colours it
    (a good, "empty", "taken"), how many rows it spans (a large building),
    its pieces and the words that say them."""
    return {
        "label": label,
        "detail": detail,
        "kind": kind,
        "span": span,
        "marks": list(marks),
        "marks_text": marks_text,
    }


def group(title: str, tiles: Iterable[dict], shape: str = "") -> dict[str, Any]:
    """Tiles under a heading; ``shape`` (island, city, track, wide) picks how
    wide a tile may become."""
    return {"title": title, "tiles": list(tiles), "shape": shape}


def panel(
    title: str,
    groups: Iterable[dict] = (),
    lines: Iterable[str] = (),
    *,
    seat: int | None = None,
    mine: bool = False,
    wide: bool = False,
) -> dict[str, Any]:
    """A player's board (``seat``; ``mine`` for the viewer's own) or the
    table; ``wide``: it takes a whole row on a wide screen."""
    return {
        "title": title,
        "lines": [line for line in lines if line],
        "groups": list(groups),
        "seat": seat,
        "mine": mine,
        "wide": wide,
    }
