"""The hidden-information check: what one seat may not see must not appear in
any page or mail that another seat gets."""

from __future__ import annotations

import re
from html import escape

from engine import Event as EngineEvent
from server.db import db
from server.models import Event, Game
from server.services.state_store import load_state, rules
from server.services.what_a_seat_sees import seat_names

SECTION = re.compile(r'<section class="board-section"><h3>(.*?)</h3>(.*?)</section>', re.S)


def forbidden_for(app, game_id: int, viewer: int) -> tuple[list[tuple[str, str, str]], list[str]]:
    """Board rows other seats see differently, and their private log texts."""
    with app.app_context(), db.connection_context():
        game = Game.get_by_id(game_id)
        kind, names = rules(game), seat_names(game)
        state = load_state(game, save=False)
        mine = {
            (s.title, label): value
            for s in kind.board(kind.view(state, viewer), names)
            for label, value in s.rows
        }
        rows = []
        for other in range(game.seat_count):
            if other == viewer:
                continue
            for section in kind.board(kind.view(state, other), names):
                for label, value in section.rows:
                    if mine.get((section.title, label), value) != value:
                        rows.append((section.title, label, value))
        texts = []
        for row in Event.select().where(Event.game == game_id):
            for data in row.events:
                event = EngineEvent.from_json(data)
                if event.private_to is not None and event.private_to != viewer:
                    secret = event.text_for(event.private_to, names)
                    if secret != event.text_for(viewer, names):
                        texts.append(secret)
        return rows, texts


def assert_nothing_hidden(app, game_id: int, viewer: int, content: str, is_html: bool = True):
    rows, texts = forbidden_for(app, game_id, viewer)
    sections = {unescape_title(t): body for t, body in SECTION.findall(content)}
    for title, label, value in rows:
        body = sections.get(title, "")
        assert f"<th>{escape(label)}</th><td>{escape(value)}</td>" not in body, (
            f"seat {viewer + 1} sees {title}/{label}={value}"
        )
    for text in texts:
        assert text not in content and escape(text) not in content, (
            f"seat {viewer + 1} sees another seat's private text {text!r}"
        )
    return len(rows) + len(texts)


def unescape_title(title: str) -> str:
    from html import unescape

    return unescape(title)
