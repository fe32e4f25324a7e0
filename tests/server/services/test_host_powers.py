"""Host powers.  A host who holds a seat, played or left,
needs the other players' agreement (or a site moderator) to undo moves,
remove a player or give any seat to someone else; only once their seat is
someone else's are they an ordinary host.  Table talk is read only by the
game's players, its host and site moderators.  SQLite and PostgreSQL."""

from __future__ import annotations

from game_driver import current_turn
from moderation_helpers import in_db, moderate, moves, notes, seat_row, site_moderator
from web_helpers import csrf, form_for, forms, post_form, signup

from server.models import Seat

REASON = {"reason": "Testing the host's powers"}


def first_move(table) -> None:
    seat, client, page, mail = current_turn(table)
    form = form_for(page.text, "/move")
    post_form(client, form, action=form["buttons"][0][1])


def resign(client, gid: int):
    page = client.get(f"/games/{gid}")
    return post_form(client, form_for(page.text, "/resign"), **{"resign-reason": "Busy"})


def live_moves(app, gid: int) -> int:
    return len([m for m in moves(app, gid) if not m.undone])


def test_a_host_who_resigned_cannot_hand_their_seat_to_a_second_account(table):
    """The outsider's flow: resign, give the seat to an account of one's own,
    then undo and remove alone.  Each of these is now only a proposal."""
    app, gid, host = table.app, table.game_id, table.clients[0]
    first_move(table)
    assert "You left the game" in resign(host, gid).text
    played = live_moves(app, gid)
    page = moderate(host, gid, "replace", seat="1", email="sock@example.org", **REASON)
    assert "proposal is on the record" in page.text
    assert seat_row(app, gid, 0).user.email == table.emails[0]  # still the host's seat
    page = moderate(host, gid, "undo", count="1", **REASON)
    assert "proposal is on the record" in page.text and live_moves(app, gid) == played
    page = moderate(host, gid, "remove", seat="2", **REASON)
    assert "proposal is on the record" in page.text and not seat_row(app, gid, 1).withdrawn
    assert [n.action["note"] for n in notes(app, gid)] == ["resign"] + ["proposal"] * 3


def test_the_others_may_agree_to_give_the_hosts_left_seat_away(table):
    """With every other player's yes, the host's left seat goes; the host,
    no longer playing, is then an ordinary host and may undo alone."""
    app, gid, host = table.app, table.game_id, table.clients[0]
    first_move(table)
    resign(host, gid)
    moderate(host, gid, "replace", seat="1", email="friend@example.org", **REASON)
    for client in table.clients[1:]:
        answer = [
            f for f in forms(client.get(f"/games/{gid}").text) if f["action"].endswith("/yes")
        ][0]
        post_form(client, answer)
    assert seat_row(app, gid, 0).user.email == "friend@example.org"
    before = live_moves(app, gid)
    page = moderate(host, gid, "undo", count="1", **REASON)
    assert "Undid" in page.text and live_moves(app, gid) == before - 1


def test_a_playing_host_proposes_even_an_absent_players_replacement(table):
    """The absent player is not asked (they are not there); the other is."""
    app, gid, host = table.app, table.game_id, table.clients[0]
    in_db(
        app,
        lambda: Seat.update(absent=True).where((Seat.game == gid) & (Seat.index == 2)).execute(),
    )
    page = moderate(host, gid, "replace", seat="3", email="sub@example.org", **REASON)
    assert "proposal is on the record" in page.text
    assert seat_row(app, gid, 2).user.email == table.emails[2]
    assert "I agree" not in table.clients[2].get(f"/games/{gid}").text
    answer = [
        f for f in forms(table.clients[1].get(f"/games/{gid}").text) if f["action"].endswith("/yes")
    ][0]
    assert "Everybody agreed" in post_form(table.clients[1], answer).text
    assert seat_row(app, gid, 2).user.email == "sub@example.org"


def test_a_site_moderator_still_replaces_alone(table):
    app, gid = table.app, table.game_id
    resign(table.clients[0], gid)
    page = moderate(
        site_moderator(app), gid, "replace", seat="1", email="new@example.org", **REASON
    )
    assert "now plays seat 1" in page.text
    assert seat_row(app, gid, 0).user.email == "new@example.org"


def test_table_talk_is_for_the_table_only(table):
    app, gid = table.app, table.game_id
    page = table.clients[1].get(f"/games/{gid}")
    post_form(table.clients[1], form_for(page.text, "/talk"), text="Secret plan: corn")
    stranger = app.test_client()
    signup(stranger, "Stranger", "stranger@example.org")
    seen = stranger.get(f"/games/{gid}")
    assert seen.status_code == 200 and "Secret plan" not in seen.text
    assert 'id="talk"' not in seen.text
    # Nor can the stranger post there.
    refused = stranger.post(
        f"/games/{gid}/talk", data={"csrf_token": csrf(seen.text), "text": "hello"}
    )
    assert refused.status_code == 403
    for reader in (table.clients[0], table.clients[2], site_moderator(app)):
        assert "Secret plan: corn" in reader.get(f"/games/{gid}").text
