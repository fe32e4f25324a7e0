"""The board's rows said once while the engine hands out the same
rows object (server/services/what_a_seat_sees.py ``_said_rows``).  Keyed by the
object, never by its English text: two Words that read alike in English
may not in German."""

from __future__ import annotations

from engine.words import msg, term
from server.i18n import say
from server.services.what_a_seat_sees import _said_rows


def test_rows_are_said_anew_for_other_rows_names_or_languages():
    rows = ((term("Island"), msg("%(who)s: %(n)s", who="{s0}", n=2)),)
    names = ("Ann", "Bo")
    first = _said_rows(rows, names, "de", None)
    assert first == ((say("de", term("Island")), "Ann: 2"),)
    assert _said_rows(rows, names, "de", None) is first
    assert _said_rows(rows, ("Cy", "Bo"), "de", None)[0][1] == "Cy: 2"
    assert _said_rows(rows, names, "en", None)[0][0] == "Island"
    # Equal English text, another template: said as itself.
    alike = ((msg("Island"), msg("%(who)s: %(n)s", who="{s0}", n=2)),)
    assert alike == rows and alike is not rows
    assert _said_rows(alike, names, "de", None) is not first


def test_an_empty_text_and_plain_strings_pass_as_they_are():
    rows = (("Doubloons", "3"), (msg("Goods"), ""))
    assert _said_rows(rows, (), "fr", None) == (("Doubloons", "3"), (say("fr", msg("Goods")), ""))
