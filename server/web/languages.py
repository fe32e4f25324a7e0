"""Which language a page speaks: the reader's choice in Settings, else the
browser's first choice among ours (Accept-Language), else English."""

from __future__ import annotations

from functools import lru_cache

from flask import g, has_app_context, has_request_context, request
from flask_babel import Babel, get_translations
from flask_login import current_user
from jinja2 import pass_eval_context
from jinja2.nodes import EvalContext
from markupsafe import Markup
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from engine.words import Words, term
from server.i18n import DEFAULT, ENGLISH, LANGUAGES, TRANSLATIONS, known, ordinal, say
from server.typography import number, polish_catalog, signed


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


def _words_here(value):
    return say(page_language(), value) if isinstance(value, Words) else value


def _catalog():
    if not has_app_context():
        return _polished(get_translations())
    # Asked for each text of a page: the request's g is found once here
    # (each use of the g proxy finds it anew: most of a lookup's time).
    page = g._get_current_object()
    catalog = getattr(page, "pbem_catalog", None)
    if catalog is None:
        catalog = page.pbem_catalog = _polished(get_translations())
    return catalog


def _polished(catalog):
    """The page's catalog with its language's punctuation (server/typography.py),
    polished the first time Flask-Babel hands it out (it keeps it per language)."""
    if has_request_context() and not getattr(catalog, "pbem_polished", False):
        polish_catalog(catalog, page_language())
    return catalog


# The templates' gettext callables, as Jinja's i18n extension makes them with
# ``newstyle=True`` (jinja2/ext.py: the text is always a format string, its
# values escaped on an HTML page), but taking the evaluation context where
# Jinja's take the whole template context: Jinja makes a new Context for each
# call of a context function inside a loop or after a ``{% set %}`` (most of
# a page's texts), and ``_`` went through one more such call to find
# ``gettext``.  None of ours needs the template's variables.
@pass_eval_context
def _gettext(eval_ctx: EvalContext, message: str, /, **variables) -> str:
    text = _catalog().ugettext(message)
    if not variables and "%" not in text:
        # Most texts: formatting would give the same text back, slower.
        return Markup(text) if eval_ctx.autoescape else text
    return (Markup(text) if eval_ctx.autoescape else text) % variables


@pass_eval_context
def _ngettext(eval_ctx: EvalContext, singular: str, plural: str, num: int, /, **variables) -> str:
    variables.setdefault("num", num)
    text = _catalog().ungettext(singular, plural, num)
    return (Markup(text) if eval_ctx.autoescape else text) % variables


@pass_eval_context
def _pgettext(eval_ctx: EvalContext, context: str, message: str, /, **variables) -> str:
    variables.setdefault("context", context)
    text = _catalog().upgettext(context, message)
    return (Markup(text) if eval_ctx.autoescape else text) % variables


@pass_eval_context
def _npgettext(
    eval_ctx: EvalContext, context: str, singular: str, plural: str, num: int, /, **variables
) -> str:
    variables.setdefault("context", context)
    variables.setdefault("num", num)
    text = _catalog().unpgettext(context, singular, plural, num)
    return (Markup(text) if eval_ctx.autoescape else text) % variables


def init_app(app) -> None:
    babel = Babel(
        app, locale_selector=page_language, default_translation_directories=str(TRANSLATIONS)
    )
    # English has no catalog: Flask-Babel would hand out an empty one, and
    # the msgids' straight quotes would show.  Its catalog is i18n's
    # (English's quotes and apostrophes), for templates and views alike.
    with app.app_context():  # the domain reads the app's Babel settings
        domain = babel.domain_instance
    domain.cache[DEFAULT, domain.domain[0]] = ENGLISH
    # Flask-Babel's callables look the catalog up anew for each of the
    # page's many texts; the page's catalog is found once (Flask-Babel keeps
    # the page's language for the whole request too).  Newstyle: a
    # {% trans %} block passes its values to gettext, which fills them in.
    app.jinja_env.newstyle_gettext = True
    app.jinja_env.globals.update(
        _=_gettext,
        gettext=_gettext,
        ngettext=_ngettext,
        pgettext=_pgettext,
        npgettext=_npgettext,
    )
    app.jinja_env.globals["page_language"] = page_language
    app.jinja_env.filters["say"] = say_here
    app.jinja_env.filters["number"] = lambda value: number(value, page_language())
    app.jinja_env.filters["ordinal"] = lambda value: ordinal(value, page_language())
    app.jinja_env.filters["signed"] = lambda value, digits=1: signed(value, page_language(), digits)
    # Words printed as they are (a deleted player's "Former player 7" among
    # the names) read in the page's language too.
    app.jinja_env.finalize = _words_here
    # A {% trans %} block's line breaks are spaces: the catalogs hold one
    # line per message (babel.cfg extracts them the same way).
    app.jinja_env.policies["ext.i18n.trimmed"] = True
