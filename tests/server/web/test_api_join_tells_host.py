"""A seat taken or left through the API tells the host,
as the lobby page does (a lobby_news mail); before, only page and reply
joins did."""

from __future__ import annotations

from api_helpers import account, bearer, open_game
from clock_helpers import outbox


def test_an_api_join_and_leave_tell_the_host(app):
    host_id, _ = account(app, "apihost@example.org", "Host")
    _, token = account(app, "apiguest@example.org", "Guest")
    game_id = open_game(app, host_id, 3, invite=("apiguest@example.org",))
    client = app.test_client()
    joined = client.post(f"/api/v1/lobby/{game_id}/join", json={"seat": 2}, headers=bearer(token))
    assert joined.status_code == 200, joined.text
    (news,) = outbox(app, "lobby_news", "apihost@example.org")
    assert "Guest now sits in seat 2." in news.body_text
    left = client.post(f"/api/v1/lobby/{game_id}/leave", headers=bearer(token))
    assert left.status_code == 200, left.text
    told = outbox(app, "lobby_news", "apihost@example.org")
    assert len(told) == 2 and "Guest left the game." in told[-1].body_text
