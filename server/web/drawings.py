"""The drawn board on a page: the engine lays it out from the viewer's view
(panels of tiles, engine/layout.py) and this module makes each panel HTML
that reflows from a phone to a wide screen (templates/play/_board.html
places it), unless the reader asked for the board as text only.

The HTML is written here rather than by a Jinja macro per tile: a page
draws some 60 tiles, and most of them, often whole panels, read the same
from one move to the next.  A panel's HTML depends on its layout data
alone (the words in it are already said in the reader's language), so it
is cached keyed by that data: an entry can only be found again by a panel
that holds the very same words, so no seat sees anything of another's."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache, partial
from typing import Any

from flask_login import current_user
from markupsafe import Markup, escape

from server.i18n import say
from server.models import Seat
from server.web.languages import page_language

# The keys: plain tuples of the layout's values (str, int, bool, None), in
# the order the HTML uses them.
TileKey = tuple[Any, Any, Any, Any, tuple[tuple[Any, Any, Any], ...], Any]
GroupKey = tuple[Any, Any, tuple[TileKey, ...]]
PanelKey = tuple[Any, tuple[Any, ...], tuple[GroupKey, ...], Any, Any, Any]


def drawing(
    kind, state, viewer: int | None, names: list[str], seat: Seat | None
) -> list[dict] | None:
    """The board's panels, or None: the reader's choice in Settings (a mail
    link's visitor gets their seat's player's choice), or a game without a
    drawn board.  Each panel carries its HTML under ``html``."""
    reader = current_user if current_user.is_authenticated else (seat.user if seat else None)
    if reader is not None and reader.board_as_text:
        return None
    panels = kind.board_layout(kind.view(state, viewer), names, partial(say, page_language()))
    if panels is None:
        return None
    for p in panels:
        p["html"] = panel_html(p)
    return panels


def split(panels: list[dict] | None) -> tuple[dict | None, list[dict]]:
    """The viewer's own panel (shown next to the move form) and the rest."""
    panels = panels or []
    mine = next((p for p in panels if p["mine"]), None)
    return mine, [p for p in panels if p is not mine]


def panel_html(p: Mapping[str, Any]) -> Markup:
    """One panel (engine/layout.py ``panel``) as HTML: a section with its
    title, fact lines and groups of tiles, every word escaped."""
    return Markup(_panel_html(_panel_key(p)))


def _tile_key(t: Mapping[str, Any]) -> TileKey:
    marks = tuple([(m["filled"], m["seat"], m["text"]) for m in t["marks"]])
    return (t["label"], t["detail"], t["kind"], t["span"], marks, t["marks_text"])


def _panel_key(p: Mapping[str, Any]) -> PanelKey:
    groups = tuple(
        [(g["shape"], g["title"], tuple([_tile_key(t) for t in g["tiles"]])) for g in p["groups"]]
    )
    return (p["title"], tuple(p["lines"]), groups, p["seat"], p["mine"], p["wide"])


def _e(value: Any) -> str:
    """``value`` as the page's ``{{ value }}`` writes it: escaped text."""
    return str(escape(value))


# A panel is some 5 kB of HTML: a few hundred of them are the boards of the
# games being played now.
@lru_cache(maxsize=512)
def _panel_html(key: PanelKey) -> str:
    title, lines, groups, seat, mine, wide = key
    classes = "panel" + (" mine" if mine else "") + (" wide" if wide else "")
    if seat is not None:
        classes += f" seat-{_e(seat)}"
    facts = (
        '<ul class="facts">' + "".join(f"<li>{_e(line)}</li>" for line in lines) + "</ul>"
        if lines
        else ""
    )
    return (
        f'\n<section class="{classes}">\n<h3>{_e(title)}</h3>\n{facts}\n'
        + "".join(_group_html(g) for g in groups)
        + "\n</section>\n"
    )


def _group_html(key: GroupKey) -> str:
    shape, title, tiles = key
    inner = (
        '<ul class="tiles">' + "".join(_tile_html(t) for t in tiles) + "\n</ul>"
        if tiles
        else '<p class="none">—</p>'
    )
    return f'\n<div class="group {_e(shape)}"><h4>{_e(title)}</h4>\n{inner}\n</div>\n'


@lru_cache(maxsize=4096)
def _tile_html(key: TileKey) -> str:
    label, detail, kind, span, marks, marks_text = key
    span2 = " span2" if span > 1 else ""
    label_html = f'<span class="label">{_e(label)}</span>' if label else ""
    detail_html = f'<span class="detail">{_e(detail)}</span>' if detail else ""
    marks_html = (
        '<span class="marks" aria-hidden="true">'
        + "".join(_mark_html(m) for m in marks)
        + "</span>"
        if marks
        else ""
    )
    hidden = f'<span class="visually-hidden">{_e(marks_text)}</span>' if marks_text else ""
    return (
        f'\n<li class="tile k-{_e(kind)}{span2}">{label_html}\n{detail_html}\n{marks_html}\n'
        f"{hidden}</li>"
    )


def _mark_html(mark: tuple[Any, Any, Any]) -> str:
    filled, seat, text = mark
    classes = "mark" + (" on" if filled else "")
    if seat is not None:
        classes += f" seat-{_e(seat)}"
    return f'<span class="{classes}">{_e(text)}</span>'
