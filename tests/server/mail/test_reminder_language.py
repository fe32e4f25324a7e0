"""Mails go out in the recipient's language.  A reminder and a
digest say what the seat is asked in the player's language, not in the
English the game row keeps (they once carried ``Game.prompt`` as it was)."""

from __future__ import annotations

from clock_helpers import HOUR, outbox, run_sweep, started_game, to_move

from server.db import db
from server.models import User


def speaks(app, email: str, language: str, **fields) -> None:
    with app.app_context(), db.connection_context():
        User.update(language=language, **fields).where(User.email == email).execute()


def test_a_reminder_asks_in_the_players_language(app):
    """Puerto Rico 000 (Dutch): the governor "kiest een rol" (chooses a role)."""
    game = started_game(app, move_hours=48, reminders=(24, 6))
    seat = to_move(app, game.id)
    speaks(app, seat.user.email, "nl")
    assert run_sweep(app, seat.deadline - 23 * HOUR).reminders == 1
    mail = outbox(app, "reminder", seat.user.email)[-1]
    news = mail.body_text.split("\n", 1)[0]  # the thread's subject is the game's
    assert "Herinnering" in news and "kies een rol" in news.lower(), news
    assert "choose a role" not in mail.body_text.lower()


def test_a_digest_lists_the_waiting_prompt_in_the_players_language(app):
    game = started_game(app, move_hours=48, reminders=(24, 6), tag="d")
    seat = to_move(app, game.id)
    speaks(app, seat.user.email, "de", mail_mode="digest", next_digest_at=seat.turn_started_at)
    run_sweep(app, seat.turn_started_at + HOUR)
    mail = outbox(app, "digest", seat.user.email)[-1]
    assert "choose a role" not in mail.body_text.lower()
    assert "rolle" in mail.body_text.lower(), mail.body_text


def test_a_reminder_names_the_default_move_in_the_players_language(app):
    """What the server plays if time runs out (the
    engine's default action), said as the player reads it."""
    game = started_game(app, move_hours=48, reminders=(24, 6), tag="m")
    seat = to_move(app, game.id)
    assert run_sweep(app, seat.deadline - 23 * HOUR).reminders == 1
    english = outbox(app, "reminder", seat.user.email)[-1]
    assert "the server plays this for you: Settler." in english.body_text, english.body_text
    speaks(app, seat.user.email, "nl")
    assert run_sweep(app, seat.deadline - 5 * HOUR).reminders == 1
    dutch = outbox(app, "reminder", seat.user.email)[-1]
    assert "speelt de server dit voor je: Landbouwer." in dutch.body_text
    assert "Landbouwer" in dutch.body_html
    assert "Settler" not in dutch.body_text
