"""Each language's way of writing numbers, in one place: the templates and
mails call these instead of formatting by hand ("%+.1f" wrote "+1.5" on a
French page that says "1,5" elsewhere)."""

from __future__ import annotations

from babel.numbers import format_decimal

from server.i18n import DEFAULT, known


def signed(value: float, code: str | None, digits: int = 1) -> str:
    """``value`` with its sign always written, in language ``code``'s
    numbers: "+1.5" in English, "+1,5" in French, "−0,3" where CLDR says so."""
    places = "0" * digits
    pattern = f"+0.{places};-0.{places}" if digits else "+0;-0"
    return format_decimal(value, format=pattern, locale=known(code) or DEFAULT)
