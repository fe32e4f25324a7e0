"""A pseudo-locale for finding text that no catalog translates.

Every message of the catalogs' template (server/translations/*.pot) becomes
``⟦...⟧`` with each ASCII letter swapped for an accented one ("Ýóúŕ ţúŕñ"),
placeholders and markup kept.  Built by the tests into a temporary folder
(never committed) as the language ``eo``, a locale Babel knows, so dates
are said by Babel as in any language.  A page or mail in it shows no plain
ASCII word except what no catalog can hold: people's and games' names,
addresses, links, time zones, Babel's day and month names."""

from __future__ import annotations

import re
import shutil
from html import unescape
from pathlib import Path

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from server import i18n

CODE = "eo"
PLAIN = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
ACCENTED = "áƀçđéƒĝĥíĵķĺḿñóṕʠŕšţúṽŵẋýžÁɃÇĐÉƑĜĤÍĴĶĹḾÑÓṔɊŔŠŢÚṼŴẊÝŽ"
SWAP = str.maketrans(PLAIN, ACCENTED)
# Kept as they are: placeholders, markup, entities.
KEPT = re.compile(r"(%\(\w+\)[sd]|%%|%[sd]|<[^>]*>|&#?\w+;)")


def pseudo(text: str) -> str:
    parts = KEPT.split(text)
    return "⟦" + "".join(p if KEPT.fullmatch(p) else p.translate(SWAP) for p in parts) + "⟧"


def build(folder: Path) -> Path:
    """The translations folder with the pseudo-locale beside nl, de, fr."""
    shutil.copytree(i18n.TRANSLATIONS, folder, dirs_exist_ok=True)
    catalog = Catalog(locale=CODE)
    for pot in templates():
        with pot.open("rb") as f:
            for message in read_po(f):
                if not message.id:
                    continue
                string = (
                    pseudo(message.id)
                    if isinstance(message.id, str)
                    else tuple(pseudo(i) for i in message.id)
                )
                catalog.add(message.id, string, flags=message.flags, context=message.context)
    out = folder / CODE / "LC_MESSAGES"
    out.mkdir(parents=True, exist_ok=True)
    with (out / "messages.po").open("wb") as f:
        write_po(f, catalog)
    with (out / "messages.mo").open("wb") as f:
        write_mo(f, catalog)
    return folder


def templates() -> list[Path]:
    """The server's catalog template and every game's: the server's
    pseudo catalog holds the games' words too (the lookup falls back to it
    when a game has no catalog in the pseudo-locale)."""
    from engine import GAMES

    folders = [i18n.TRANSLATIONS] + [
        Path(g.translations_dir()) for g in GAMES.values() if g.translations_dir()
    ]
    return sorted(pot for folder in folders for pot in folder.glob("*.pot"))


def enable(monkeypatch, folder: Path) -> None:
    """The app speaks the pseudo-locale (apps made after this call)."""
    monkeypatch.setitem(i18n.LANGUAGES, CODE, pseudo("Pseudo"))
    monkeypatch.setattr(i18n, "TRANSLATIONS", folder)
    i18n.translations.cache_clear()


def disable() -> None:
    i18n.translations.cache_clear()


def engine_proper_names() -> list[str]:
    """The games' own proper names, which no catalog holds (the engines'
    texts are another piece of work): islands, cities, captains and ids
    such as "Nova Scotia", "Magellan", "NS3" in New Found Land's
    components.  Recognised from the components' data, not listed by hand."""
    import importlib

    names: set[str] = set()

    def walk(value, key=""):
        if isinstance(value, dict):
            for k, v in value.items():
                walk(v, k)
        elif isinstance(value, (list, tuple)):
            for v in value:
                walk(v, key)
        elif isinstance(value, str) and key in ("name", "title", "island") and value[:1].isupper():
            names.add(value)
        elif isinstance(value, str) and key == "id" and re.fullmatch(r"[A-Za-z]{1,2}\d+", value):
            names.update((value, value.rstrip("0123456789")))  # "NS3", and "NS" alone

    for module in ("engine.new_found_land.components", "engine.puerto_rico.data"):
        data = importlib.import_module(module)
        for attr, value in vars(data).items():
            if attr.isupper():
                walk(value)
    return sorted(names - _catalog_ids(), key=len, reverse=True)


def _catalog_ids() -> set[str]:
    ids = set()
    for pot in templates():
        with pot.open("rb") as f:
            ids.update(m.id for m in read_po(f) if isinstance(m.id, str))
    return ids


def _babel_words() -> set[str]:
    locale = Locale.parse(CODE)
    words = {"la", "de", "a"}
    for table in (locale.days, locale.months):
        for width in ("wide", "abbreviated"):
            for name in table["format"][width].values():
                words.update(re.findall(r"\w+", name))
    # Languages named by Babel (a table's language on the lobby and the open
    # games list), the pseudo-locale's own among them.
    for code in ("en", "nl", "de", "fr", CODE):
        words.update(re.findall(r"\w+", Locale.parse(code).get_language_name(CODE)))
    return words


BABEL_WORDS = _babel_words()
# What no catalog holds: links, addresses, zones ("Europe/Amsterdam"), the
# footer's version ("pbem 0.2.dev3+gafc1234").
UNTRANSLATED = re.compile(
    r"https?://\S+|[\w.+-]+@[\w.-]+|\b[A-Za-z]+(?:/[\w+-]+)+|\bUTC\b"
    r"|\bpbem \d[\w.+-]*"
)
ASCII_WORD = re.compile(r"(?<![^\W\d_])[A-Za-z]{2,}(?![^\W\d_])")


def leftovers(text: str, names: list[str]) -> list[str]:
    """The words of ``text`` that are plain English (or codes) where the
    pseudo-locale's catalog should have said them."""
    text = UNTRANSLATED.sub(" ", text)
    whole = "|".join(re.escape(n) for n in sorted(set(names), key=len, reverse=True))
    text = re.sub(rf"(?<!\w)(?:{whole})(?!\w)", " ", text)
    return [w for w in ASCII_WORD.findall(text) if w not in BABEL_WORDS]


def visible(html: str) -> str:
    """A page's words, as the eye and a screen reader get them: the text,
    and the labels in attributes (title, alt, aria-label, placeholder, a
    button's value)."""
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    attributes = re.findall(r'\b(?:title|alt|aria-label|placeholder)="([^"]*)"', html)
    buttons = re.findall(r'<input[^>]*type="(?:submit|button)"[^>]*value="([^"]*)"', html)
    text = re.sub(r"<[^>]+>", " ", html)
    return unescape(" ".join([text, *attributes, *buttons]))
