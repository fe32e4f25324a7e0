"""Stale, repeated and simultaneous move submissions."""

from __future__ import annotations

import threading

from game_driver import current_turn, db_state
from web_helpers import move_form, post_form

from server.db import db
from server.models import Game
from server.services.moves import StaleMove, play


def test_second_tab_gets_moved_on_page_and_changes_nothing(table):
    seat, client, page, _ = current_turn(table)
    form = move_form(page.text)
    first, second = form["buttons"][0][1], form["buttons"][-1][1]
    assert post_form(client, form, action=first).status_code == 200
    before = db_state(table.app, table.game_id)
    stale = post_form(client, form, action=second)  # the old tab, same seq
    assert stale.status_code == 409
    assert "The game has moved on" in stale.text
    assert f'href="/games/{table.game_id}"' in stale.text
    assert db_state(table.app, table.game_id) == before


def test_double_click_applies_once(table):
    seat, client, page, _ = current_turn(table)
    form = move_form(page.text)
    action = form["buttons"][0][1]
    seq = table.game().seq
    assert post_form(client, form, action=action).status_code == 200
    assert post_form(client, form, action=action).status_code == 409
    assert table.game().seq == seq + 1


def test_old_email_link_shows_current_position(table):
    seat, client, page, mail = current_turn(table)
    form = move_form(page.text)
    post_form(client, form, action=form["buttons"][0][1])
    again = client.get(f"/games/{table.game_id}")
    assert again.status_code == 200
    # Replaying the form from the old page is refused.
    assert post_form(client, form, action=form["buttons"][0][1]).status_code == 409


def test_simultaneous_submissions_exactly_one_wins(table):
    """Several threads submit for the same turn at once, each with its own
    database connection; the unique (game, seq) and the conditional update
    let exactly one through."""
    app, game_id = table.app, table.game_id
    seat, client, page, _ = current_turn(table)
    import json

    actions = [json.loads(v) for _, v in move_form(page.text)["buttons"]]
    game = table.game()
    barrier = threading.Barrier(4)
    results = []
    mailer = app.extensions["pbem_mailer"]

    def submit(i):
        with app.app_context(), db.connection_context():
            barrier.wait()
            try:
                play(game_id, seat, actions[i % len(actions)], game.seq, mailer=mailer)
                results.append("won")
            except StaleMove:
                results.append("stale")

    threads = [threading.Thread(target=submit, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == ["stale", "stale", "stale", "won"]
    after = table.game()
    assert after.seq == game.seq + 1


def test_captain_style_repeat_turn_keeps_same_player_on_page(table):
    """When the engine asks the same seat again, the result page shows the
    next decision at once, with the new sequence number."""
    repeated = False
    for _ in range(60):
        seat, client, page, _ = current_turn(table)
        while (form := move_form(page.text)) is not None:
            seq = int(form["fields"]["seq"])
            page = post_form(client, form, action=form["buttons"][0][1])
            nxt = move_form(page.text)
            if nxt is not None:
                assert int(nxt["fields"]["seq"]) == seq + 1
                assert "What happened" in page.text
                repeated = True
        if repeated:
            break
    assert repeated
    with table.app.app_context(), db.connection_context():
        assert Game.get_by_id(table.game_id).status == "active"
