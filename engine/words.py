"""English wording shared by the engines and the server: a count with the
noun in the right form ("1 card", "2 cards") and the article a word takes
("an indigo tile").  One place, so a message never reads "1 cards"."""
from __future__ import annotations

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
    """A template with its ``%(name)s`` values, as ``Game.prompt_message``
    hands them out."""
    return template % values if values else template


def article(word: str) -> str:
    """The indefinite article and ``word``: "an indigo", "a corn"."""
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word
