"""Accounts with tokens, and a game set up through the services, for the API tests."""

from __future__ import annotations

from server.db import db
from server.models import User, utcnow
from server.services import api_tokens, games


def account(
    app, email: str, name: str, scopes=("read", "play", "lobby"), **extra
) -> tuple[int, str]:
    """A confirmed account and a token for it: (user id, token)."""
    with app.app_context(), db.connection_context():
        user = User.create(
            email=email, name=name, password_hash="!", email_verified_at=utcnow(), **extra
        )
        _, token = api_tokens.create(user, "test", scopes, 30)
    return user.id, token


def open_game(
    app, host_id: int, players: int, kind: str = "puerto_rico", invite: tuple[str, ...] = ()
) -> int:
    with app.app_context(), db.connection_context():
        host = User.get_by_id(host_id)
        mailer = app.extensions["pbem_mailer"]
        game = games.create_game(host, kind, "API table", players, {}, 48, [24.0], mailer)
        if invite:
            games.invite(game.id, host, list(invite), mailer)
    return game.id


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}
