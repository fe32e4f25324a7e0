"""Every word in the reader's language.  Every page, every kind of mail
(every_mail.py queues them) and the mail catcher's pages showing each kind
are rendered in a pseudo-locale (pseudo_locale.py: each catalog message
⟦ẇŕáṕṕéđ⟧); a plain English word left in one is a text no catalog holds.
Also: each kind of mail says what it is first in its subject."""

from __future__ import annotations

import random
import re
import uuid
from pathlib import Path

import every_mail
import pseudo_locale
import pytest
from clock_helpers import random_move, sign_in
from web_helpers import csrf, form_for, post_form

from engine import GAMES
from server.db import db
from server.mail.smtp_sender import build_message, wire_bytes
from server.models import Game, Outbox, Seat, User
from server.services import clubs, proposals, table_talk
from server.settings import MAIL_TEMPLATES as TEMPLATES

# People's and games' names: no catalog holds them.  Game kinds' titles and
# the languages' own names are names too.
NAMES = (
    [
        "Ana Alba",
        "Bo Berg",
        "Cy Cole",
        "Mo Mod",
        "Sugar Cane",
        "Lobby Tea",
        "Puerto Rico",
        "Race to the New Found Land",
        "English",
        "Nederlands",
        "Deutsch",
        "Français",
        "pbem",
        "eo",
        "localhost",
        "Good luck, all",
        "Holidays",
        "A slip",
        "Dee Dow",
        "Sugar Club",
        "Liga Boreal",
        "We plant cane",
        # Texts every_mail.py hands the mails as already said (a reply's
        # applied moves, a rematch's expiry: the engine's and the clock's
        # words, in the reader's language where the server writes them).
        "Ana Alba took the Mayor",
        "tomorrow",
    ]
    + [
        # The word an /option mail command takes, shown beside its translation.
        f"({choice})"
        for kind in GAMES.values()
        for spec in kind.options
        for choice in spec.choices
    ]
    + [kind.title for kind in GAMES.values()]
    + pseudo_locale.engine_proper_names()
)


@pytest.fixture(scope="module")
def pseudo_app(tmp_path_factory, request):
    """One app (a real SQLite file, the real SMTP fixture's port unused: mail
    stays in the outbox, the built-in catcher's pages on) speaking the
    pseudo-locale, with every_mail.py's games: a started game of three, an
    open lobby, ships under way, a finished game, a site moderator, all
    reading "eo"."""
    tmp = tmp_path_factory.mktemp("pseudo")
    folder = pseudo_locale.build(tmp / "translations")
    with pytest.MonkeyPatch.context() as patch:
        pseudo_locale.enable(patch, folder)
        app, ids = every_mail.site(
            tmp,
            pseudo_locale.CODE,
            BABEL_TRANSLATION_DIRECTORIES=str(folder),
            MAIL_CATCHER_DIR="caught",
        )
        yield (app, *ids)
    pseudo_locale.disable()


def check(where: str, text: str, found: dict) -> None:
    words = pseudo_locale.leftovers(text, NAMES)
    if words:
        found[where] = sorted(set(words))


def test_every_page_speaks_only_the_readers_language(pseudo_app):
    app, game_id, lobby_id, ships_id, over_id = pseudo_app
    with app.app_context(), db.connection_context():
        to_move = Game.get_by_id(game_id).to_move
        ships_to_move = Game.get_by_id(ships_id).to_move
        # A club with a member by link, a new admin, a declined
        # and an open request, a game made for it.
        people = [User.get(User.email == f"p{i}@example.org") for i in range(3)]
        club = clubs.found(people[0], "Sugar Club", "We plant cane", ["nl"], True)
        token = clubs.invitation_token(club, app.config["SECRET_KEY"])
        clubs.join_by_link(token, people[1], app.config["SECRET_KEY"], 3600)
        clubs.make_admin(club, people[0], people[1].id)
        clubs.ask_to_join(club, people[2])
        asked = clubs.open_request(club, people[2])
        clubs.answer_request(club, people[0], asked.id, False)
        clubs.ask_to_join(club, people[2])
        Game.update(club=club).where(Game.id == game_id).execute()
    player = sign_in(app, f"p{to_move}@example.org")
    visitor = app.test_client()
    moderator = sign_in(app, "mod@example.org")
    eo = {"Accept-Language": "eo"}
    founder = sign_in(app, "p0@example.org")
    pages = (
        [(visitor, p) for p in ("/", "/login", "/signup", "/reset", "/privacy", "/no/such/page")]
        + [
            (player, p)
            for p in (
                "/",
                "/games/new",
                "/games/new?kind=new_found_land",
                f"/games/{game_id}",
                f"/games/{game_id}/log",
                f"/games/{game_id}/at/1",
                f"/games/{game_id}/record.txt",
                "/settings",
                "/account",
                "/games/999999",
            )
        ]
        + [
            (sign_in(app, "p1@example.org"), f"/games/{lobby_id}/lobby"),
            (sign_in(app, f"p{ships_to_move}@example.org"), f"/games/{ships_id}"),
            # Seat 1 of the finished game (a spectator's drawing says "seat None":
            # an engine text, reported to its owner).
            (sign_in(app, "p0@example.org"), f"/games/{over_id}"),
            (player, f"/games/{over_id}/record.txt"),
            (visitor, "/clubs"),
            (visitor, "/clubs/sugar-club"),
            (founder, "/clubs"),
            (founder, "/clubs/new"),
            (founder, "/clubs/sugar-club"),
            (founder, f"/clubs/join/{token}"),
            (sign_in(app, "p2@example.org"), "/clubs/sugar-club"),
        ]
        + [
            (moderator, p)
            for p in (
                "/moderation",
                f"/moderation/games/{game_id}",
                f"/moderation/games/{over_id}",
                "/moderation/moderators",
                "/moderation/inbound",
            )
        ]
    )
    found = {}
    # A refused vacation (a year and more ahead) on the settings page.
    settings = player.get("/settings", headers=eo).text
    refused = post_form(
        player, form_for(settings, "/settings/vacations"), starts="2099-01-01", ends="2099-01-02"
    )
    assert refused.status_code == 400
    check("refused vacation", pseudo_locale.visible(refused.text), found)
    for name, where in (("", "club without a name"), ("sugar  CLUB", "club name taken")):
        new = founder.get("/clubs/new", headers=eo).text
        refused = post_form(founder, form_for(new, "/clubs/new"), name=name)
        assert refused.status_code == 400 and "⟦" in refused.text
        check(where, pseudo_locale.visible(refused.text), found)
    page = founder.get("/clubs/sugar-club", headers=eo).text
    with app.app_context(), db.connection_context():
        admin_id = User.get(User.email == "p1@example.org").id
    refused = founder.post(  # an admin already: refused in words
        f"/clubs/sugar-club/members/{admin_id}/admin",
        data={"csrf_token": csrf(page)},
        headers=eo,
    )
    assert refused.status_code == 400
    check("club refusal page", pseudo_locale.visible(refused.text), found)
    for client, path in pages:
        page = client.get(path, headers=eo)
        assert page.status_code in (200, 404), (path, page.status_code)
        if page.status_code == 404:
            assert path in ("/no/such/page", "/games/999999"), path
        assert "⟦" in page.text, path
        check(path, pseudo_locale.visible(page.text), found)
    assert not found, found


def test_every_mail_speaks_only_the_readers_language_and_says_what_it_is(pseudo_app):
    app, *ids = pseudo_app
    mails = every_mail.queue_every_kind(app, ids)
    kinds = {m.kind for m in mails}
    written = {p.stem for p in TEMPLATES.glob("*.txt")} - every_mail.PARTS
    assert written <= kinds, written - kinds
    found, firsts = {}, {}
    for m in mails:
        for part, text in (
            ("subject", m.subject),
            ("text", m.body_text),
            ("html", pseudo_locale.visible(m.body_html)),
        ):
            check(f"{m.kind} {part}", text, found)
        # What it is, first: a subject of its own per kind, or in a game's
        # thread (one subject for all its mails) the text's first line.
        news = m.body_text.split("\n", 1)[0] if m.in_reply_to else m.subject
        assert news.startswith(("⟦", "[pbem] ⟦")), (m.kind, news)
        firsts.setdefault(news.split(":")[0], set()).add(m.kind)
    assert not found, found
    shared = {
        first: k for first, k in firsts.items() if len(k - {"address_change", "address_notice"}) > 1
    }
    assert not shared, shared


def test_the_mail_catchers_pages_speak_only_the_readers_language(pseudo_app):
    """The catcher's inbox and each kind of mail as it shows one, the way a
    reader of the pseudo-locale sees them on this machine."""
    app, *ids = pseudo_app
    with app.app_context(), db.connection_context():
        mails = list(Outbox.select().order_by(Outbox.id))
    assert mails, "the mail test queued every kind first"
    caught = Path(app.instance_path) / "caught"
    caught.mkdir(parents=True, exist_ok=True)
    shown = {}
    for m in mails:
        if m.kind not in shown:
            shown[m.kind] = f"{uuid.uuid4().hex}.eml"
            message = build_message(m, "pbem@localhost")
            (caught / shown[m.kind]).write_bytes(wire_bytes(message))
    client, eo = app.test_client(), {"Accept-Language": pseudo_locale.CODE}
    found = {}
    inbox = client.get("/dev/mail/", headers=eo)
    assert inbox.status_code == 200 and "⟦" in inbox.text
    check("catcher inbox", pseudo_locale.visible(inbox.text), found)
    for kind, name in shown.items():
        page = client.get(f"/dev/mail/{name}", headers=eo)
        assert page.status_code == 200 and "⟦" in page.text, kind
        check(f"catcher {kind}", pseudo_locale.visible(page.text), found)
    assert not found, found


def test_subjects_say_what_a_mail_is_in_plain_words(app):
    """In English: "Result", "Undo proposal" first in the text under the
    thread's subject "[pbem] Sugar (#1)"; table talk keeps its capital."""
    from clock_helpers import started_game

    game = started_game(app, players=3, tag="s")
    random_move(app, game.id, random.Random(1))
    mailer = app.extensions["pbem_mailer"]
    with app.app_context(), db.connection_context():
        game = Game.get_by_id(game.id)
        seats = list(Seat.select().where(Seat.game == game.id).order_by(Seat.index))
        User.update(language="nl").where(User.id == seats[2].user_id).execute()
        final = mailer.final(game, "Puerto Rico", seats[1], [], "")
        proposals.propose(
            game.id, seats[0].user, game.seq, "undo", {"count": 1}, "Oops", mailer=mailer
        )
        undo = Outbox.select().where(Outbox.kind == "moderation_notice").order_by(Outbox.id)
        table_talk.post(game.id, seats[0], "Nice move", mailer)
        talk = Outbox.select().where(Outbox.kind == "talk").order_by(Outbox.id)
        # One subject for the game's whole thread; what each is, first inside.
        thread = [final, *undo, *talk]
        assert {m.subject for m in thread} == {f"[pbem] Game s (#{game.id})"}
        assert final.body_text.startswith("Result\n")
        assert [m.body_text.split("\n", 1)[0] for m in undo] == [
            "Undo proposal",
            "Voorstel om zetten terug te nemen",
        ]
        assert {m.body_text.split("\n", 1)[0] for m in talk} == {
            "S 1 says: Nice move",
            "S 1 zegt: Nice move",
        }
        turn = Outbox.select().where(Outbox.kind == "turn").order_by(Outbox.id.desc()).get()
    # Once "seat 1:send ships" in the HTML part: the prompt after a space.
    assert re.search(r"seat \d+: <b>\w", turn.body_html), turn.body_html
