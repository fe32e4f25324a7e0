"""Leaving a lobby without a seat is refused and changes nothing; a stranger
gets the same answer for a private lobby as for a game that does not exist."""

from __future__ import annotations

from api_helpers import account, bearer, open_game

from server.db import db
from server.models import Seat


def test_leave_without_a_seat_is_refused_and_a_private_lobby_looks_missing(app):
    host, host_token = account(app, "host@example.org", "Host")
    _, guest = account(app, "guest@example.org", "Guest")
    _, stranger = account(app, "stranger@example.org", "Stranger")
    game_id = open_game(app, host, 3, invite=("guest@example.org",))
    client = app.test_client()
    with app.app_context(), db.connection_context():
        before = [(s.index, s.user_id) for s in Seat.select().where(Seat.game == game_id)]

    # Invited but never seated: a clear refusal, not "You left the game".
    refused = client.post(f"/api/v1/lobby/{game_id}/leave", headers=bearer(guest))
    assert refused.status_code == 400, refused.text
    assert "no seat" in refused.json["detail"]

    # A stranger: a private lobby answers exactly as no game does.
    private = client.post(f"/api/v1/lobby/{game_id}/leave", headers=bearer(stranger))
    missing = client.post("/api/v1/lobby/99999/leave", headers=bearer(stranger))
    assert private.status_code == missing.status_code == 404
    assert private.json["detail"] == missing.json["detail"]
    with app.app_context(), db.connection_context():
        after = [(s.index, s.user_id) for s in Seat.select().where(Seat.game == game_id)]
    assert after == before
