"""The cheaper ways the pages are rendered (web/languages.py's gettext
callables, ...) give what the general ones gave: the same texts in the same
language, escaped the same way."""

from __future__ import annotations

import pytest
from jinja2 import Environment

from server.web.languages import _catalog

# Every form a template uses: plain, with values (escaped on a page), plural
# with its count, with a message context, and a {% trans %} block.
TEXTS = [
    '{{ _("Board") }}|{{ gettext("Game log") }}',
    '{{ _("You play seat %(number)s (%(name)s).", number=2, name=who) }}',
    '{{ _("seat %(number)s", number=who) }}',
    '{{ ngettext("Whole log (%(num)d row)", "Whole log (%(num)d rows)", 1) }}',
    '{{ ngettext("Whole log (%(num)d row)", "Whole log (%(num)d rows)", 7) }}',
    '{{ pgettext("menu", "Board") }}|{{ npgettext("menu", "%(num)d row", "%(num)d rows", 2) }}',
    '{% for i in [1, 2] %}{% set x = i %}{{ _("seat %(number)s", number=x) }}{% endfor %}',
    '{% trans login="/login?next=<x>" %}(Opened from a mail link: this browser may play '
    'this seat only. <a href="{{ login }}">Sign in</a> for your other games and '
    "settings.){% endtrans %}",
]


def jinja_reference(autoescape: bool) -> Environment:
    """Jinja's own newstyle callables over the same catalog."""
    env = Environment(extensions=["jinja2.ext.i18n"], autoescape=autoescape)
    env.policies["ext.i18n.trimmed"] = True
    env.install_gettext_callables(
        gettext=lambda s: _catalog().ugettext(s),
        ngettext=lambda s, p, n: _catalog().ungettext(s, p, n),
        pgettext=lambda c, s: _catalog().upgettext(c, s),
        npgettext=lambda c, s, p, n: _catalog().unpgettext(c, s, p, n),
        newstyle=True,
    )
    return env


@pytest.mark.parametrize("language", ["en", "nl", "fr"])
@pytest.mark.parametrize("autoescape", [True, False])
def test_the_templates_gettext_says_what_jinjas_says(sqlite_app, language, autoescape):
    ours = sqlite_app.jinja_env.overlay(autoescape=autoescape)
    reference = jinja_reference(autoescape)
    who = '<script>alert("x")</script>'
    with sqlite_app.test_request_context(headers={"Accept-Language": language}):
        for text in TEXTS:
            got = ours.from_string(text).render(who=who)
            assert got == reference.from_string(text).render(who=who), text
            assert "<script>" not in got if autoescape else True
        if language == "nl":
            assert ours.from_string('{{ _("Board") }}').render() != "Board"


def test_a_text_on_a_page_is_markup_and_its_values_are_escaped(sqlite_app):
    with sqlite_app.test_request_context():
        env = sqlite_app.jinja_env
        value = env.from_string('{{ _("seat %(number)s", number=n) }}').render(n="<b>")
        assert value == "seat &lt;b&gt;"
        assert env.globals["gettext"] is env.globals["_"]
        # The {% trans %} block's link stays a link.
        link = env.from_string(
            '{% trans login="/l" %}(Opened from a mail link: this browser may play this seat '
            'only. <a href="{{ login }}">Sign in</a> for your other games and '
            "settings.){% endtrans %}"
        ).render()
        assert '<a href="/l">' in link
