"""One thing, one name, in the reader's words.  A bot's
name inside a log line as in its mark, the Aqueduct's text with the
building list's names, a rank that is no seat, signed numbers in the
reader's language, a seat handed over said plainly (and to its old player
about themselves), a replacement account's time zone guessed."""

from __future__ import annotations

import json
import random
import re
from email.message import EmailMessage
from pathlib import Path

from clock_helpers import random_move, started_game, user
from conftest import make_app
from moderation_helpers import in_db, service_game, site_moderator

from engine.puerto_rico.data import CARDS
from engine.words import msg
from server.i18n import translations
from server.models import Outbox, User
from server.services import moderation, what_a_seat_sees
from server.typography import signed


def test_a_bots_name_is_said_in_the_readers_language_inside_its_moves():
    bot = msg("Random bot %(number)s", number=2)
    event = json.dumps([{"text": "{s1} takes the Mayor", "seat": 1}])
    names = ["Ann", bot]
    (line,) = what_a_seat_sees._texts(
        event, False, "bot", 1, "move", None, 0, tuple(names), "fr", None
    )
    assert line == "[bot pour Bot au hasard 2] Bot au hasard 2 takes the Mayor"


def test_the_aqueducts_text_names_the_buildings_as_the_building_list_does():
    text, plant, mill = (CARDS[n] for n in ("aqueduct", "indigo_plant", "sugar_mill"))
    assert plant.title.lower() in text.text and mill.title.lower() in text.text
    for code in ("nl", "de", "fr"):
        said = translations(code, "puerto_rico").gettext(text.text).lower()
        for building in (plant, mill):
            name = translations(code, "puerto_rico").gettext(building.title).lower()
            assert name in said, (code, name, said)


def test_signed_numbers_are_written_as_each_language_writes_numbers():
    assert [signed(1.5, c) for c in ("en", "nl", "de", "fr")] == ["+1.5", "+1,5", "+1,5", "+1,5"]
    assert signed(-0.5, "de") == "-0,5"
    assert signed(2, "en", digits=0) == "+2"


def test_a_rank_is_no_seat_in_any_language():
    """A place in the ranking is not the seat at the table (Plaats, Platz,
    Place): each language says it with another word, around the ordinal."""
    for code, word in (("nl", "geëindigd"), ("de", "Rang"), ("fr", "classement")):
        for text in ("placed %(rank)s, rating %(change)s", "placed %(place)s"):
            said = re.sub(r"%\(\w+\)s", "", translations(code).gettext(text))
            seat = translations(code).gettext("Seat")
            assert word in said and seat.lower() not in said.lower(), (code, said)


def test_a_replacement_says_who_handed_what_and_tells_the_old_player_about_themselves(app):
    game = started_game(app, players=3, tag="hw")
    random_move(app, game.id, random.Random(2))
    mailer = app.extensions["pbem_mailer"]

    def run():
        for i, zone in enumerate(("Europe/Berlin", "Europe/Berlin", "America/Chicago")):
            User.update(timezone=zone).where(User.email == f"hw{i}@example.org").execute()
        mod = user("mod-hw@example.org", "Mo", is_moderator=True)
        seq = game.__class__.get_by_id(game.id).seq
        moderation.replace(game.id, mod, seq, 2, "pia@example.org", "Pia", "Away", mailer=mailer)
        return (
            User.get(User.email == "pia@example.org").timezone,
            [m.body_text for m in Outbox.select().where(Outbox.to_addr == "hw2@example.org")],
            [m.body_text for m in Outbox.select().where(Outbox.to_addr == "hw0@example.org")],
        )

    zone, old_mails, others = in_db(app, run)
    assert zone == "Europe/Berlin"  # the table's zone, not UTC
    assert any("Mo (moderator) handed your seat 3 over to Pia." in t for t in old_mails)
    assert any("Mo (moderator) handed seat 3 over from HW 3 to Pia." in t for t in others)


def test_a_replacement_at_a_table_without_zones_keeps_utc(app):
    game = started_game(app, players=2, tag="hz")
    mailer = app.extensions["pbem_mailer"]

    def run():
        mod = user("mod-hz@example.org", "Mo", is_moderator=True)
        seq = game.__class__.get_by_id(game.id).seq
        moderation.replace(game.id, mod, seq, 1, "pia@example.org", "Pia", "Away", mailer=mailer)
        return User.get(User.email == "pia@example.org").timezone

    assert in_db(app, run) == "UTC"


def test_the_dashboard_is_titled_for_what_it_shows(app):
    service_game(app, "calm")
    moderator = site_moderator(app)
    attention_only = moderator.get("/moderation").text
    every = moderator.get("/moderation?all=1").text
    assert "<h1>Games that need attention</h1>" in attention_only
    assert "<h1>Games in progress</h1>" in every and "need attention</h1>" not in every


def test_the_mail_catchers_pages_speak_the_readers_language(sqlite_url, smtp, tmp_path):
    app = make_app(sqlite_url, smtp, tmp_path, MAIL_CATCHER_DIR="caught")
    mail = EmailMessage()
    mail["To"], mail["From"], mail["Subject"] = "ann@example.org", "pbem@localhost", "Salut"
    mail["Reply-To"] = "move-abc@localhost"
    mail.set_content("Bonjour")
    folder = Path(app.instance_path) / "caught"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "0123456789abcdef0123456789abcdef.eml").write_bytes(mail.as_bytes())
    client = app.test_client()
    french = {"Accept-Language": "fr"}
    inbox = client.get("/dev/mail/", headers=french).text
    assert "E-mails interceptés (1)" in inbox and "Caught mail" not in inbox
    assert "<th>Objet</th>" in inbox or "Subject" not in inbox
    page = client.get("/dev/mail/0123456789abcdef0123456789abcdef.eml", headers=french).text
    for english in ("All caught mail", "Plain text", "Send reply", "<th>To</th>", "As ann@"):
        assert english not in page, english
    assert "Texte brut" in page and "Envoyer la réponse" in page
