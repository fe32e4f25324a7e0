"""Each language's way of writing numbers, in one place: the templates and
mails call these instead of formatting by hand ("%+.1f" wrote "+1.5" on a
French page that says "1,5" elsewhere)."""

from __future__ import annotations

import re

from babel.numbers import format_decimal

from server.language_codes import DEFAULT, known


def signed(value: float, code: str | None, digits: int = 1) -> str:
    """``value`` with its sign always written, in language ``code``'s
    numbers: "+1.5" in English, "+1,5" in French, "−0,3" where CLDR says so."""
    places = "0" * digits
    pattern = f"+0.{places};-0.{places}" if digits else "+0;-0"
    return format_decimal(value, format=pattern, locale=known(code) or DEFAULT)


def number(value, code: str | None):
    """A number (a score, a seat, a part of a breakdown) as language ``code``
    writes it; anything else (an engine's "—") as it is."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return value
    return format_decimal(value, locale=known(code) or DEFAULT)


# -- punctuation and quotes ---------------------------------------------------
# French sets a narrow no-break space (U+202F) before : ; ! ? and inside
# « »; German quotes „so“, Dutch “zo”.  Applied to each catalog when it is
# loaded (server/i18n.py, web/languages.py), so every text the catalogs
# give (pages, mails, the catcher, engine words) follows it, and no
# translator has to type the right space by hand.  English has no catalog
# file (its words are the msgids): its catalog is i18n.English, whose every
# entry is its msgid polished, for pages and mails alike; a mail is also
# polished whole (mail/compose.py), for what code joined.
NARROW = "\u202f"
_TAG = re.compile(r"(<[^>]*>)")
# An HTML entity (&amp;) ends in ';' that is no punctuation.
_FR_BEFORE = re.compile(
    r"(?<!&[a-zA-Z]{2})(?<!&[a-zA-Z]{3})(?<!&[a-zA-Z]{4})(?<!&[a-zA-Z]{5})(?<!&#\d{2})"
    r"[ \u00a0\u202f]?([:;!?])(?=\s|$|[»)\"<])"
)
_STRAIGHT = re.compile(r'"([^"]+)"')
_QUOTES = {"fr": ("«", "»"), "de": ("„", "“"), "nl": ("“", "”"), "en": ("“", "”")}
# English writes "don’t": an apostrophe between two letters.
_APOSTROPHE = re.compile(r"(?<=[A-Za-z])'(?=[A-Za-z])")
POLISHED = ("en", "fr", "de", "nl")


def _text_part(part: str, code: str) -> str:
    if code in _QUOTES:
        left, right = _QUOTES[code]
        part = _STRAIGHT.sub(lambda m: f"{left}{m.group(1).strip()}{right}", part)
    if code == "en":
        part = _APOSTROPHE.sub("\u2019", part)
    if code == "fr":
        part = re.sub(r"«[ \u00a0\u202f]?", "«" + NARROW, part)
        part = re.sub(r"[ \u00a0\u202f]?»", NARROW + "»", part)
        part = _FR_BEFORE.sub(lambda m: NARROW + m.group(1), part)
    return part


def polish(text: str, code: str | None) -> str:
    """``text`` (a catalog's entry, a whole mail) with language ``code``'s
    punctuation and quotes; HTML tags in it (a link in a sentence) are left
    as they are.  Polishing twice changes nothing (a mail's texts come from
    polished catalogs)."""
    if code not in POLISHED or not text:
        return text
    parts = _TAG.split(text)
    return "".join(p if i % 2 else _text_part(p, code) for i, p in enumerate(parts))


def polish_catalog(catalog, code: str | None) -> None:
    """Polish every entry of a loaded catalog (and those it falls back on)
    in place, once."""
    while catalog is not None:
        entries = getattr(catalog, "_catalog", None)
        if entries is not None and not getattr(catalog, "pbem_polished", False):
            for key, value in entries.items():
                if key and isinstance(value, str):
                    entries[key] = polish(value, code)
            catalog.pbem_polished = True
        catalog = getattr(catalog, "_fallback", None)
