"""No word outside the reader's language, in mails too.  A seat
that no person holds is named by what plays it ("Steady bot 2"); a mail that
names such a seat says it in the recipient's language, not in the English
the seat's name is made in."""

from __future__ import annotations

from clock_helpers import outbox, user

from server.db import db
from server.models import Game
from server.services import games


def test_the_started_mail_names_the_bot_that_moves_first_in_german(app):
    mailer = app.extensions["pbem_mailer"]
    with app.app_context(), db.connection_context():
        host = user("gastgeberin@example.org", "Gastgeberin", language="de")
        # Who moves first is drawn: practise until a bot does (then the
        # host, who is not to move, is told who is).
        for attempt in range(30):
            game = games.create_practice(
                host, "puerto_rico", f"Übung {attempt}", 3, {}, "heuristic", 48, mailer
            )
            if Game.get_by_id(game.id).to_move != 0:
                break
        else:
            raise AssertionError("no practice game in thirty where a bot moved first")
    mail = [m for m in outbox(app, "started", host.email) if m.game_id == game.id][-1]
    assert "Solider Bot" in mail.body_text, mail.body_text
    assert "Solider Bot" in mail.body_html
    assert "Steady bot" not in mail.body_text + mail.body_html
