"""The drawn board's HTML is written in Python
(server/web/drawings.py) and cached by each panel's content, instead of a
Jinja macro per tile.  It must read byte for byte as the macro it replaced
(kept below) wrote it, for both games, any viewer and language, and strange
words must stay escaped."""

from __future__ import annotations

from functools import partial

import pytest
from jinja2 import Environment

from engine import get_game
from server.i18n import say
from server.web import drawings
from tests.engine.game_walks import positions

# templates/play/_board.html before the board's HTML was written in Python,
# as it was: the Python must write the same HTML.
MACRO = """{% macro board_panel(p) %}
<section class="panel{% if p.mine %} mine{% endif %}{% if p.wide %} wide{% endif %}{% if p.seat is not none %} seat-{{ p.seat }}{% endif %}">
<h3>{{ p.title }}</h3>
{% if p.lines %}<ul class="facts">{% for line in p.lines %}<li>{{ line }}</li>{% endfor %}</ul>{% endif %}
{% for g in p.groups %}
<div class="group {{ g.shape }}"><h4>{{ g.title }}</h4>
{% if g.tiles %}<ul class="tiles">{% for t in g.tiles %}
<li class="tile k-{{ t.kind }}{% if t.span > 1 %} span2{% endif %}">{% if t.label %}<span class="label">{{ t.label }}</span>{% endif %}
{% if t.detail %}<span class="detail">{{ t.detail }}</span>{% endif %}
{% if t.marks %}<span class="marks" aria-hidden="true">{% for m in t.marks %}<span class="mark{% if m.filled %} on{% endif %}{% if m.seat is not none %} seat-{{ m.seat }}{% endif %}">{{ m.text }}</span>{% endfor %}</span>{% endif %}
{% if t.marks_text %}<span class="visually-hidden">{{ t.marks_text }}</span>{% endif %}</li>{% endfor %}
</ul>{% else %}<p class="none">—</p>{% endif %}
</div>
{% endfor %}
</section>
{% endmacro %}
"""

OLD = Environment(autoescape=True).from_string(MACRO).module


@pytest.mark.parametrize(
    "game, players, options",
    [
        ("puerto_rico", 2, {}),
        ("puerto_rico", 5, {"buildings": "random"}),
        ("new_found_land", 3, {}),
    ],
)
@pytest.mark.parametrize("language", ["en", "de", "fr"])
def test_the_panels_read_as_the_macro_wrote_them(game, players, options, language):
    kind = get_game(game)
    names = ["<b>Ann</b> & co", "Bo", "Cy", "Di", "Ed"][:players]
    for state in positions(kind, players, options, seed=players, every=40):
        for viewer in (None, 0, 1):
            view = kind.view(state, viewer)
            for p in kind.board_layout(view, names, partial(say, language)):
                assert drawings.panel_html(p) == str(OLD.board_panel(p))


def test_strange_words_stay_escaped():
    from engine.layout import group, mark, panel, tile

    odd = "<script>\"x\" & 'y'</script>"
    p = panel(
        odd,
        [
            group(odd, [tile(odd, odd, odd, span=2, marks=[mark(True, 3, odd)], marks_text=odd)]),
            group(odd, [], odd),
            group("", [tile("", kind="empty"), tile("", marks=[mark(False)])]),
        ],
        [odd, "", "a line"],
        seat=0,
        mine=True,
        wide=True,
    )
    html = drawings.panel_html(p)
    assert html == str(OLD.board_panel(p))
    assert "<script>" not in html
