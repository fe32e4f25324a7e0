"""The turn mail carries the board as the seat sees it: compact
HTML tables (mail clients show no inline SVG) and the same rows in the
plain-text part, which stands on its own without the HTML."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from game_driver import Table

from engine import get_game
from server.db import db
from server.models import Game
from server.services.state_store import load_state
from server.services.what_a_seat_sees import seat_names


class Tables(HTMLParser):
    """The rows of every table in an HTML part: lists of cell texts."""

    def __init__(self, html: str):
        super().__init__()
        self.rows, self._row, self._cell = [], None, None
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        if tag == "tr":
            self._row = []
        elif tag in ("td", "th") and self._row is not None:
            self._cell = []

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self._row.append("".join(self._cell).strip())
            self._cell = None
        elif tag == "tr" and self._row is not None:
            self.rows.append(self._row)
            self._row = None

    def sections(self) -> set[tuple[str, str, str]]:
        """(section title, label, value) for every row under a one-cell title row."""
        found, title = set(), None
        for row in self.rows:
            if len(row) == 1:
                title = row[0]
            elif len(row) == 2:
                found.add((title, *row))
        return found


def boards(app, game_id: int, seat: int) -> tuple[list, list]:
    """The engine's board for ``seat`` and for the next seat, from the database."""
    with app.app_context(), db.connection_context():
        game = Game.get_by_id(game_id)
        kind, names = get_game(game.kind), seat_names(game)
        state = load_state(game, save=False)
        return (
            kind.board(kind.view(state, seat), names),
            kind.board(kind.view(state, (seat + 1) % game.seat_count), names),
        )


@pytest.mark.parametrize("kind", ["puerto_rico", "new_found_land"])
def test_the_turn_mail_shows_the_seats_own_board_in_both_parts(app, smtp, send_mail, kind):
    table = Table(app, smtp, send_mail, 3, seed=4, kind=kind)
    table.set_up()
    for _ in range(4):  # a few turns in, so the board has something on it
        mails = {
            e: [
                m
                for m in table.new_mail(e)
                if "It is your turn in" in m.get_body(("plain",)).get_content()
            ]
            for e in table.emails
        }
        email, (mail,) = next((e, ms) for e, ms in mails.items() if ms)
        table.take_turn(email, mail)
    mails = {
        e: [
            m
            for m in table.new_mail(e)
            if "It is your turn in" in m.get_body(("plain",)).get_content()
        ]
        for e in table.emails
    }
    email, (mail,) = next((e, ms) for e, ms in mails.items() if ms)
    seat = table.seat_of(email)
    mine, theirs = boards(app, table.game_id, seat)
    html = mail.get_body(("html",)).get_content()
    text = mail.get_body(("plain",)).get_content()
    parsed = Tables(html)
    rows, cells = parsed.rows, parsed.sections()
    for section in mine:
        assert [section.title] in rows
        for label, value in section.rows:
            assert [label, value] in rows
            assert f"{label}: {value}" in " ".join(text.split())
    # What the next seat sees differently is hidden from this one.
    hidden = {(s.title, label, value) for s in theirs for label, value in s.rows} - {
        (s.title, label, value) for s in mine for label, value in s.rows
    }
    assert hidden, "the two seats' boards should differ in what is hidden"
    assert not hidden & cells


@pytest.mark.parametrize("code", ["en", "nl", "de", "fr"])
def test_a_rows_label_filter_writes_what_the_templates_gettext_writes(code):
    """The text part's rows say their label through a filter that looks its
    translation up once (mail/compose.py): the same words, character for
    character, as the template's own ``_("%(label)s:", label=...)``."""
    from server.mail.compose import Mailer

    env = Mailer._environment(code)
    said = env.from_string('{{ _("%(label)s:", label=label) }}|{{ label|label }}')
    for label in ("Doubloons", "Île 2", "%(x)s 100%", ""):
        by_gettext, by_filter = said.render(label=label).split("|")
        assert by_filter == by_gettext
