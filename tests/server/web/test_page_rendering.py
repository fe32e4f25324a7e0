"""The cheaper ways the pages are rendered (web/languages.py's gettext
callables, web/speedups.py's url_for, web/forms.py's widgets) give what the
general ones gave: the same texts in the same language, the same links,
the same HTML, escaped the same way."""

from __future__ import annotations

import pytest
from clock_helpers import sign_in, started_game
from flask import url_for
from jinja2 import Environment
from markupsafe import Markup
from web_helpers import form_for, forms
from wtforms import HiddenField, TextAreaField
from wtforms.validators import InputRequired, Length, Optional
from wtforms.widgets import HiddenInput, TextArea
from wtforms.widgets import html_params as wtforms_html_params

from server.db import db
from server.models import User
from server.web import speedups
from server.web.forms import FastHiddenInput, FastTextArea, Form, TalkForm, html_params
from server.web.languages import _catalog
from server.web.moderation import ResignForm

# Every form a template uses: plain, with values (escaped on a page), plural
# with its count, with a message context, and a {% trans %} block.
TEXTS = [
    '{{ _("Board") }}|{{ gettext("Game log") }}',
    '{{ _("100%% sure, <b>50%%</b>") }}|{{ _("Not in any catalog") }}',
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


# -- the templates' url_for (web/speedups.py) -------------------------------------
LINKS = [
    ("static", {"filename": "pbem.css"}),
    ("lobby.index", {}),
    ("records.position", {"game_id": 7, "seq": 12}),
    ("records.position", {"game_id": 7, "seq": "12"}),
    ("play.game", {"game_id": 7}),
    ("accounts.login", {"next": "/games/7?a=<b>&c"}),
    ("accounts.login", {"next": "/games/8"}),
    ("people.profile", {"user_id": 3}),
]


@pytest.mark.parametrize("mount", ["", "/pbem"])
def test_the_templates_url_for_builds_what_flasks_builds(sqlite_app, mount):
    page_url_for = sqlite_app.jinja_env.globals["url_for"]
    assert page_url_for is speedups.page_url_for
    for _ in range(2):  # built, then remembered
        with sqlite_app.test_request_context("/games/7", base_url=f"http://pbem.test{mount}"):
            for endpoint, values in LINKS:
                assert page_url_for(endpoint, **values) == url_for(endpoint, **values)
            assert page_url_for("play.game", game_id=7) == f"{mount}/games/7"


def test_a_link_is_built_anew_where_the_request_stands_elsewhere(sqlite_app):
    """The same endpoint and values under another mount point, host or
    scheme: not the remembered link (no stale link from another request)."""
    page_url_for = speedups.page_url_for
    seen = set()
    for base in ("http://a.test", "http://a.test/sub", "https://b.test/other", "http://a.test"):
        with sqlite_app.test_request_context("/", base_url=base):
            link = page_url_for("records.log", game_id=5)
            assert link == url_for("records.log", game_id=5)
            seen.add(link)
    assert seen == {"/games/5/log", "/sub/games/5/log", "/other/games/5/log"}


def test_what_the_memory_does_not_hold_goes_to_flask(sqlite_app):
    page_url_for = speedups.page_url_for
    speedups._built.clear()
    with sqlite_app.test_request_context("/games/7", base_url="http://pbem.test"):
        assert page_url_for("play.game", game_id=7, _external=True) == "http://pbem.test/games/7"
        assert page_url_for("play.game", game_id=7, _anchor="talk") == "/games/7#talk"
        assert page_url_for(".game", game_id=7) == url_for(".game", game_id=7)
        assert page_url_for("play.game", game_id=7, x=None) == url_for("play.game", game_id=7)
        assert page_url_for("play.game", game_id=True) == url_for("play.game", game_id=True)
        assert not speedups._built
    sqlite_app.config["SERVER_NAME"] = "pbem.test"
    with sqlite_app.app_context():  # no request: Flask's external link
        assert page_url_for("play.game", game_id=7) == "http://pbem.test/games/7"
    assert not speedups._built


def test_the_memory_of_links_is_bounded(sqlite_app, monkeypatch):
    monkeypatch.setattr(speedups, "LIMIT", 3)
    speedups._built.clear()
    with sqlite_app.test_request_context("/"):
        for game_id in range(10):
            assert speedups.page_url_for("play.game", game_id=game_id) == f"/games/{game_id}"
            assert len(speedups._built) <= 3


def test_a_url_defaults_function_is_heard(sqlite_app):
    """With a url_defaults function (none but the static files' today) every
    link is built by Flask."""
    with sqlite_app.test_request_context("/"):
        assert speedups.page_url_for("accounts.login") == "/login"
    sqlite_app.url_default_functions[None].append(
        lambda endpoint, values: values.setdefault("lang", "nl")
    )
    with sqlite_app.test_request_context("/"):
        assert speedups.page_url_for("accounts.login") == "/login?lang=nl"


# -- the fast widgets (web/forms.py) ------------------------------------------
ATTRIBUTES = [
    {},
    {"rows": 2, "cols": 50, "maxlength": 500},
    {"class_": "wide", "data_role": "x", "aria_label": "say <it>", "readonly": True},
    {"disabled": False, "placeholder": 'a "quoted" & <tagged> text', "title": Markup('a "b" <i>')},
    {"id": "other", "value": "given <value>", "required": False},
]


class WidgetForm(Form):
    talk = TextAreaField("Talk", [InputRequired(), Length(1, 500)])
    reason = TextAreaField("Why", [Optional(), Length(max=300)])
    seq = HiddenField("seq", [InputRequired()])
    plain = HiddenField()


@pytest.mark.parametrize("attrs", ATTRIBUTES)
@pytest.mark.parametrize("data", [{}, {"talk": '<b>"hi"</b> & co', "seq": "12", "plain": "<x>"}])
def test_the_fast_widgets_write_what_wtforms_writes(sqlite_app, attrs, data):
    with sqlite_app.test_request_context("/"):
        form = WidgetForm(data=data, prefix="p")
        for field in form:
            if isinstance(field.widget, TextArea):
                fast = FastTextArea()
            elif isinstance(field.widget, HiddenInput) and field.name != "p-csrf_token":
                fast = FastHiddenInput()
            else:
                continue
            assert fast(field, **attrs) == field.widget(field, **attrs), (field.name, attrs)
        assert html_params(**ATTRIBUTES[3]) == wtforms_html_params(**ATTRIBUTES[3])


def test_the_game_pages_forms_use_them(sqlite_app):
    with sqlite_app.test_request_context("/"):
        assert isinstance(TalkForm().text.widget, FastTextArea)
        resign = ResignForm(prefix="resign", seq=4)
        assert isinstance(resign.reason.widget, FastTextArea)
        assert isinstance(resign.seq.widget, FastHiddenInput)
        assert resign.seq() == '<input id="resign-seq" name="resign-seq" type="hidden" value="4">'


# -- the whole game page ------------------------------------------------------
def test_the_game_page_escapes_what_players_write(sqlite_app):
    """A player's name and table talk with markup come out as text, in every
    part of the page (players, turn, log, board, talk); each form posts its
    CSRF token."""
    game = started_game(sqlite_app, players=2, tag="x")
    hostile = '<script>alert("x")</script>'
    with sqlite_app.app_context(), db.connection_context():
        User.update(name=hostile).where(User.email == "x1@example.org").execute()
    client = sign_in(sqlite_app, "x0@example.org")
    page = client.get(f"/games/{game.id}").text
    talk = form_for(page, "/talk")
    client.post(talk["action"], data={**talk["fields"], "text": f"hi {hostile} & <b>"})
    for reader in (client, sign_in(sqlite_app, "x1@example.org")):
        page = reader.get(f"/games/{game.id}", headers={"Accept-Language": "nl"}).text
        assert "<script>" not in page
        assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;" in page
        assert "hi &lt;script&gt;" in page and "&amp; &lt;b&gt;" in page
        assert "Tafelpraat" in page and "Table talk" not in page  # the Dutch page
        for form in forms(page):
            if form["method"] == "post":
                assert any(name.endswith("csrf_token") for name in form["fields"]), form
