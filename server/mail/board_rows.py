"""A board section's rows (label, value) as HTML table rows, for the turn
mail and the game page.

A section's rows were written by a template loop that escaped every label
and value on every page: a board has some forty rows, and that loop was
several per cent of a web worker's time.  Most sections read the same
from one move to the next (the other player's plantations, the buildings
left), so the rows' HTML is kept by their text: an entry is found again
only by rows that say exactly the same words in the same language, so no
reader sees anything another could not."""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from markupsafe import Markup, escape

# How each reader's table writes a row; {label} and {value} are escaped text.
PAGE_ROW = '<tr><th scope="row">{label}</th><td>{value}</td></tr>'
MAIL_ROW = (
    '<tr><td style="padding: 1px 6px; vertical-align: top; color: #555;">{label}</td>'
    '<td style="padding: 1px 6px;">{value}</td></tr>\n'
)


def rows_html(rows: Iterable[Iterable[str]], row: str = PAGE_ROW) -> Markup:
    """``rows`` written with ``row`` (PAGE_ROW or MAIL_ROW), every word escaped."""
    return Markup(_written(tuple(tuple(pair) for pair in rows), row))


# Some 2 kB a section: the sections of the games being played now.
@lru_cache(maxsize=2048)
def _written(rows: tuple[tuple[str, ...], ...], row: str) -> str:
    return "".join(row.format(label=escape(label), value=escape(value)) for label, value in rows)
