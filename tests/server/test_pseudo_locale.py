"""Issue 27, item 3: every word in the reader's language.  Every page and
every kind of mail is rendered in a pseudo-locale (pseudo_locale.py: each
catalog message ⟦ẇŕáṕṕéđ⟧); a plain English word left in one is a text no
catalog holds.  Also: each kind of mail says what it is first in its subject."""
from __future__ import annotations

import random

import pytest
import pseudo_locale
from clock_helpers import random_move, sign_in, user
from conftest import make_app
from moderation_helpers import make_moderator

from engine import GAMES
from server.db import db
from server.models import Game, Outbox, Seat, User
from server.services import clocks, games, moderation, proposals, table_talk
from server.services.state_store import rules
from server.services.sweep import prompt_for

# People's and games' names: no catalog holds them.  Game kinds' titles and
# the languages' own names are names too.
NAMES = ["Ana Alba", "Bo Berg", "Cy Cole", "Mo Mod", "Sugar Cane", "Lobby Tea", "Puerto Rico",
         "Race to the New Found Land", "English", "Nederlands", "Deutsch", "Français", "pbem",
         "eo", "localhost",
         "Good luck, all", "Holidays", "A slip"] + [
    # The word an /option mail command takes, shown beside its translation.
    f"({choice})" for kind in GAMES.values() for spec in kind.options for choice in spec.choices]


@pytest.fixture(scope="module")
def pseudo_app(tmp_path_factory, request):
    """One app (a real SQLite file, the real SMTP fixture's port unused: mail
    stays in the outbox) speaking the pseudo-locale, with a started game of
    three, an open lobby and a site moderator, all reading "eo"."""
    tmp = tmp_path_factory.mktemp("pseudo")
    folder = pseudo_locale.build(tmp / "translations")
    with pytest.MonkeyPatch.context() as patch:
        pseudo_locale.enable(patch, folder)
        smtp = type("NoSmtp", (), {"port": 9})()
        app = make_app(f"sqlite:///{tmp / 'pseudo.sqlite3'}", smtp, tmp,
                       BABEL_TRANSLATION_DIRECTORIES=str(folder))
        with app.app_context(), db.connection_context():
            people = [user(f"p{i}@example.org", name, language="eo", timezone="Europe/Paris")
                      for i, name in enumerate(["Ana Alba", "Bo Berg", "Cy Cole"])]
            mailer = app.extensions["pbem_mailer"]
            game = games.create_game(people[0], "puerto_rico", "Sugar Cane", 3, {}, 48, [24, 6],
                                     mailer)
            for i, person in enumerate(people[1:], start=1):
                games.join(game.id, person, i)
            games.start(game.id, people[0], mailer)
            lobby = games.create_game(people[1], "new_found_land", "Lobby Tea", 3, {}, 48, [24],
                                      mailer)
            user("mod@example.org", "Mo Mod", language="eo")
        make_moderator(app, "mod@example.org")
        random_move(app, game.id, random.Random(1))
        yield app, game.id, lobby.id
    pseudo_locale.disable()


def check(where: str, text: str, found: dict) -> None:
    words = pseudo_locale.leftovers(text, NAMES)
    if words:
        found[where] = sorted(set(words))


def test_every_page_speaks_only_the_readers_language(pseudo_app):
    app, game_id, lobby_id = pseudo_app
    with app.app_context(), db.connection_context():
        to_move = Game.get_by_id(game_id).to_move
    player = sign_in(app, f"p{to_move}@example.org")
    visitor = app.test_client()
    moderator = sign_in(app, "mod@example.org")
    eo = {"Accept-Language": "eo"}
    pages = [(visitor, p) for p in ("/", "/login", "/signup", "/reset", "/no/such/page")] + [
        (player, p) for p in ("/", "/games/new", "/games/new?kind=new_found_land",
                              f"/games/{game_id}", f"/games/{game_id}/log",
                              f"/games/{game_id}/at/1", f"/games/{game_id}/record.txt",
                              "/settings", "/account", "/games/999999")] + [
        (sign_in(app, "p1@example.org"), f"/games/{lobby_id}/lobby")] + [
        (moderator, p) for p in ("/moderation", f"/moderation/games/{game_id}",
                                 "/moderation/moderators")]
    found = {}
    for client, path in pages:
        page = client.get(path, headers=eo)
        assert page.status_code in (200, 404), (path, page.status_code)
        if page.status_code == 404:
            assert path in ("/no/such/page", "/games/999999"), path
        assert "⟦" in page.text, path
        check(path, pseudo_locale.visible(page.text), found)
    assert not found, found


def test_every_mail_speaks_only_the_readers_language_and_says_what_it_is(pseudo_app):
    app, game_id, lobby_id = pseudo_app
    mailer = app.extensions["pbem_mailer"]
    with app.app_context(), db.connection_context():
        game = Game.get_by_id(game_id)
        seats = list(Seat.select().where(Seat.game == game_id).order_by(Seat.index))
        host, mod = seats[0].user, User.get(User.email == "mod@example.org")
        title = rules(game).title
        table_talk.post(game_id, seats[1], "Good luck, all", mailer)
        proposals.propose(game_id, host, game.seq, "undo", {"count": 1}, "A slip", mailer=mailer)
        moderation.extend(game_id, mod, Game.get_by_id(game_id).seq, 24, "Holidays",
                          mailer=mailer)
        seat = Seat.get_by_id(seats[game.to_move].id)
        mailer.final(game, title, seats[1], [{"winner": True, "name": "Bo Berg", "seat": 2,
                                              "total": 31, "breakdown": []}], "")
        mailer.timeout(game, title, seats[2], [], True)
        mailer.new_link(game, title, seats[2])
        mailer.stalling(game, title, mod, "Cy Cole", 3)
        lobby = Game.get_by_id(lobby_id)
        mailer.lobby_reminder(lobby, rules(lobby).title, seats[1].user, lobby.created_at)
        mailer.lobby_closed(lobby, rules(lobby).title, seats[1].user, 14, True)
        mailer.invitation(lobby, rules(lobby).title, seats[1].user, "p2@example.org")
        mailer.outage(game, title, seat, "x", "y", "z")
        mailer.reset(host)
        mailer.address_change(host, "ana.new@example.org")
        mailer.account_exists(host)
        # The sweep's own words (tested in test_reminder_language.py).
        prompt, deadline = prompt_for(mailer, game, seat.user), clocks.local_text(
            seat.deadline, seat.user.timezone, seat.user.language)
        mailer.reminder(game, title, seat, prompt, deadline)
        mailer.reminder(game, title, seat, prompt, deadline, last_call=True)
    with app.app_context(), db.connection_context():
        mails = list(Outbox.select().order_by(Outbox.id))
    kinds = {m.kind for m in mails}
    assert {"turn", "started", "reminder", "talk", "moderation_notice", "final", "timeout",
            "new_link", "stalling", "lobby_reminder", "lobby_closed", "invite", "outage",
            "reset", "address_change", "address_notice", "account_exists"} <= kinds, kinds
    found, firsts = {}, {}
    for m in mails:
        for part, text in (("subject", m.subject), ("text", m.body_text),
                           ("html", pseudo_locale.visible(m.body_html))):
            check(f"{m.kind} {part}", text, found)
        # What it is, first: a subject of its own per kind.
        assert m.subject.startswith(("⟦", "[pbem] ⟦")), m.subject
        firsts.setdefault(m.subject.split(":")[0], set()).add(m.kind)
    assert not found, found
    shared = {first: k for first, k in firsts.items()
              if len(k - {"address_change", "address_notice"}) > 1}
    assert not shared, shared


def test_subjects_say_what_a_mail_is_in_plain_words(app):
    """In English: "Result: Sugar (Puerto Rico #1)", "Undo proposal: …";
    table talk keeps its capital."""
    from clock_helpers import started_game
    game = started_game(app, players=3, tag="s")
    random_move(app, game.id, random.Random(1))
    mailer = app.extensions["pbem_mailer"]
    with app.app_context(), db.connection_context():
        game = Game.get_by_id(game.id)
        seats = list(Seat.select().where(Seat.game == game.id).order_by(Seat.index))
        User.update(language="nl").where(User.id == seats[2].user_id).execute()
        final = mailer.final(game, "Puerto Rico", seats[1], [], "")
        proposals.propose(game.id, seats[0].user, game.seq, "undo", {"count": 1}, "Oops",
                          mailer=mailer)
        undo = Outbox.select().where(Outbox.kind == "moderation_notice").order_by(Outbox.id)
        table_talk.post(game.id, seats[0], "Nice move", mailer)
        talk = Outbox.select().where(Outbox.kind == "talk").order_by(Outbox.id)
        assert final.subject == f"Result: Game s (Puerto Rico #{game.id})"
        assert [m.subject for m in undo] == [
            f"Undo proposal: Game s (Puerto Rico #{game.id})",
            f"Voorstel om zetten terug te nemen: Game s (Puerto Rico #{game.id})"]
        assert {m.subject for m in talk} == {"S 1 says: Nice move, Game s",
                                             "S 1 zegt: Nice move, Game s"}
