"""The dashboard: games in progress that need attention, who holds them up,
for how long, sortable; a host sees only their own games; the stalling notice
reaches site moderators too."""

from __future__ import annotations

import datetime as dt
import random
import re

from moderation_helpers import (
    HOUR,
    backdate,
    in_db,
    moderate,
    outbox,
    random_moves,
    run_sweep,
    service_game,
    site_moderator,
)
from web_helpers import csrf

from server.models import User, utcnow
from server.services import attention
from server.services.clock import outage_guard

DAY = 24 * HOUR


def listed(html: str) -> list[int]:
    table = html.split('id="attention"', 1)[1] if 'id="attention"' in html else ""
    return [int(g) for g in re.findall(r'href="/moderation/games/(\d+)"', table)]


def test_dashboard_lists_games_that_need_attention(app):
    fresh = service_game(app, "fresh")
    overdue = service_game(app, "late")
    stalled = service_game(app, "stuck")
    paused = service_game(app, "pause")
    absent = service_game(app, "gone")
    backdate(app, overdue, 3 * DAY)  # 48 h per move: overdue by a day
    backdate(app, stalled, 10 * DAY)
    moderator = site_moderator(app)
    moderate(moderator, paused, "pause", reason="Waiting for a ruling")
    moderate(moderator, absent, "remove", seat="2", reason="Asked to leave")

    page = moderator.get("/moderation").text
    assert listed(page)[:2] == [stalled, overdue]  # longest without a move first
    assert sorted(listed(page)) == sorted([stalled, overdue, paused, absent])
    row = page.split(f'href="/moderation/games/{stalled}"')[1].split("</tr>")[0]
    assert "overdue" in row and "no move for a long time" in row and "10 d 0 h" in row
    rows = in_db(app, lambda: attention.rows(User.get(User.email == "mod@example.org"), utcnow()))
    by_id = {r.game.id: r for r in rows}
    assert by_id[overdue].reasons == ["overdue"]
    assert by_id[stalled].holder.startswith("Stuck ") and by_id[stalled].holder in row
    assert "paused" in by_id[paused].reasons and by_id[paused].overdue is None
    assert by_id[absent].reasons == ["absent seats"] and by_id[absent].absent == ["Gone 2"]
    assert fresh not in by_id

    ascending = listed(moderator.get("/moderation?sort=idle&order=asc").text)
    assert ascending[-2:] == [overdue, stalled]
    assert fresh in listed(moderator.get("/moderation?all=1").text)
    by_overdue = listed(moderator.get("/moderation?sort=overdue").text)
    assert by_overdue[:2] == [stalled, overdue]


def test_dashboard_shows_who_holds_the_game_up(app):
    gid = service_game(app, "slow")
    backdate(app, gid, 10 * DAY)  # started 15 days ago,
    random_moves(app, gid, 2, random.Random(3))  # the last moves 5 days ago
    backdate(app, gid, 5 * DAY)
    moderator = site_moderator(app)
    (row,) = in_db(app, lambda: attention.rows(User.get(User.email == "mod@example.org"), utcnow()))
    page = moderator.get("/moderation").text
    assert row.holder in page and row.holder.startswith("Slow ")
    assert row.overdue > 2 * DAY and attention.span(row.idle) == "5 d 0 h"


def test_a_host_sees_only_their_own_games_on_the_dashboard(app):
    mine, theirs = service_game(app, "ann"), service_game(app, "bob")
    for gid in (mine, theirs):
        backdate(app, gid, 10 * DAY)
    host = app.test_client()
    host.post(
        "/login",
        data={
            "csrf_token": csrf(host.get("/login").text),
            "email": "ann0@example.org",
            "password": "password1",
        },
    )
    assert listed(host.get("/moderation").text) == [mine]
    guest = app.test_client()
    guest.post(
        "/login",
        data={
            "csrf_token": csrf(guest.get("/login").text),
            "email": "ann1@example.org",
            "password": "password1",
        },
    )
    assert guest.get("/moderation").status_code == 403


def test_span_reads_like_people_talk():
    assert attention.span(None) == ""
    assert attention.span(dt.timedelta(minutes=5)) == "5 min"
    assert attention.span(3 * HOUR + dt.timedelta(minutes=10)) == "3 h 10 min"
    assert attention.span(2 * DAY + 4 * HOUR) == "2 d 4 h"


def test_site_moderators_hear_when_a_seat_is_marked_absent(app):
    """The clocks mark a seat absent after repeated timeouts and tell the
    game's moderators: its host and every site moderator."""
    service_game(app, "idle")
    site_moderator(app, "mod@example.org")
    site_moderator(app, "mod2@example.org", "Max")
    now = utcnow()
    for _ in range(20):
        now += 49 * HOUR
        run_sweep(app, now)
        if outbox(app, "stalling"):
            break
    assert sorted(m.to_addr for m in outbox(app, "stalling")) == [
        "idle0@example.org",
        "mod2@example.org",
        "mod@example.org",
    ]


def test_moderators_see_when_the_scheduler_and_the_sender_last_ran(app, smtp):
    """Schedulers leave a heartbeat in the database, so the
    dashboard tells a moderator which process is silent."""
    moderator = site_moderator(app)
    page = " ".join(moderator.get("/moderation").text.split())
    assert 'Scheduler: <strong class="down">never ran' in page
    now = utcnow()
    run_sweep(app, now, deliver=False)  # the scheduler alone
    in_db(app, lambda: outage_guard.beat(outage_guard.SENDER, now - DAY))
    app.config["OUTAGE_GRACE_SECONDS"] = 600
    page = " ".join(moderator.get("/moderation").text.split())
    status = page.split('id="processes"')[1].split("</p>")[0]
    assert "Scheduler: last ran" in status
    assert 'Mail sender: <strong class="down">silent since' in status
    host = app.test_client()  # a host who is no site moderator
    service_game(app, "hst")
    host.post(
        "/login",
        data={
            "csrf_token": csrf(host.get("/login").text),
            "email": "hst0@example.org",
            "password": "password1",
        },
    )
    assert 'id="processes"' not in host.get("/moderation").text
