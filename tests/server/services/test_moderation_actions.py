"""Each moderation action through the web, on SQLite and PostgreSQL:
it does what it says, is on the record (event log, game log, mail to the
players it affects) and leaves replay intact."""

from __future__ import annotations

import datetime as dt

import pytest
from game_driver import current_turn, db_state
from moderation_helpers import (
    HOUR,
    in_db,
    moderate,
    moderation_page,
    moves,
    notes,
    outbox,
    run_sweep,
    seat_row,
    site_moderator,
    state_json,
)
from web_helpers import csrf, form_for, forms, move_form, post_form, seat_link, text_of

from server.models import Game, User, utcnow
from server.services import moderation as service
from server.services import what_a_seat_sees
from server.services.moves import MoveRejected, play
from server.services.state_store import load_state, rules


def mails_about(table, email: str, words: str) -> list:
    return [m for m in table.new_mail(email) if words in text_of(m)]


def test_extend_deadline(table):
    app, gid, host = table.app, table.game_id, table.clients[0]
    pending = table.game().to_move
    before, seq = seat_row(app, gid, pending).deadline, table.game().seq
    page = moderate(host, gid, "extend", hours="30", reason="Travelling this week")
    assert page.status_code == 200 and "30 more hours" in page.text
    assert seat_row(app, gid, pending).deadline == before + 30 * HOUR
    assert table.game().seq == seq + 1
    (note,) = notes(app, gid)
    assert note.action == {"note": "extend", "hours": 30, "reason": "Travelling this week"}
    assert note.actor == "moderator" and note.seat == pending
    for client in table.clients:
        assert "Travelling this week" in client.get(f"/games/{gid}").text
    (mail,) = mails_about(table, table.emails[pending], "more hours")
    assert "Travelling this week" in text_of(mail) and "Your new deadline" in text_of(mail)
    for i, email in enumerate(table.emails):
        if i != pending:
            assert not mails_about(table, email, "more hours")


def test_play_the_default_action_now(table):
    app, gid = table.app, table.game_id
    moderator = site_moderator(app)
    pending = table.game().to_move

    def expected():
        game = Game.get_by_id(gid)
        kind, state = rules(game), load_state(game, save=False)
        return kind.to_json(kind.apply(state, pending, kind.default_action(state))[0])

    after = in_db(app, expected)
    page = moderate(moderator, gid, "default", reason="Agreed on the forum")
    assert "default action was played" in page.text
    assert state_json(app, gid) == after == state_json(app, gid, cached=False)
    (note,) = notes(app, gid)
    (move,) = moves(app, gid)
    assert (move.actor, move.seat, move.seq) == ("moderator", pending, note.seq + 1)
    assert mails_about(table, table.emails[pending], "Agreed on the forum")


def test_paused_game_is_never_auto_passed_and_resumes_with_its_time(table):
    app, gid, mod = table.app, table.game_id, site_moderator(table.app)
    seat, client, page, _ = current_turn(table)
    form = move_form(page.text)
    deadline = seat_row(app, gid, seat).deadline
    moderate(mod, gid, "pause", reason="Rules dispute, asking the publisher")
    assert table.game().paused
    for email in table.emails:
        assert mails_about(table, email, "paused the game")
    assert post_form(client, form, action=form["buttons"][0][1]).status_code == 409
    assert move_form(client.get(f"/games/{gid}").text) is None
    seq = table.game().seq
    with pytest.raises(MoveRejected, match="paused"):
        in_db(
            app,
            lambda: play(
                gid, seat, {"type": "pass"}, seq, "timeout", mailer=app.extensions["pbem_mailer"]
            ),
        )
    before = db_state(app, gid)
    for days in (1, 3, 40):
        report = run_sweep(app, deadline + days * 24 * HOUR)
        assert (report.timeouts, report.reminders) == (0, 0)
    assert db_state(app, gid) == before
    assert not outbox(app, "timeout") and not outbox(app, "reminder")

    moderate(mod, gid, "resume", reason="The publisher answered")
    assert not table.game().paused
    resumed = seat_row(app, gid, seat).deadline
    assert resumed >= deadline and resumed - deadline < HOUR  # the pause lasted seconds
    assert run_sweep(app, resumed - HOUR).timeouts == 0
    assert run_sweep(app, resumed + HOUR).timeouts == 1


def test_pause_shifts_deadline_and_reminder_by_its_length(table):
    app, gid = table.app, table.game_id
    mailer = app.extensions["pbem_mailer"]
    pending = table.game().to_move
    before = seat_row(app, gid, pending)
    site_moderator(app)
    mod = in_db(app, lambda: User.get(User.email == "mod@example.org"))
    t0, seq = utcnow(), table.game().seq
    in_db(app, lambda: service.pause(gid, mod, seq, "a long break", mailer=mailer, now=t0))
    in_db(
        app,
        lambda: service.resume(gid, mod, seq + 1, "back again", mailer=mailer, now=t0 + 50 * HOUR),
    )
    after = seat_row(app, gid, pending)
    assert after.deadline == before.deadline + 50 * HOUR
    assert after.next_reminder_at == before.next_reminder_at + 50 * HOUR
    assert after.turn_started_at == before.turn_started_at + 50 * HOUR


def test_replace_player(table, smtp):
    app, gid = table.app, table.game_id
    moderator = site_moderator(app)
    seat, old_client, page, mail = current_turn(table)
    old_form, old_link = move_form(page.text), seat_link(mail)
    version = seat_row(app, gid, seat).link_version
    resp = moderate(
        moderator,
        gid,
        "replace",
        seat=str(seat + 1),
        email="Newbie@Example.org",
        name="Newbie",
        reason="Player vanished three weeks ago",
    )
    assert "Newbie now plays seat" in resp.text
    row = seat_row(app, gid, seat)
    assert row.user.email == "newbie@example.org" and row.link_version == version + 1

    stranger = app.test_client()
    refused = stranger.get(old_link)
    assert refused.status_code == 410 and "no longer valid" in refused.text
    assert post_form(old_client, old_form, action=old_form["buttons"][0][1]).status_code == 403
    assert mails_about(table, table.emails[seat], "Your links to this seat no longer work")
    for i, email in enumerate(table.emails):
        if i != seat:
            assert mails_about(table, email, "Player vanished three weeks ago")

    table.send_mail(app)
    newbie = smtp.to("newbie@example.org")
    (welcome,) = [m for m in newbie if "take over" in text_of(m)]
    # A new account's address is not confirmed: the welcome (the moderator's
    # invitation) comes, turn mails wait until the link in it is used.
    assert not [m for m in newbie if "It is your turn in" in text_of(m)]
    assert "/confirm/" in text_of(welcome)
    history = in_db(
        app,
        lambda: what_a_seat_sees.log_lines(
            Game.get_by_id(gid), seat, what_a_seat_sees.seat_names(Game.get_by_id(gid))
        ),
    )
    assert history and all(line.text in text_of(welcome) for line in history)
    client = app.test_client()
    page = client.get(seat_link(welcome), follow_redirects=True)
    assert f"You play seat {seat + 1} (Newbie)" in page.text
    form = move_form(page.text)
    assert post_form(client, form, action=form["buttons"][0][1]).status_code == 200


def test_replacing_with_someone_already_seated_is_refused(table):
    app, gid = table.app, table.game_id
    moderator = site_moderator(app)
    before = db_state(app, gid)
    resp = moderate(
        moderator, gid, "replace", seat="2", email=table.emails[2], reason="Trying a swap"
    )
    assert resp.status_code == 400 and "already plays another seat" in resp.text
    assert db_state(app, gid) == before


def test_removed_seat_auto_passes_until_the_end(table):
    import random

    app, gid, mailer = table.app, table.game_id, table.app.extensions["pbem_mailer"]
    gone = table.game().to_move
    moderate(site_moderator(app), gid, "remove", seat=str(gone + 1), reason="Abusive messages")
    row = seat_row(app, gid, gone)
    assert row.withdrawn and row.deadline <= utcnow()
    mailed = {k: len(outbox(app, k, table.emails[gone])) for k in ("turn", "timeout", "reminder")}
    rnd, now, turns = random.Random(5), utcnow(), 0
    while table.game().status == "active":
        game = table.game()
        if game.to_move == gone:
            turns += 1
            assert seat_row(app, gid, gone).deadline <= now + HOUR  # due at once
            assert run_sweep(app, now + HOUR).timeouts == 1
        else:

            def move():
                state = load_state(Game.get_by_id(gid))
                action = rnd.choice(rules(game).legal_actions(state, game.to_move))
                play(gid, game.to_move, action, game.seq, "player", now, mailer=mailer)

            in_db(app, move)
        now += dt.timedelta(minutes=1)
    assert turns > 3
    assert {e.actor for e in moves(app, gid) if e.seat == gone} == {"timeout"}
    assert {k: len(outbox(app, k, table.emails[gone])) for k in mailed} == mailed
    assert not outbox(app, "stalling")


def test_player_resigns_and_host_replaces_them(table, smtp):
    app, gid = table.app, table.game_id
    client = table.clients[1]
    page = client.get(f"/games/{gid}")
    resp = post_form(client, form_for(page.text, "/resign"), **{"resign-reason": "Moving house"})
    assert resp.status_code == 200 and "You left the game" in resp.text
    assert "/resign" not in resp.text and move_form(resp.text) is None
    assert seat_row(app, gid, 1).withdrawn
    (note,) = notes(app, gid)
    assert (note.actor, note.action["note"]) == ("player", "resign")
    for i in (0, 2):
        assert mails_about(table, table.emails[i], "Moving house")
    assert not mails_about(table, table.emails[1], "Moving house")
    # The host plays seat 1: the replacement is a proposal, which
    # the one other player still playing carries by saying yes.
    page = moderate(
        table.clients[0],
        gid,
        "replace",
        seat="2",
        email="sub@example.org",
        reason="Found a substitute",
    )
    assert "proposal is on the record" in page.text and seat_row(app, gid, 1).withdrawn
    answer = [
        f for f in forms(table.clients[2].get(f"/games/{gid}").text) if f["action"].endswith("/yes")
    ][0]
    assert "Everybody agreed" in post_form(table.clients[2], answer).text
    assert not seat_row(app, gid, 1).withdrawn
    assert seat_row(app, gid, 1).user.email == "sub@example.org"


def test_abandon_ends_the_game_as_it_stands(table):
    app, gid = table.app, table.game_id
    seat, client, page, _ = current_turn(table)
    form = move_form(page.text)
    moderator = site_moderator(app)
    moderate(moderator, gid, "abandon", reason="Nobody has played for months")
    game = table.game()
    assert game.status == "finished" and game.to_move is None and game.finished_at
    assert game.outcome["abandoned"] and game.outcome["winners"] == []
    assert "Nobody has played for months" in game.outcome["reason"]
    # The scores as they stand, one per seat, from the engine's own count.
    assert [s["seat"] for s in game.outcome["scores"]] == list(range(game.seat_count))
    assert all(isinstance(s["total"], int) for s in game.outcome["scores"])
    shown = client.get(f"/games/{gid}").text
    assert 'id="abandoned"' in shown and "Nobody has played for months" in shown
    assert post_form(client, form, action=form["buttons"][0][1]).status_code == 409
    for email in table.emails:
        (mail,) = mails_about(table, email, "abandoned the game")
        assert "The board as it stands" in text_of(mail)
    assert run_sweep(app, utcnow() + 100 * 24 * HOUR).timeouts == 0
    page = moderation_page(moderator, gid)
    assert f"/moderation/games/{gid}/undo" not in page.text
    before, token = db_state(app, gid), csrf(page.text)
    resp = moderator.post(
        f"/moderation/games/{gid}/undo",
        data={
            "csrf_token": token,
            "undo-csrf_token": token,
            "undo-seq": str(game.seq),
            "undo-count": "1",
            "undo-reason": "take it back",
        },
    )
    assert resp.status_code == 400 and "abandoned" in resp.text
    assert db_state(app, gid) == before


@pytest.mark.parametrize(
    "action,values",
    [
        ("extend", {"hours": "5"}),
        ("default", {}),
        ("pause", {}),
        ("replace", {"seat": "3", "email": "new@example.org"}),
        ("remove", {"seat": "3"}),
        ("abandon", {}),
    ],
)
def test_every_action_is_on_the_record(table, action, values):
    """A reason, a note in the event log, a line in every player's game log."""
    app, gid = table.app, table.game_id
    moderator = site_moderator(app)
    before = db_state(app, gid)
    moderation_page(moderator, gid)
    assert db_state(app, gid) == before  # GET changes nothing
    refused = moderate(moderator, gid, action, reason="", **values)
    assert refused.status_code == 400 and db_state(app, gid) == before
    reason = f"Reason for {action}, on the record"
    assert moderate(moderator, gid, action, reason=reason, **values).status_code == 200
    (note,) = notes(app, gid)
    assert note.action["note"] == action and note.action["reason"] == reason
    assert note.user_id == in_db(app, lambda: User.get(User.email == "mod@example.org").id)
    for client in table.clients:
        assert reason in client.get(f"/games/{gid}").text
    assert reason in moderation_page(moderator, gid).text
    assert any(reason in text_of(m) for e in table.emails for m in table.new_mail(e))
