"""The languages pbem speaks: English, Dutch, German and French.

Pages are translated by Flask-Babel (web/__init__.py picks the reader's
language: their setting, else the browser's first choice among ours); mails
by one Jinja environment per language (mail/compose.py), since the sender
and the scheduler render mail outside any request.  The catalogs live in
server/translations/<lang>/LC_MESSAGES/messages.po, compiled to .mo
(``pybabel compile -d server/translations``; tests/server/web/test_i18n.py fails
when a .mo is older than its .po, or a message or placeholder is missing).

The engines' texts for people (prompts, choices, log events, the board's
titles and rows) come as templates with values: ``Rules.prompt_message``,
and ``Words`` (engine/words.py) wherever a string is expected, marked
``N_``/``msg``/``nmsg``/``term`` in engine/ so the catalogs find them.
``say`` renders them in a language; what an engine still writes as a plain
string reads in English.

Each game carries its own catalogs, in its gettext domain and folder
(``Rules.domain``, ``Rules.translations_dir()``: for a game in a package
``<game>``, <game>/translations/<lang>/LC_MESSAGES/<game>.po), so a
game installed as a plug-in brings its words along.  A language's catalog
here is the server's with every installed game's behind it as fallbacks;
``translations(code, domain)`` puts one game's first, for a text known to be
that game's (two games may say one English word differently).
"""

from __future__ import annotations

from functools import cache, lru_cache
from pathlib import Path

from babel import Locale
from babel.support import NullTranslations, Translations

from engine import GAMES
from engine.words import Words, render
from server import typography
from server.language_codes import DEFAULT, known
from server.language_codes import LANGUAGES as LANGUAGES  # read from here by pages and mails

TRANSLATIONS = Path(__file__).resolve().parent / "translations"


def translate(
    code: str | None, template: str, values: dict | None = None, domain: str | None = None
) -> str:
    """``template`` (a msgid with ``%(name)s`` placeholders, such as an
    engine's ``Rules.prompt_message``) in language ``code``, filled in."""
    text = translations(code or DEFAULT, domain).gettext(template)
    # A value may be a name the catalogs know (a frame tile, a role): said too.
    return text % {k: say(code, v, domain) for k, v in values.items()} if values else text


@cache
def translations(code: str, domain: str | None = None) -> NullTranslations:
    """The catalog of ``code``: the server's, then the games' (``domain``'s
    first when given).  English has none (its words are the msgids)."""
    code = known(code) or DEFAULT
    if code == DEFAULT:
        return ENGLISH
    own = [
        _game_catalog(g.domain, g.translations_dir(), code)
        for g in GAMES.values()
        if g.domain == domain
    ]
    others = [
        _game_catalog(g.domain, g.translations_dir(), code)
        for g in GAMES.values()
        if g.domain != domain
    ]
    chain = [*own, Translations.load(str(TRANSLATIONS), [code]), *others]
    first = chain[0]
    for catalog in chain[1:]:
        first.add_fallback(catalog)
    typography.polish_catalog(first, code)
    return first


def _game_catalog(domain: str, folder: str | None, code: str) -> NullTranslations:
    """A fresh copy of one game's catalog (a fallback chain links copies)."""
    if folder is None:
        return NullTranslations()
    return Translations.load(folder, [code], domain=domain)


def say(code: str | None, text: str, domain: str | None = None) -> str:
    """An engine's text (a ``Words`` from engine/words.py, or a plain string,
    which stays as it is) in language ``code``; ``domain``: the game whose
    words these are, when the caller knows."""
    if not isinstance(text, Words):
        return text
    catalog = translations(code or DEFAULT, domain)
    if catalog is ENGLISH and not text.values:
        # English, the engines' own words (no catalog behind it): a Words
        # without values reads as its template, with English's quotes.
        return _english(str.__str__(text))
    return render(text, catalog.gettext, catalog.ngettext)


# -- English -------------------------------------------------------------------
@lru_cache(maxsize=8192)
def _polished(text: str) -> str:
    return typography.polish(text, DEFAULT)


def _english(text):
    # A msgid is a str; anything else handed to gettext (a lazy string, a
    # Markup) is left as it is, as NullTranslations leaves it.
    return _polished(text) if type(text) is str else text


class English(NullTranslations):
    """English's catalog: every msgid is its own entry, with English's
    “quotes” and apostrophes (typography.py), as the other languages'
    catalogs are polished when they are loaded.  Pages (web/languages.py
    gives it to Flask-Babel) and mails alike read it."""

    pbem_polished = True  # polish_catalog has nothing more to do

    def gettext(self, message):
        return _english(message)

    def ngettext(self, singular, plural, n):
        return _english(singular if n == 1 else plural)

    def pgettext(self, context, message):
        return _english(message)

    def npgettext(self, context, singular, plural, n):
        return _english(singular if n == 1 else plural)

    ugettext = gettext
    ungettext = ngettext
    upgettext = pgettext
    unpgettext = npgettext


ENGLISH = English()


# -- ordinals ------------------------------------------------------------------
# A place in a ranking ("1st", "1er", "1.", "1e"): CLDR's ordinal rules
# (babel's Locale.ordinal_form) say which category a number falls in for a
# language (English: one 1, 21; two 2, 22; few 3, 23; other 4, 11, 12, 13;
# French: one 1, other the rest; German and Dutch: other only), and each
# category's form is a catalog entry whose msgid is English's form.
def _ordinal_form(catalog, category: str) -> str:
    # Literal calls, so that the catalogs find each form.
    if category == "one":
        return catalog.pgettext("ordinal one", "%(num)sst")
    if category == "two":
        return catalog.pgettext("ordinal two", "%(num)snd")
    if category == "few":
        return catalog.pgettext("ordinal few", "%(num)srd")
    return catalog.pgettext("ordinal other", "%(num)sth")


def ordinal(value, code: str | None):
    """The place ``value`` (1: first) as language ``code`` writes it;
    anything else (no place yet: None) as it is."""
    if isinstance(value, bool) or not isinstance(value, int):
        return value
    code = known(code) or DEFAULT
    category = Locale.parse(code).ordinal_form(value)
    return _ordinal_form(translations(code), category) % {"num": typography.number(value, code)}
