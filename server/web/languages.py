"""Which language a page speaks: the reader's choice in Settings, else the
browser's first choice among ours (Accept-Language), else English."""

from __future__ import annotations

from flask import request
from flask_babel import Babel
from flask_login import current_user

from engine.words import Words, term
from server.i18n import DEFAULT, LANGUAGES, TRANSLATIONS, known, say


def page_language() -> str:
    if current_user and current_user.is_authenticated:
        code = known(current_user.language)
        if code:
            return code
    return request.accept_languages.best_match(list(LANGUAGES), default=DEFAULT)


def say_here(text: str) -> str:
    """An engine's text on this page, in its language: ``Words`` as they
    are, a plain string (an option's label) as the catalog's entry for it."""
    return say(page_language(), text if isinstance(text, Words) else term(text))


def init_app(app) -> None:
    Babel(app, locale_selector=page_language, default_translation_directories=str(TRANSLATIONS))
    app.jinja_env.globals["page_language"] = page_language
    app.jinja_env.filters["say"] = say_here
    # A {% trans %} block's line breaks are spaces: the catalogs hold one
    # line per message (babel.cfg extracts them the same way).
    app.jinja_env.policies["ext.i18n.trimmed"] = True
