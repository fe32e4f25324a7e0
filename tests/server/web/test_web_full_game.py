"""Whole games of the registered board game, played through HTTP form posts,
every turn reached from the link in the email that announced it."""

from __future__ import annotations

import pytest
from game_driver import Table

from server.db import db
from server.models import Event, Outbox, Snapshot
from server.services.state_store import replay, rules


@pytest.mark.parametrize("players", [3, 2])
def test_complete_game_by_email(app, smtp, send_mail, players):
    table = Table(app, smtp, send_mail, players, seed=players)
    game_id = table.set_up()
    result = table.play_out()
    game = table.game()
    assert game.status == "finished" and game.to_move is None
    assert result["moves"] == game.seq > 50
    # Everyone got the final scores, and all mails of the game are one thread.
    for email, mails in result["finals"].items():
        final = next(m for m in mails if "is over" in m.get_body(("plain",)).get_content())
        assert "Final scores" in final.get_body(("plain",)).get_content()
        assert final["In-Reply-To"] == final["References"]
    # (The address confirmations of sign-up belong to no game.)
    game_mail = [
        m
        for email in table.emails
        for m in smtp.to(email)
        if m["Subject"] != "[pbem] Confirm your address"
    ]
    assert {m["References"] for m in game_mail} == {game.thread_id}
    ids = [m["Message-ID"] for m in game_mail]
    assert len(ids) == len(set(ids))
    # The game page keeps the whole log and the scores.
    page = table.clients[0].get(f"/games/{game_id}")
    assert "Final scores" in page.text and "Whole log" in page.text
    with app.app_context(), db.connection_context():
        kind = rules(game)
        snapshot = Snapshot.get(Snapshot.game == game_id)
        # The log alone rebuilds the cached state.
        assert kind.to_json(replay(game)) == snapshot.state
        assert Event.select().where(Event.game == game_id).count() == game.seq
        assert not Outbox.select().where(Outbox.status != "sent").count()
    assert table.checks > 0
