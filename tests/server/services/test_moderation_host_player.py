"""A host who also plays may resume and give another player more time;
pausing, giving herself more time, undoing moves, playing another player's default move, removing a
player, giving any seat to someone else (an absent or departed one too) and abandoning the game need a site moderator or the agreement of every
other player, on the record.  SQLite and PostgreSQL."""

from __future__ import annotations

import pytest
from game_driver import db_state
from moderation_helpers import (
    in_db,
    moderate,
    moderation_page,
    moves,
    notes,
    seat_row,
    site_moderator,
    state_json,
)
from web_helpers import csrf, form_for, forms, post_form

from server.models import Seat

REASON = {"reason": "Testing the host's powers"}


@pytest.mark.parametrize(
    "action,values",
    [
        ("undo", {"count": "1"}),
        ("default", {}),
        ("remove", {"seat": "2"}),
        ("abandon", {}),
        ("replace", {"seat": "2", "email": "new@example.org"}),
    ],
)
def test_a_playing_host_only_proposes_acting_against_other_players(table, action, values):
    app, gid, host = table.app, table.game_id, table.clients[0]
    _first_move(table)
    assert "need a site moderator" in moderation_page(host, gid).text
    state, seats, seq = state_json(app, gid), seat_rows(app, gid), table.game().seq
    page = moderate(host, gid, action, **values, **REASON)
    assert page.status_code == 200 and "proposal is on the record" in page.text
    # Nothing happened but the record of the proposal.
    assert state_json(app, gid) == state and seat_rows(app, gid) == seats
    assert table.game().seq == seq + 1 and table.game().status == "active"
    (note,) = notes(app, gid)
    assert note.action["note"] == "proposal" and note.action["action"] == action
    # A site moderator may act alone.
    assert moderate(site_moderator(app), gid, action, **values, **REASON).status_code == 200


def test_every_other_player_agreeing_carries_a_proposal_out(table):
    app, gid, host = table.app, table.game_id, table.clients[0]
    _first_move(table)
    before = len([m for m in moves(app, gid) if not m.undone])
    moderate(host, gid, "undo", count="1", reason="Misclick, everybody saw it")
    assert len(notes(app, gid)) == 1
    others = table.clients[1:]
    for client in others:
        page = client.get(f"/games/{gid}")
        assert "The host proposes to undo the last move" in page.text
        assert "Misclick, everybody saw it" in page.text
    assert "I agree" not in host.get(f"/games/{gid}").text  # not the proposer's call
    first = answer(others[0], gid, "yes")
    assert "waits for the other players" in first.text
    assert len([m for m in moves(app, gid) if not m.undone]) == before
    last = answer(others[1], gid, "yes")
    assert "Everybody agreed" in last.text
    assert len([m for m in moves(app, gid) if not m.undone]) == before - 1
    done = notes(app, gid)[-1]
    assert done.action["note"] == "undo" and "agreed by" in done.action["reason"]


def test_one_no_ends_a_proposal_on_the_record(table):
    app, gid, host = table.app, table.game_id, table.clients[0]
    _first_move(table)
    moderate(host, gid, "remove", seat="2", reason="Too slow for me")
    page = answer(table.clients[2], gid, "no")
    assert "You refused" in page.text
    assert not seat_row(app, gid, 1).withdrawn
    assert notes(app, gid)[-1].action["note"] == "refused"
    assert "I agree" not in table.clients[1].get(f"/games/{gid}").text


def test_a_proposal_lapses_when_the_game_moves_on(table):
    gid, host = table.game_id, table.clients[0]
    moderate(host, gid, "abandon", reason="Let us stop")
    page = table.clients[1].get(f"/games/{gid}")
    form = form_for(page.text, "/proposals/")
    _first_move(table)  # somebody moves meanwhile
    stale = table.clients[1].post(form["action"], data=form["fields"])
    assert stale.status_code == 409 and table.game().status == "active"


def test_only_the_other_players_answer(table):
    app, gid, host = table.app, table.game_id, table.clients[0]
    moderate(host, gid, "abandon", reason="Let us stop")
    form = form_for(table.clients[1].get(f"/games/{gid}").text, "/proposals/")
    outsider = site_moderator(app)
    token = csrf(outsider.get("/").text)
    refused = outsider.post(form["action"], data={"csrf_token": token})
    assert refused.status_code == 403 and table.game().status == "active"


def answer(client, gid: int, word: str):
    page = client.get(f"/games/{gid}")
    form = [f for f in forms(page.text) if f["action"].endswith(f"/{word}")][0]
    return post_form(client, form)


def seat_rows(app, gid: int) -> list:
    return in_db(
        app,
        lambda: [
            (s.index, s.user_id, s.withdrawn, s.absent)
            for s in Seat.select().where(Seat.game == gid).order_by(Seat.index)
        ],
    )


def test_a_playing_host_gives_another_player_time_alone(table):
    gid, host = table.game_id, table.clients[0]
    _to_move_not_host(table)
    before = table.game().seq
    page = moderate(host, gid, "extend", hours="12", **REASON)
    assert page.status_code == 200 and "proposal is on the record" not in page.text
    assert table.game().seq == before + 1


@pytest.mark.parametrize("action,values", [("extend", {"hours": "1440"}), ("pause", {})])
def test_a_playing_host_only_proposes_giving_herself_time(table, action, values):
    """Time is an advantage: a host who plays extends her own deadline, or
    stops every clock with a pause, only with the other players' yes (or a
    site moderator does it)."""
    app, gid, host = table.app, table.game_id, table.clients[0]
    _to_move_host(table)
    deadline = seat_row(app, gid, 0).deadline
    page = moderate(host, gid, action, **values, **REASON)
    assert page.status_code == 200 and "proposal is on the record" in page.text
    assert seat_row(app, gid, 0).deadline == deadline and not table.game().paused
    for client in table.clients[1:]:
        answer(client, gid, "yes")
    if action == "pause":
        assert table.game().paused
    else:
        assert seat_row(app, gid, 0).deadline > deadline
    assert "agreed by" in notes(app, gid)[-1].action["reason"]


def _to_move_host(table):
    moderator = site_moderator(table.app)
    while table.game().to_move != 0:  # a site moderator plays the others' defaults
        moderate(moderator, table.game_id, "default", **REASON)


def _to_move_not_host(table):
    moderator = site_moderator(table.app)
    while table.game().to_move == 0:
        moderate(moderator, table.game_id, "default", **REASON)


def test_a_playing_host_proposes_even_an_absent_seats_replacement(table):
    """A host who plays could otherwise hand an absent seat to an
    account of their own; a site moderator still replaces alone."""
    app, gid, host = table.app, table.game_id, table.clients[0]
    in_db(
        app,
        lambda: Seat.update(absent=True).where((Seat.game == gid) & (Seat.index == 2)).execute(),
    )
    page = moderate(host, gid, "replace", seat="3", email="sub@example.org", **REASON)
    assert page.status_code == 200 and "proposal is on the record" in page.text
    assert seat_row(app, gid, 2).user.email == table.emails[2]
    page = moderate(
        site_moderator(app), gid, "replace", seat="3", email="sub@example.org", **REASON
    )
    assert page.status_code == 200 and "now plays seat 3" in page.text
    assert seat_row(app, gid, 2).user.email == "sub@example.org"


def _first_move(table):
    """One move on the record, so that undo has something to undo."""
    from game_driver import current_turn
    from web_helpers import move_form, post_form

    seat, client, page, mail = current_turn(table)
    form = move_form(page.text)
    post_form(client, form, action=form["buttons"][0][1])


def test_a_proposal_that_could_not_be_carried_out_is_refused_at_once(table):
    """Tried before it is put to the players: nothing on the record."""
    app, gid, host = table.app, table.game_id, table.clients[0]
    _first_move(table)
    before = db_state(app, gid)
    refused = moderate(host, gid, "undo", count="5", reason="Back to the start")
    assert refused.status_code == 400 and "There are 1 moves to undo" in refused.text
    assert db_state(app, gid) == before and notes(app, gid) == []


def test_a_host_sees_the_addresses_she_invited_and_only_names_of_the_others(table):
    """Whoever joined by the join link (not invited by address) shows the
    host a name, not an address; a site moderator sees every address."""
    from server.models import Invitation

    app, gid, host = table.app, table.game_id, table.clients[0]
    by_link, invited = table.emails[1], table.emails[2]
    in_db(app, lambda: Invitation.delete().where(Invitation.email == by_link).execute())
    page = moderation_page(host, gid).text
    assert by_link not in page and invited in page
    assert by_link in moderation_page(site_moderator(app), gid).text
