"""A mail that did not get through is never silently dropped: the player's
Settings list their recent mails with status, the moderation page says per
seat "mail failing since …" and sends it again (on the record), and the
dashboard puts such games first."""

from __future__ import annotations

from moderation_helpers import moderation_page, notes, site_moderator
from test_mail_bounces import postfix_dsn
from web_helpers import form_for, post_form

from server.db import db
from server.mail.bounces import ReturnPaths
from server.models import Outbox
from server.services import outbox


def bounce_turn_mail(table) -> Outbox:
    app = table.app
    app.config["BOUNCE_DOMAIN"] = "bounces.example.org"
    table.send_mail(app)
    with app.app_context(), db.connection_context():
        row = Outbox.select().where(Outbox.kind == "turn").order_by(Outbox.id.desc()).get()
        raw = postfix_dsn(
            ReturnPaths.from_settings(app.config).for_outbox(row.id), row, row.to_addr
        )
        assert outbox.handle_bounce(raw, app.config)
    return row


def test_settings_list_recent_mails_with_status(sqlite_table):
    row = bounce_turn_mail(sqlite_table)
    client = sqlite_table.clients[sqlite_table.seat_of(row.to_addr)]
    page = client.get("/settings")
    assert page.status_code == 200
    assert "Your recent mails" in page.text and 'class="mail-bounced"' in page.text
    assert "User unknown" in page.text and "did not reach you" in page.text
    assert 'class="mail-sent"' in page.text  # the invitation and others went out


def test_moderation_page_shows_failing_mail_and_sends_it_again(sqlite_table, smtp):
    table = sqlite_table
    row = bounce_turn_mail(table)
    mod = site_moderator(table.app)
    game_id = table.game_id
    page = moderation_page(mod, game_id)
    assert "mail failing since" in page.text and "clock stands still since" in page.text
    assert row.to_addr in page.text and "Send again" in page.text
    dashboard = mod.get("/moderation")
    assert "mail failing" in dashboard.text and "failing since" in dashboard.text
    form = form_for(page.text, f"/mails/{row.id}/retry")
    done = post_form(mod, form)
    assert done.status_code == 200 and "queued again" in done.text
    with table.app.app_context(), db.connection_context():
        assert Outbox.get_by_id(row.id).status == "queued"
    assert "sent the turn mail" in str(notes(table.app, game_id)[-1].events)
    # Sent now: no longer failing anywhere, and the clock runs again.
    with table.app.app_context(), db.connection_context():
        outbox.deliver(table.app.config)
    page = moderation_page(mod, game_id)
    assert "mail failing since" not in page.text and "clock stands still" not in page.text
    # A stale form (the game moved on by the note) is refused, not applied twice.
    assert post_form(mod, form).status_code in (400, 409)


def test_dashboard_puts_games_with_failing_mail_first(sqlite_app, smtp, send_mail):
    from game_driver import Table

    quiet = Table(sqlite_app, smtp, send_mail, 2, seed=3)
    quiet.emails = ["q1@example.org", "q2@example.org"]
    quiet.read = {e: 0 for e in quiet.emails}
    quiet.set_up("Quiet table")
    loud = Table(sqlite_app, smtp, send_mail, 2, seed=4)
    loud.emails = ["l1@example.org", "l2@example.org"]
    loud.read = {e: 0 for e in loud.emails}
    loud.set_up("Bouncing table")
    bounce_turn_mail(loud)
    mod = site_moderator(sqlite_app)
    page = mod.get("/moderation?all=1&sort=game&order=asc").text
    assert page.index("Bouncing table") < page.index("Quiet table")


def test_turn_mail_says_what_it_is_and_stands_on_its_own(sqlite_table, smtp):
    """Subject "Your turn: <prompt>, <game>" in the game's thread; the text
    part ends with the settings and unsubscribe links; no List-Unsubscribe."""
    from game_driver import current_turn

    seat, _, _, mail = current_turn(sqlite_table)
    game = sqlite_table.game()
    assert mail["Subject"] == f"[pbem] {game.name} (#{game.id})"
    assert mail.get_body(("plain",)).get_content().startswith("Your turn: ")
    assert mail["In-Reply-To"] == game.thread_id and game.thread_id in mail["References"]
    text = mail.get_body(("plain",)).get_content()
    assert "http://localhost/settings" in text and "/mail/unsubscribe/" in text
    # One click would not stop turn mails: no List-Unsubscribe on them.
    assert mail["List-Unsubscribe"] is None and mail["List-Unsubscribe-Post"] is None
