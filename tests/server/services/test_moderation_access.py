"""Who may moderate: site moderators everywhere, a host in their own games,
nobody else; every POST needs its CSRF token; bad input gets a clear page;
the make-moderator command."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from game_driver import current_turn, db_state
from moderation_helpers import (
    ACTIONS,
    in_db,
    make_moderator,
    moderate,
    moderation_page,
    random_moves,
    service_game,
    site_moderator,
)
from web_helpers import csrf, form_for, forms, post_form, signup

from server.models import Proposal, User

PAGES = (
    "/moderation",
    "/moderation/games/{gid}",
    "/moderation/moderators",
    "/moderation?sort=overdue&order=asc&all=1",
)
FIELDS = {
    "reason": "Because I say so",
    "hours": "5",
    "seat": "1",
    "email": "x@example.org",
    "count": "1",
}


def action_data(action: str, token: str, seq: int) -> dict:
    data = {f"{action}-{k}": v for k, v in FIELDS.items()}
    return dict(
        data, **{"csrf_token": token, f"{action}-csrf_token": token, f"{action}-seq": str(seq)}
    )


def test_a_player_cannot_reach_any_moderation_page_or_action(table):
    app, gid = table.app, table.game_id
    player = table.clients[1]  # seated, but not the host
    before = db_state(app, gid)
    game_page = player.get(f"/games/{gid}").text
    assert "/moderation" not in game_page
    for path in PAGES:
        resp = player.get(path.format(gid=gid))
        assert resp.status_code == 403 and "Not allowed" in resp.text, path
    token, seq = csrf(game_page), table.game().seq
    for action in ACTIONS:
        data = action_data(action, token, seq)
        assert player.post(f"/moderation/games/{gid}/{action}", data=data).status_code == 403
    resp = player.post(
        "/moderation/moderators", data={"csrf_token": token, "email": table.emails[1]}
    )
    assert resp.status_code == 403
    assert (
        player.post("/moderation/moderators/1/revoke", data={"csrf_token": token}).status_code
        == 403
    )
    assert db_state(app, gid) == before
    assert not in_db(app, lambda: User.get(User.email == table.emails[1]).is_moderator)
    # The very same request from the host goes through: the 403 was about who asked
    # (the host plays, so a pause becomes a proposal to the other players).
    host_token = csrf(table.clients[0].get(f"/games/{gid}").text)
    resp = table.clients[0].post(
        f"/moderation/games/{gid}/pause", data=action_data("pause", host_token, seq)
    )
    assert resp.status_code == 302
    assert in_db(app, lambda: Proposal.get(Proposal.game == gid).action) == "pause"


def test_strangers_and_visitors_cannot_either(table):
    app, gid = table.app, table.game_id
    stranger = app.test_client()
    signup(stranger, "Eve", "eve@example.org")
    for path in PAGES:
        assert stranger.get(path.format(gid=gid)).status_code == 403, path
    visitor = app.test_client()
    for path in PAGES:
        resp = visitor.get(path.format(gid=gid))
        assert resp.status_code == 302 and "/login" in resp.headers["Location"], path
    before = db_state(app, gid)
    token = csrf(stranger.get("/").text)
    for action in ACTIONS:
        data = action_data(action, token, table.game().seq)
        assert stranger.post(f"/moderation/games/{gid}/{action}", data=data).status_code == 403
        resp = visitor.post(f"/moderation/games/{gid}/{action}", data=data)
        assert resp.status_code in (302, 400)  # sign in first / no session token
    assert db_state(app, gid) == before


def test_a_host_moderates_their_own_games_only(app):
    mine, theirs = service_game(app, "ann"), service_game(app, "bob")
    host = app.test_client()
    host.post(
        "/login",
        data={
            "csrf_token": csrf(host.get("/login").text),
            "email": "ann0@example.org",
            "password": "password1",
        },
    )
    assert moderation_page(host, mine)
    assert host.get(f"/moderation/games/{theirs}").status_code == 403
    assert host.get("/moderation/moderators").status_code == 403
    dashboard = host.get("/moderation?all=1").text
    assert f'/moderation/games/{mine}"' in dashboard
    assert f'/moderation/games/{theirs}"' not in dashboard
    assert "Moderate this game" in host.get(f"/games/{mine}").text
    assert "Moderate this game" not in host.get(f"/games/{theirs}").text


def test_every_moderation_post_needs_its_csrf_token(table):
    app, gid = table.app, table.game_id
    random_moves(app, gid, 1, random.Random(1))  # something to undo
    moderator = site_moderator(app)
    page = moderation_page(moderator, gid)
    before = db_state(app, gid)
    for action in ACTIONS:
        if action == "resume":
            continue  # on the page only while paused
        form = form_for(page.text, f"/moderation/games/{gid}/{action}")
        data = dict(form["fields"], **{f"{action}-{k}": v for k, v in FIELDS.items()})
        for token in (None, "forged"):
            sent = {k: v for k, v in data.items() if not k.endswith("csrf_token")}
            if token:
                sent[f"{action}-csrf_token"] = token
            resp = moderator.post(form["action"], data=sent)
            assert resp.status_code == 400 and "out of date" in resp.text, (action, token)
    player = table.clients[1]
    resign = form_for(player.get(f"/games/{gid}").text, "/resign")
    assert (
        player.post(
            resign["action"], data={"resign-seq": resign["fields"]["resign-seq"]}
        ).status_code
        == 400
    )
    assert (
        moderator.post("/moderation/moderators", data={"email": table.emails[1]}).status_code == 400
    )
    assert moderator.post("/moderation/moderators/1/revoke").status_code == 400
    assert db_state(app, gid) == before
    # With the token the same post works: the refusals above were the token's.
    form = form_for(page.text, f"/moderation/games/{gid}/pause")
    assert post_form(moderator, form, **{"pause-reason": "Checking"}).status_code == 200
    assert table.game().paused


@pytest.mark.parametrize(
    "action,values,words",
    [
        ("extend", {"hours": "0"}, "More hours"),
        ("extend", {"hours": "abc"}, "More hours"),
        ("extend", {"hours": "100000"}, "More hours"),
        ("replace", {"seat": "2", "email": "not-an-address"}, "is not an email address"),
        ("replace", {"seat": "9", "email": "a@example.org"}, "Seat"),
        ("replace", {"seat": "x", "email": "a@example.org"}, "Seat"),
        ("remove", {"seat": "-1"}, "Seat"),
        ("undo", {"count": "999"}, "Moves to undo"),
        ("pause", {"reason": "x" * 600}, "Reason"),
        ("pause", {"reason": "  "}, "Reason"),
        ("pause", {"seq": "abc"}, "not understood"),
        ("pause", {"seq": "99999999999"}, "not understood"),
        ("pause", {"seq": "0"}, "changed since"),
    ],
)
def test_bad_input_gets_a_clear_page_and_changes_nothing(table, action, values, words):
    app, gid = table.app, table.game_id
    random_moves(app, gid, 1, random.Random(1))
    moderator = site_moderator(app)
    before = db_state(app, gid)
    values = dict({"reason": "A fine reason"}, **values)
    resp = moderate(moderator, gid, action, **values)
    assert 400 <= resp.status_code < 500 and words in resp.text, resp.text
    assert "<h1>" in resp.text and "Server error" not in resp.text
    assert db_state(app, gid) == before


def test_unknown_games_and_actions_are_not_found(table):
    moderator = site_moderator(table.app)
    token = csrf(moderator.get("/moderation").text)
    assert moderator.get("/moderation/games/999999").status_code == 404
    assert (
        moderator.post(
            f"/moderation/games/{table.game_id}/explode", data={"csrf_token": token}
        ).status_code
        == 404
    )
    assert (
        moderator.post(
            "/moderation/games/999999/pause", data=action_data("pause", token, 0)
        ).status_code
        == 404
    )
    assert (
        moderator.post(
            "/moderation/moderators/999999/revoke", data={"csrf_token": token}
        ).status_code
        == 404
    )


def test_a_form_from_before_a_move_is_stale(table):
    app, gid = table.app, table.game_id
    moderator = site_moderator(app)
    form = form_for(moderation_page(moderator, gid).text, f"/moderation/games/{gid}/default")
    seat, client, page, _ = current_turn(table)
    random_moves(app, gid, 1, random.Random(2))
    before = db_state(app, gid)
    resp = post_form(moderator, form, **{"default-reason": "Too slow"})
    assert resp.status_code == 409 and "changed since" in resp.text
    assert db_state(app, gid) == before


def test_moderation_pages_change_nothing(table):
    app, gid = table.app, table.game_id
    moderator = site_moderator(app)
    before = db_state(app, gid)
    for path in PAGES + ("/moderation?sort=nonsense&order=sideways",):
        assert moderator.get(path.format(gid=gid)).status_code == 200, path
    assert db_state(app, gid) == before


def add_form(html: str) -> dict:
    (form,) = [f for f in forms(html) if f["action"] == "/moderation/moderators"]
    return form


def test_moderators_page_adds_and_revokes_site_moderators(table):
    app = table.app
    moderator = site_moderator(app)
    assert "Moderation</a>" in moderator.get("/").text
    page = moderator.get("/moderation/moderators")
    resp = post_form(moderator, add_form(page.text), email=table.emails[2].upper())
    assert resp.status_code == 200 and "is a moderator now" in resp.text
    promoted = table.clients[2]
    assert promoted.get("/moderation/moderators").status_code == 200
    assert "Moderation</a>" in promoted.get("/").text
    unknown = post_form(moderator, add_form(page.text), email="nobody@example.org")
    assert unknown.status_code == 400 and "must sign up first" in unknown.text
    page = moderator.get("/moderation/moderators")
    user_id = in_db(app, lambda: User.get(User.email == table.emails[2]).id)
    post_form(moderator, form_for(page.text, f"/moderation/moderators/{user_id}/revoke"))
    assert promoted.get("/moderation/moderators").status_code == 403


def test_make_moderator_command(table):
    app = table.app
    result = make_moderator(app, "nobody@example.org")
    assert result.exit_code != 0 and "must sign up first" in result.output
    assert make_moderator(app, table.emails[1]).exit_code == 0
    assert in_db(app, lambda: User.get(User.email == table.emails[1]).is_moderator)
    assert make_moderator(app, table.emails[1], revoke=True).exit_code == 0
    assert not in_db(app, lambda: User.get(User.email == table.emails[1]).is_moderator)


def test_pbem_make_moderator_from_the_shell(table, tmp_path):
    """The documented command line, from any folder: ``pbem make-moderator EMAIL``."""
    env = dict(
        os.environ,
        DATABASE_URL=table.app.config["DATABASE_URL"],
        PBEM_INSTANCE=str(tmp_path / "cli"),
        SECRET_KEY="cli-test",
    )
    pbem = [str(Path(sys.executable).with_name("pbem")), "make-moderator"]
    done = subprocess.run(
        pbem + [table.emails[2]], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert "is a site moderator" in done.stdout
    assert in_db(table.app, lambda: User.get(User.email == table.emails[2]).is_moderator)
    assert table.clients[2].get("/moderation").status_code == 200
