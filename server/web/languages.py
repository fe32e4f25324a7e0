"""Which language a page speaks: the reader's choice in Settings, else the
browser's first choice among ours (Accept-Language), else English."""

from __future__ import annotations

from functools import lru_cache

from flask import g, has_app_context, request
from flask_babel import Babel, get_translations
from flask_login import current_user
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from engine.words import Words, term
from server.i18n import DEFAULT, LANGUAGES, TRANSLATIONS, known, say


def page_language() -> str:
    # Asked several times a page (the template, its texts, the view): the
    # reader is looked up once here, the browser's choice once per header.
    user = current_user._get_current_object()  # None outside a request
    if user is not None and user.is_authenticated:
        code = known(user.language)
        if code:
            return code
    return browser_language(request.environ.get("HTTP_ACCEPT_LANGUAGE"))


@lru_cache(maxsize=256)
def browser_language(header: str | None) -> str:
    """The browser's first choice among ours for its Accept-Language header
    (what ``request.accept_languages`` parses), else English."""
    return parse_accept_header(header, LanguageAccept).best_match(list(LANGUAGES), default=DEFAULT)


def say_here(text: str) -> str:
    """An engine's text on this page, in its language: ``Words`` as they
    are, a plain string (an option's label) as the catalog's entry for it."""
    return say(page_language(), text if isinstance(text, Words) else term(text))


def _catalog():
    if not has_app_context():
        return get_translations()
    catalog = g.get("pbem_catalog")
    if catalog is None:
        catalog = g.pbem_catalog = get_translations()
    return catalog


def init_app(app) -> None:
    Babel(app, locale_selector=page_language, default_translation_directories=str(TRANSLATIONS))
    # Flask-Babel's callables look the catalog up anew for each of the
    # page's many texts; the page's catalog is found once (Flask-Babel keeps
    # the page's language for the whole request too).
    app.jinja_env.install_gettext_callables(
        gettext=lambda s: _catalog().ugettext(s),
        ngettext=lambda s, p, n: _catalog().ungettext(s, p, n),
        pgettext=lambda c, s: _catalog().upgettext(c, s),
        npgettext=lambda c, s, p, n: _catalog().unpgettext(c, s, p, n),
        newstyle=True,
    )
    app.jinja_env.globals["page_language"] = page_language
    app.jinja_env.filters["say"] = say_here
    # A {% trans %} block's line breaks are spaces: the catalogs hold one
    # line per message (babel.cfg extracts them the same way).
    app.jinja_env.policies["ext.i18n.trimmed"] = True
