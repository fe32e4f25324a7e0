"""Chat and push notifications against real receivers: a local
HTTP server takes apprise's json://, form://, ntfy:// and matrix:// posts
and the signed generic webhook; Discord, Slack, Telegram and Pushover are
checked up to the request apprise would send (the HTTP adapter answers in
their place: their hosts are fixed and this machine cannot reach them).
Notices are outbox rows written with the move; a turn notice reaches the
player for the clock (services/clock/reach.py)."""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import random
import re

import pytest
import requests
from clock_helpers import HOUR, random_move, sign_in, started_game, to_move
from conftest import make_app
from notify_helpers import start_receiver
from web_helpers import csrf

from server.db import db
from server.models import NotifyChannel, Outbox, Seat, User, utcnow
from server.notify import channels, crypto, guard, transport
from server.services import outbox
from server.services.clock import reach

ALLOW = {
    "NOTIFY_ALLOW_PRIVATE_HOSTS": True,
    "NOTIFY_TIMEOUT": 1.0,
    "RATELIMIT_NOTIFY_TEST_PER_USER": "5 per minute",
}


@pytest.fixture
def receiver():
    r = start_receiver()
    yield r
    r.stop()


@pytest.fixture
def notify_app(sqlite_url, smtp, tmp_path):
    return make_app(sqlite_url, smtp, tmp_path, **ALLOW)


def add_channel(client, url: str, events=("turn",), **extra):
    page = client.get("/settings")
    data = {
        "csrf_token": csrf(page.text),
        "url": url,
        "events": list(events),
        "quiet_from": "",
        "quiet_until": "7",
        **extra,
    }
    return client.post("/settings/channels", data=data)


def next_guest(app, game_id: int) -> int:
    """A seat other than the host's (seat 0) that is not to move now."""
    return next(i for i in (1, 2) if i != to_move(app, game_id).index)


def drain(app, now=None) -> dict:
    with app.app_context(), db.connection_context():
        return outbox.deliver_notices(app.config, "test:1:x", now or utcnow())


def notices(app, **where) -> list[Outbox]:
    with app.app_context(), db.connection_context():
        q = Outbox.select().where(Outbox.channel.is_null(False)).order_by(Outbox.id)
        for name, value in where.items():
            q = q.where(getattr(Outbox, name) == value)
        return list(q)


def test_each_kind_of_channel_reaches_a_real_receiver(db_url, smtp, tmp_path, receiver):
    app = make_app(db_url, smtp, tmp_path, **ALLOW)  # SQLite and PostgreSQL
    game = started_game(app, tag="r")
    client = sign_in(app, "r0@example.org")
    base = receiver.base
    urls = [
        f"json://{base}/json",
        f"form://{base}/form",
        f"ntfy://{base}/pbem-topic",
        f"matrix://pbem:hunter2secret@{base}/#table?discovery=no",
    ]
    for url in urls:
        assert add_channel(client, url).status_code == 302
    page = add_channel(client, f"http://{base}/signed")
    key = re.search(
        r'id="signing-key" size="30" value="([^"]+)"|value="([^"]+)" id="signing-key"', page.text
    )
    key = next(g for g in key.groups() if g)
    settings = client.get("/settings").text
    assert "hunter2secret" not in settings and "/json" not in settings
    assert key not in settings  # shown once, never again
    with app.app_context(), db.connection_context():
        stored = " ".join(c.sealed_url + c.sealed_signing_key for c in NotifyChannel.select())
    assert "hunter2secret" not in stored and key not in stored
    tests = re.findall(r'action="(/settings/channels/\d+/test)"', settings)
    for form in tests:
        assert client.post(form, data={"csrf_token": csrf(settings)}).status_code == 302
    assert client.post(tests[0], data={"csrf_token": csrf(settings)}).status_code == 429
    assert client.post(tests[0]).status_code == 400  # no CSRF token: refused
    assert drain(app)["sent"] == 5

    assert receiver.paths("/json")[0].json()["title"] == "A test from pbem"
    assert b"title=A+test+from+pbem" in receiver.paths("/form")[0].body
    (ntfy,) = [r for r in receiver.requests if r.path == "/"]  # ntfy posts to /
    assert ntfy.json()["topic"] == "pbem-topic"
    (sent,) = [r for r in receiver.requests if "/send/m.room.message" in r.path]
    assert "A test from pbem" in sent.json()["body"]
    (signed,) = receiver.paths("/signed")
    stamp = signed.headers["X-Pbem-Timestamp"]
    mac = hmac.new(key.encode(), stamp.encode() + b"." + signed.body, hashlib.sha256)
    assert signed.headers["X-Pbem-Signature"] == "sha256=" + mac.hexdigest()
    assert signed.json()["title"] == "A test from pbem"
    assert all(row.status == "sent" and row.smtp_reply for row in notices(app))
    assert "last notice delivered" in client.get("/settings").text
    removed = re.findall(r'action="(/settings/channels/\d+/remove)"', settings)[0]
    assert client.post(removed, data={"csrf_token": csrf(settings)}).status_code == 302
    assert len(notices(app)) == 4 and removed not in client.get("/settings").text
    assert game.id


def test_a_turn_notice_is_written_with_the_move_in_the_players_language(notify_app, receiver):
    app = notify_app
    game = started_game(app, tag="t")
    nxt = next_guest(app, game.id)
    email = f"t{nxt}@example.org"
    with app.app_context(), db.connection_context():
        User.update(language="nl", timezone="Europe/Amsterdam").where(User.email == email).execute()
    assert (
        add_channel(
            sign_in(app, email), f"json://{receiver.base}/mine", events=("turn", "talk")
        ).status_code
        == 302
    )
    host = sign_in(app, "t0@example.org")
    page = host.get(f"/games/{game.id}/channel")
    assert (
        host.post(
            f"/games/{game.id}/channel/set",
            data={"csrf_token": csrf(page.text), "url": f"json://{receiver.base}/table"},
        ).status_code
        == 302
    )
    while to_move(app, game.id).index != nxt:
        random_move(app, game.id, random.Random(3))
    with app.app_context(), db.connection_context():
        table_id = NotifyChannel.get(NotifyChannel.game == game.id).id
        uid = User.get(User.email == email).id
    table = notices(app, kind="turn", channel=table_id, recipient=uid)[-1]
    (mine,) = [n for n in notices(app, kind="turn") if n.channel_id != table_id]
    assert mine.recipient_id == table.recipient_id
    assert mine.holds_clock and not table.holds_clock  # the player kept their turn mails
    drain(app)
    private = receiver.paths("/mine")[0].json()
    assert private["title"] == "Je bent aan de beurt in Game t"
    assert "/s/" in private["message"] and "Europe/Amsterdam" in private["message"]
    with app.app_context(), db.connection_context():
        from server.services import table_talk

        author = Seat.get((Seat.game == game.id) & (Seat.index != nxt))
        table_talk.post(game.id, author, "Wie ruilt er suiker?", app.extensions["pbem_mailer"])
    drain(app)
    talk = receiver.paths("/mine")[-1].json()
    assert talk["title"].endswith("zegt in Game t") and "Wie ruilt er suiker?" in talk["message"]
    with app.app_context(), db.connection_context():
        from server.models import Game
        from server.services import move_news

        move_news.result(Game.get_by_id(game.id), app.extensions["pbem_mailer"])
    (result,) = notices(app, kind="result")
    assert result.channel_id == table_id and result.recipient_id is None  # not subscribed
    shared = [r.json() for r in receiver.paths("/table")][-1]
    assert shared["title"] == f"T {nxt + 1}’s turn in Game t"  # the host's language
    assert "/s/" not in shared["message"]
    assert f"/games/{game.id}" in shared["message"] and "UTC" in shared["message"]


def test_the_table_channel_in_place_of_turn_mails_holds_the_clock_until_it_gets_through(
    db_url, smtp, tmp_path, receiver
):
    app = make_app(db_url, smtp, tmp_path, SENDER_MAX_ATTEMPTS=1, **ALLOW)
    game = started_game(app, tag="h")
    nxt = next_guest(app, game.id)
    host = sign_in(app, "h0@example.org")
    page = host.get(f"/games/{game.id}/channel")
    host.post(
        f"/games/{game.id}/channel/set",
        data={"csrf_token": csrf(page.text), "url": f"json://{receiver.base}/table"},
    )
    player = sign_in(app, f"h{nxt}@example.org")
    page = player.get(f"/games/{game.id}/channel")
    assert "set by the host" in page.text and receiver.base not in page.text
    player.post(
        f"/games/{game.id}/channel/choice", data={"csrf_token": csrf(page.text), "only": "y"}
    )
    receiver.mode = "fail"
    while to_move(app, game.id).index != nxt:
        random_move(app, game.id, random.Random(5))
    assert not [m for m in notices(app) if m.to_addr == f"h{nxt}@example.org"]
    with app.app_context(), db.connection_context():
        assert (
            not Outbox.select()
            .where((Outbox.kind == "turn") & (Outbox.to_addr == f"h{nxt}@example.org"))
            .exists()
        )
    with app.app_context(), db.connection_context():
        uid = User.get(User.email == f"h{nxt}@example.org").id
    # One failure a drain per destination: the table's earlier turns fail first.
    for hours in range(6):
        assert drain(app, utcnow() + hours * 2 * HOUR)["sent"] == 0
        row = notices(app, kind="turn", recipient=uid)[-1]
        if row.status == "failed":
            break
    assert row.status == "failed" and "500" in row.last_error
    seat = to_move(app, game.id)
    assert seat.mail_hold_since is not None  # not reached: the clock waits
    deadline = seat.deadline
    receiver.mode = "ok"
    while drain(app, utcnow() + 20 * HOUR)["sent"]:
        pass  # a drain sends one batch; go on until nothing is due
    seat = to_move(app, game.id)
    assert seat.mail_hold_since is None and seat.deadline > deadline
    with app.app_context(), db.connection_context():
        assert reach.waiting(seat) is None


def test_a_delivered_channel_notice_keeps_the_clock_running_when_the_mail_bounces(
    notify_app, receiver
):
    app = notify_app
    game = started_game(app, tag="b")
    nxt = next_guest(app, game.id)
    add_channel(sign_in(app, f"b{nxt}@example.org"), f"json://{receiver.base}/b")
    while to_move(app, game.id).index != nxt:
        random_move(app, game.id, random.Random(7))
    drain(app)
    seat = to_move(app, game.id)
    with app.app_context(), db.connection_context():
        mail = (
            Outbox.select()
            .where((Outbox.kind == "turn") & (Outbox.to_addr == f"b{nxt}@example.org"))
            .get()
        )
        assert not mail.holds_clock  # the channel reached the player first
        Outbox.update(status="bounced").where(Outbox.id == mail.id).execute()
        assert not outbox.hold_for(mail, utcnow())
        assert Seat.get_by_id(seat.id).mail_hold_since is None


def test_a_failing_or_hanging_receiver_is_retried_and_shown_and_the_drain_goes_on(
    notify_app, receiver
):
    app = notify_app
    started_game(app, tag="f")
    client = sign_in(app, "f1@example.org")
    add_channel(client, f"json://{receiver.base}/a")
    add_channel(client, f"http://{receiver.base}/b")
    settings = client.get("/settings").text
    for form in re.findall(r'action="(/settings/channels/\d+/test)"', settings):
        client.post(form, data={"csrf_token": csrf(settings)})
    receiver.mode, receiver.hang = "hang", 3.0
    counts = drain(app)
    assert counts["retry"] == 2 and counts["sent"] == 0
    rows = notices(app)
    assert all(r.status == "deferred" and r.attempts == 1 for r in rows)
    assert any("Timeout" in r.last_error or "timed out" in r.last_error for r in rows)
    receiver.mode = "fail"
    for hours in (1, 2, 3):
        drain(app, utcnow() + hours * HOUR)
    assert {r.status for r in notices(app)} == {"deferred"}
    page = client.get("/settings").text
    assert "failing since" in page and "channel-failing" in page
    receiver.mode = "ok"
    assert drain(app, utcnow() + 5 * HOUR)["sent"] == 2
    assert "failing since" not in client.get("/settings").text


def test_one_destination_gets_at_most_its_share(sqlite_url, smtp, tmp_path, receiver):
    app = make_app(sqlite_url, smtp, tmp_path, NOTIFY_DESTINATION_MAX=3, **ALLOW)
    started_game(app, tag="l")
    client = sign_in(app, "l1@example.org")
    add_channel(client, f"json://{receiver.base}/flood")
    with app.app_context(), db.connection_context():
        from server.notify import notices as writing
        from server.notify import texts

        channel = NotifyChannel.get()
        for i in range(5):
            writing.queue(app.config, channel, "talk", texts.Text(f"n{i}", "x"), None)
    counts = drain(app)
    assert counts["sent"] == 3 and counts["held"] == 2
    assert len(receiver.paths("/flood")) == 3
    assert drain(app, utcnow() + dt.timedelta(seconds=601))["sent"] == 2


def test_private_and_loopback_addresses_are_refused_in_production(
    sqlite_url, smtp, tmp_path, receiver
):
    settings = {"SECRET_KEY": "k", "NOTIFY_ALLOW_PRIVATE_HOSTS": False}
    for url in (
        f"json://{receiver.base}/x",
        "http://localhost/hook",
        "https://10.1.2.3/x",
        "ntfy://192.168.1.5/topic",
        "http://[::1]:8080/",
        "https://169.254.169.254/",
        "http://[::ffff:127.0.0.1]/",
        "form://0.0.0.0/x",
    ):
        with pytest.raises(channels.ChannelError, match="private network"):
            channels.check(settings, url)
    assert not guard.is_public("100.64.0.1") and guard.is_public("8.8.8.8")
    for url in (
        "ftp://example.org/x",
        "mailto://a@b",
        "discord://",
        "json://",
        "x" * 2000,
        "http://[::1/x",
        "https://host:99999/x",
    ):
        with pytest.raises(channels.ChannelError):
            channels.check(settings, url)
    app = make_app(sqlite_url, smtp, tmp_path)  # the production default
    started_game(app, tag="s")
    page = add_channel(sign_in(app, "s1@example.org"), f"http://{receiver.base}/x")
    assert page.status_code == 400 and "private network" in page.text
    with app.app_context(), db.connection_context():
        assert NotifyChannel.select().count() == 0
    channels.check(settings, "discord://1234567/abcdefghijk")  # a fixed public host
    # And at connect time: a name that resolves into the network, a redirect.
    with transport.guarded(settings), pytest.raises(requests.ConnectionError):
        requests.get(f"http://{receiver.base}/", timeout=2)
    assert receiver.requests == []


class Recorded:
    """The HTTP adapter answers for services this machine cannot reach; the
    prepared requests are kept."""

    def __init__(self):
        self.sent = []

    def __call__(self, adapter, request, **kwargs):
        self.sent.append(request)
        response = requests.Response()
        response.status_code = 200
        response._content = (
            b"ok" if "slack" in request.url else b'{"ok": true, "result": {}, "status": 1}'
        )
        response.headers["Content-Type"] = "application/json"
        response.request, response.url = request, request.url
        return response


@pytest.mark.parametrize(
    "url, host, secret",
    [
        ("discord://111222333/webhooktokenABCDEF", "discord.com", "webhooktokenABCDEF"),
        (
            "slack://T0AAAAAAA/B0BBBBBBB/slacktokenXYZ123456789012",
            "hooks.slack.com",
            "slacktokenXYZ123456789012",
        ),
        (
            "tgram://123456789:AAbotTokenSecret_abcdefghijklmnopqrs/987654",
            "api.telegram.org",
            "AAbotTokenSecret_abcdefghijklmnopqrs",
        ),
        (
            "pover://uuserkeyabcdefghijklmnopqrstu@atokenabcdefghijklmnopqrstuv",
            "api.pushover.net",
            "atokenabcdefghijklmnopqrstuv",
        ),
    ],
)
def test_fixed_host_services_get_the_request_apprise_builds(monkeypatch, url, host, secret):
    settings = {"SECRET_KEY": "k", "NOTIFY_TIMEOUT": 1.0}
    recorded = Recorded()
    monkeypatch.setattr(
        requests.adapters.HTTPAdapter,
        "send",
        lambda adapter, request, **kwargs: recorded(adapter, request, **kwargs),
    )
    checked = channels.check(settings, url)
    assert secret not in checked.masked
    channel = NotifyChannel(
        scheme=checked.scheme, masked=checked.masked, sealed_url=crypto.seal(settings, url)
    )
    row = Outbox(subject="Your turn in Sugar", body_text="Choose a role", kind="turn")
    answer = transport.send(settings, row, channel)
    assert answer.startswith("delivered") and secret not in answer
    request = recorded.sent[-1]
    assert request.url.split("/")[2] == host
    assert b"Sugar" in (
        request.body if isinstance(request.body, bytes) else str(request.body).encode()
    )


def test_kill_9_of_the_sender_mid_drain_loses_and_doubles_nothing(tmp_path, sqlite_url, receiver):
    """150 signed webhook notices; the sender is killed with -9 after 40
    arrived and started again: every notice arrives, and only the one in
    flight at the kill may arrive twice (same id: receivers dedupe on it)."""
    from test_sender_process import in_flight, smtp_server, start_sender, stop, wait_for

    from server.db import bind, make_database, migrate

    settings = {"SECRET_KEY": "test-secret", **ALLOW, "NOTIFY_MAX_CHANNELS": 5}
    database = make_database(sqlite_url)
    bind(database)
    migrate(database)
    with database.connection_context(), database.atomic():
        owner = User.create(
            email="k@example.org", name="K", password_hash="x", email_verified_at=utcnow()
        )
        kept = [
            channels.add(settings, owner, f"http://{receiver.base}/k{i}", ["talk"])[0]
            for i in range(3)
        ]
        Outbox.insert_many(
            [
                {
                    "kind": "talk",
                    "to_addr": f"channel:{kept[i % 3].id}",
                    "channel": kept[i % 3].id,
                    "subject": f"n{i}",
                    "body_text": "hi",
                    "body_html": "",
                    "message_id": f"<n{i}@pbem.test>",
                    "created_at": utcnow(),
                    "next_attempt_at": utcnow(),
                    "headers": {},
                }
                for i in range(150)
            ]
        ).execute()
    receiver.delay = 0.01
    _handler, smtp = smtp_server()
    env = {"NOTIFY_ALLOW_PRIVATE_HOSTS": "true", "NOTIFY_DESTINATION_MAX": "1000"}
    try:
        victim = start_sender(tmp_path, sqlite_url, smtp.port, "victim", **env)
        wait_for(lambda: len(receiver.requests) >= 40, 60, "40 notices", [victim])
        victim.send_signal(9)
        victim.wait(5)
        flying = in_flight(sqlite_url, victim.pid)
        again = start_sender(tmp_path, sqlite_url, smtp.port, "again", **env)
        wait_for(
            lambda: len({r.json()["id"] for r in receiver.requests}) == 150,
            60,
            "all 150 notices",
            [again],
        )
        stop(again)
    finally:
        smtp.stop()
    ids = [r.json()["id"] for r in receiver.requests]
    twice = {i for i in ids if ids.count(i) > 1}
    assert len(set(ids)) == 150 and twice <= flying and len(flying) <= 1
    with database.connection_context():
        assert {r.status for r in Outbox.select()} == {"sent"}


def test_a_digest_reader_still_hears_of_turns_and_quiet_hours_put_off_the_rest(
    notify_app, receiver
):
    app = notify_app
    game = started_game(app, tag="d")
    nxt = next_guest(app, game.id)
    email = f"d{nxt}@example.org"
    with app.app_context(), db.connection_context():
        User.update(mail_mode="digest", timezone="Europe/Paris").where(
            User.email == email
        ).execute()
    client = sign_in(app, email)
    add_channel(
        client,
        f"json://{receiver.base}/d",
        events=("turn", "talk"),
        quiet_from="22",
        quiet_until="7",
    )
    while to_move(app, game.id).index != nxt:
        random_move(app, game.id, random.Random(9))
    (turn,) = notices(app, kind="turn")
    assert not turn.holds_clock  # a digest reader's clock waits for no mail
    with app.app_context(), db.connection_context():
        assert (
            not Outbox.select().where((Outbox.kind == "turn") & (Outbox.to_addr == email)).exists()
        )
        from server.notify import notices as writing
        from server.notify import texts

        channel = NotifyChannel.get(NotifyChannel.user == User.get(User.email == email).id)
        night = dt.datetime(2026, 11, 25, 23, 30)  # 00:30 in Paris
        talk = writing.queue(app.config, channel, "talk", texts.Text("t", "x"), None, now=night)
        urgent = writing.queue(app.config, channel, "turn", texts.Text("t", "x"), None, now=night)
        assert talk.next_attempt_at == dt.datetime(2026, 11, 26, 6, 0)  # 07:00 in Paris
        assert urgent.next_attempt_at == night
        noon = dt.datetime(2026, 11, 26, 11, 0)
        assert (
            writing.queue(
                app.config, channel, "talk", texts.Text("t", "x"), None, now=noon
            ).next_attempt_at
            == noon
        )


# Each IPv6 form that leads to an IPv4 address in a private range; ``ipaddress``
# calls all but the first global.
EMBEDDED_PRIVATE = [
    "::ffff:127.0.0.1",  # IPv4-mapped
    "::7f00:1",  # IPv4-compatible ::127.0.0.1
    "::a00:1",  # IPv4-compatible ::10.0.0.1
    "64:ff9b::7f00:1",  # NAT64, well-known prefix
    "64:ff9b::a9fe:a9fe",  # NAT64 of 169.254.169.254 (cloud metadata)
    "64:ff9b:1::a00:1",  # NAT64, local-use prefix, /96
    "64:ff9b:1:7f00:1::",  # NAT64, local-use prefix, /48
    "2002:7f00:1::",  # 6to4 of 127.0.0.1
    "2002:c0a8:105::1",  # 6to4 of 192.168.1.5
    "2001:0:4136:e378:8000:63bf:80ff:fffe",  # Teredo, client 127.0.0.1
    "2001:0:a00:1::1",  # Teredo, server 10.0.0.1
]


@pytest.mark.parametrize("address", EMBEDDED_PRIVATE)
def test_ipv6_forms_embedding_a_private_ipv4_are_refused_at_save_and_send(address):
    settings = {"SECRET_KEY": "k", "NOTIFY_ALLOW_PRIVATE_HOSTS": False}
    assert not guard.is_public(address)
    # When a channel is saved (and checked again before each notice).
    with pytest.raises(channels.ChannelError, match="private network"):
        channels.check(settings, f"http://[{address}]:8080/hook")
    # When the notice connects: refused before any packet leaves.
    with transport.guarded(settings), pytest.raises(requests.ConnectionError) as caught:
        requests.get(f"http://[{address}]:8080/", timeout=2)
    assert "not a public address" in str(caught.value)


def test_ipv6_forms_embedding_a_public_ipv4_stay_public():
    for address in ("64:ff9b::808:808", "2002:808:808::1", "2606:4700:4700::1111", "8.8.8.8"):
        assert guard.is_public(address), address


def test_a_held_turn_notice_is_dropped_once_its_turn_passed_and_the_result_goes_first(
    sqlite_url, smtp, tmp_path, receiver
):
    """A destination over its share held "your turn" notices
    past their turn, and the result came last, behind the stale ones."""
    app = make_app(sqlite_url, smtp, tmp_path, NOTIFY_DESTINATION_MAX=1, **ALLOW)
    game = started_game(app, tag="st")
    seat = to_move(app, game.id)
    with app.app_context(), db.connection_context():
        from server.notify import notices as writing
        from server.notify import texts

        player = User.get_by_id(seat.user_id)
        channel = channels.add(app.config, player, f"json://{receiver.base}/st", ["turn"])[0]
        writing.queue(app.config, channel, "talk", texts.Text("first", "x"), None)
        for _ in range(3):
            writing.queue(
                app.config,
                channel,
                "turn",
                texts.Text("your turn", "x"),
                game,
                recipient=player,
                turn_of=seat.turn_started_at,
            )
    counts = drain(app)
    assert counts["sent"] == 1 and counts["held"] == 3
    random_move(app, game.id, random.Random(4))  # the player moved: the turn passed
    with app.app_context(), db.connection_context():
        writing.queue(app.config, channel, "result", texts.Text("result", "x"), game)
    later = drain(app, utcnow() + dt.timedelta(seconds=601))
    assert later["dropped"] == 3 and later["sent"] == 1
    assert [r.json()["title"] for r in receiver.requests][-1] == "result"
    assert {r.status for r in notices(app, kind="turn")} == {"dropped"}


def test_a_turn_mail_does_not_wait_behind_slow_notices(tmp_path, sqlite_url, receiver):
    """Eight notices to a receiver that takes a second over each, then a
    mail written while the sender is busy with them: the mail reaches the
    SMTP server within a couple of seconds (its own loop), long before the
    last notice (one loop for both sent it only after all eight)."""
    import time

    from test_sender_process import fill, smtp_server, start_sender, stop, wait_for

    from server.db import bind, make_database, migrate

    settings = {"SECRET_KEY": "test-secret", **ALLOW, "NOTIFY_MAX_CHANNELS": 5}
    database = make_database(sqlite_url)
    bind(database)
    migrate(database)
    with database.connection_context(), database.atomic():
        owner = User.create(
            email="s@example.org", name="S", password_hash="x", email_verified_at=utcnow()
        )
        channel = channels.add(settings, owner, f"http://{receiver.base}/slow", ["talk"])[0]
        Outbox.insert_many(
            [
                {
                    "kind": "talk",
                    "to_addr": f"channel:{channel.id}",
                    "channel": channel.id,
                    "subject": f"n{i}",
                    "body_text": "hi",
                    "body_html": "",
                    "message_id": f"<slow{i}@pbem.test>",
                    "created_at": utcnow(),
                    "next_attempt_at": utcnow(),
                    "headers": {},
                }
                for i in range(8)
            ]
        ).execute()
    receiver.delay = 1.0
    handler, smtp = smtp_server()
    env = {
        "NOTIFY_ALLOW_PRIVATE_HOSTS": "true",
        "NOTIFY_DESTINATION_MAX": "1000",
        "NOTIFY_TIMEOUT": "5",
        "SENDER_INTERVAL": "0.5",
    }
    try:
        sender = start_sender(tmp_path, sqlite_url, smtp.port, "slow", **env)
        wait_for(lambda: len(receiver.requests) >= 1, 30, "the first notice", [sender])
        written = time.monotonic()
        fill(sqlite_url, 1, tmp_path)
        wait_for(lambda: handler.total() == 1, 30, "the mail", [sender])
        mail_after = time.monotonic() - written
        notices_then = len(receiver.requests)
        wait_for(lambda: len(receiver.requests) >= 8, 30, "all eight notices", [sender])
        stop(sender)
    finally:
        smtp.stop()
    assert mail_after < 3.0, f"the mail waited {mail_after:.1f} s"
    assert notices_then < 6, f"the mail came after {notices_then} of 8 notices"
