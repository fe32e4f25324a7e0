"""Wording shared by the engines and the server.

English helpers: a count with the noun in the right form ("1 card",
"2 cards") and the article a word takes ("an indigo tile"), in one place so
a message never reads "1 cards".

Other languages: an engine stays pure and knows no catalog, so a text it
writes for people may be a ``Words``: English text (a ``str``, usable as
one) that also remembers its template and values.  The server hands it to
``render`` with a catalog's gettext and ngettext to say it in the reader's
language; values that are ``Words`` themselves (a good, a building) are
translated too.  The templates are marked by the calls ``msg``, ``nmsg`` and
``term``, which scripts/catalogs.sh extracts.  Anything built by plain
string formatting stays English: a missing translation reads as English,
never as an error.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any

_new_str = str.__new__

_IRREGULAR = {"quarry": "quarries", "colony": "colonies"}


def plural_of(noun: str) -> str:
    if noun in _IRREGULAR:
        return _IRREGULAR[noun]
    if noun.endswith(("s", "sh", "ch", "x")):
        return noun + "es"
    return noun + "s"


def count(n: int, noun: str, plural: str | None = None) -> str:
    """``count(1, "card")`` is "1 card"; ``count(3, "card")`` "3 cards".
    The noun's last word takes the plural: "one-time card" -> "one-time cards"."""
    if n == 1:
        return f"{n} {noun}"
    if plural is None:
        head, _, last = noun.rpartition(" ")
        plural = f"{head} {plural_of(last)}" if head else plural_of(last)
    return f"{n} {plural}"


def N_(text: str) -> str:
    """Marks an English template the server may translate (gettext_noop):
    the server's catalogs find it (scripts/catalogs.sh extracts ``N_``)."""
    return text


def fill(template: str, values: dict) -> str:
    """A template with its ``%(name)s`` values, as ``Rules.prompt_message``
    hands them out."""
    return template % values if values else template


def article(word: str) -> str:
    """The indefinite article and ``word``: "an indigo", "a corn"."""
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word


class Words(str):
    """English text that can be said again in another language.

    ``template`` has ``%(name)s`` placeholders filled from ``values``;
    ``plural`` and ``n`` choose between two forms through the catalog's
    plural rules."""

    # The four parts live in one tuple: engines make thousands of these a
    # game, on the simulation path too (which drops its events), so making
    # one is kept as cheap as a str subclass allows.
    _parts: tuple[str, Mapping[str, Any], str | None, int | None]

    def __new__(
        cls,
        template: str,
        values: Mapping[str, Any] | None = None,
        plural: str | None = None,
        n: int | None = None,
    ) -> Words:
        form = plural if plural is not None and n != 1 else template
        self = _new_str(cls, form % values if values else form)
        self._parts = (template, values or {}, plural, n)
        return self

    template = property(lambda self: self._parts[0])
    values = property(lambda self: self._parts[1])
    plural = property(lambda self: self._parts[2])
    n = property(lambda self: self._parts[3])

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"t": self.template}
        if self.values:
            data["v"] = {
                k: v.to_json() if isinstance(v, Words) else v for k, v in self.values.items()
            }
        if self.plural is not None:
            data["p"], data["n"] = self.plural, self.n
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Words:
        values = {
            k: cls.from_json(v) if isinstance(v, dict) else v for k, v in data.get("v", {}).items()
        }
        return cls(data["t"], values, data.get("p"), data.get("n"))


def msg(template: str, **values: Any) -> Words:
    """A sentence or label: ``msg("%(who)s sells %(good)s.", who=..., good=term("corn"))``."""
    words = _new_str(Words, template % values if values else template)
    words._parts = (template, values, None, None)
    return words


def nmsg(singular: str, plural: str, n: int, **values: Any) -> Words:
    """A text with a number in it: the catalog picks the form for ``n``
    (``%(n)s`` is filled with it)."""
    return Words(singular, {"n": n, **values}, plural, n)


@lru_cache(maxsize=4096)
def term(word: str) -> Words:
    """A name the catalogs translate on its own: a good, a role, a building.
    (Words never change, so one object per name serves every caller.)"""
    return Words(word)


def render(
    text: str, gettext: Callable[[str], str], ngettext: Callable[[str, str, int], str]
) -> str:
    """``text`` in the language of ``gettext``/``ngettext``; plain strings as they are."""
    if not isinstance(text, Words):
        return text
    if not text.template:
        return ""  # gettext("") is the catalog's header
    if text.plural is not None:
        form = ngettext(text.template, text.plural, text.n)
    else:
        form = gettext(text.template)
    if not text.values:
        return form
    return form % {k: render(v, gettext, ngettext) for k, v in text.values.items()}


def listing(parts: list, separator: str = ", ") -> Words:
    """``parts`` joined, each said in the reader's language.  The joining
    template is not in any catalog: gettext hands it back as it is.  A
    separator that is ``Words`` (``msg("; ")``) is translated too, for the
    languages that space their punctuation ("4 points ; Q1" in French)."""
    keys = [f"p{i}" for i in range(len(parts))]
    values: dict[str, Any] = dict(zip(keys, parts))
    if isinstance(separator, Words):
        values["sep"] = separator
        separator = "%(sep)s"
    return Words(separator.join(f"%({k})s" for k in keys), values)
