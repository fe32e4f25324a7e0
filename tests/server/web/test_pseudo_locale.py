"""Issue 27, item 3: every word in the reader's language.  Every page and
every kind of mail is rendered in a pseudo-locale (pseudo_locale.py: each
catalog message ⟦ẇŕáṕṕéđ⟧); a plain English word left in one is a text no
catalog holds.  Also: each kind of mail says what it is first in its subject."""

from __future__ import annotations

import random
import re

import pseudo_locale
import pytest
from clock_helpers import random_move, sign_in, user
from conftest import make_app
from moderation_helpers import make_moderator
from web_helpers import csrf, form_for, post_form

from engine import GAMES
from engine.words import N_
from server.db import db
from server.models import Game, Outbox, Seat, User
from server.services import (
    clubs,
    games,
    moderation,
    moves,
    proposals,
    replies,
    table_talk,
    takebacks,
)
from server.services.clock import deadlines
from server.services.clock.sweep import prompt_for, waiting_games
from server.services.state_store import load_state, rules

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
        "We plant cane",
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
    stays in the outbox) speaking the pseudo-locale, with a started game of
    three, an open lobby and a site moderator, all reading "eo"."""
    tmp = tmp_path_factory.mktemp("pseudo")
    folder = pseudo_locale.build(tmp / "translations")
    with pytest.MonkeyPatch.context() as patch:
        pseudo_locale.enable(patch, folder)
        smtp = type("NoSmtp", (), {"port": 9})()
        app = make_app(
            f"sqlite:///{tmp / 'pseudo.sqlite3'}",
            smtp,
            tmp,
            BABEL_TRANSLATION_DIRECTORIES=str(folder),
        )
        with app.app_context(), db.connection_context():
            people = [
                user(f"p{i}@example.org", name, language="eo", timezone="Europe/Paris")
                for i, name in enumerate(["Ana Alba", "Bo Berg", "Cy Cole"])
            ]
            mailer = app.extensions["pbem_mailer"]
            game = games.create_game(
                people[0], "puerto_rico", "Sugar Cane", 3, {}, 48, [24, 6], mailer
            )
            for i, person in enumerate(people[1:], start=1):
                games.join(game.id, person, i)
            games.start(game.id, people[0], mailer)
            lobby = games.create_game(
                people[1], "new_found_land", "Lobby Tea", 3, {}, 48, [24], mailer
            )
            ships = games.create_game(
                people[2], "new_found_land", "Sugar Cane", 3, {}, 48, [24], mailer
            )
            for i, person in enumerate(people[:2], start=1):
                games.join(ships.id, person, i)
            games.start(ships.id, people[2], mailer)
            over = games.create_game(people[0], "puerto_rico", "Lobby Tea", 3, {}, 48, [24], mailer)
            for i, person in enumerate(people[1:], start=1):
                games.join(over.id, person, i)
            games.start(over.id, people[0], mailer)
            mod = user("mod@example.org", "Mo Mod", language="eo")
        make_moderator(app, "mod@example.org")
        random_move(app, game.id, random.Random(1))
        with app.app_context(), db.connection_context():
            # A move of a player's own (with its user: one they may ask to take back).
            ships = Game.get_by_id(ships.id)
            holder = Seat.get((Seat.game == ships.id) & (Seat.index == ships.to_move))
            moves.play(
                ships.id,
                ships.to_move,
                rules(ships).legal_actions(load_state(ships), ships.to_move)[0],
                ships.seq,
                "player",
                mailer=mailer,
                user_id=holder.user_id,
            )
        with app.app_context(), db.connection_context():
            # A seat that changed hands (the record's tenures, the newcomer's mail), a
            # finished game (its scores) and the moderator's notices with the board.
            user("dee@example.org", "Dee Dow", language="eo")
            moderation.replace(
                over.id,
                User.get_by_id(mod.id),
                Game.get_by_id(over.id).seq,
                2,
                "dee@example.org",
                "Dee Dow",
                "Holidays",
                mailer=mailer,
            )
            moderation.abandon(
                over.id,
                User.get_by_id(mod.id),
                Game.get_by_id(over.id).seq,
                "Holidays",
                mailer=mailer,
            )
        yield app, game.id, lobby.id, ships.id, over.id
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
        # Issue 40: a club with a member by link, a new admin, a declined
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
    app, game_id, lobby_id, ships_id, _ = pseudo_app
    mailer = app.extensions["pbem_mailer"]
    with app.app_context(), db.connection_context():
        game = Game.get_by_id(game_id)
        seats = list(Seat.select().where(Seat.game == game_id).order_by(Seat.index))
        host, mod = seats[0].user, User.get(User.email == "mod@example.org")
        title = rules(game).title
        table_talk.post(game_id, seats[1], "Good luck, all", mailer)
        proposals.propose(game_id, host, game.seq, "undo", {"count": 1}, "A slip", mailer=mailer)
        moderation.extend(game_id, mod, Game.get_by_id(game_id).seq, 24, "Holidays", mailer=mailer)
        seat = Seat.get_by_id(seats[game.to_move].id)
        mailer.final(
            game,
            title,
            seats[1],
            [{"winner": True, "name": "Bo Berg", "seat": 2, "total": 31, "breakdown": []}],
            "",
        )
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
        prompt, deadline = (
            prompt_for(mailer, game, seat.user),
            deadlines.local_text(seat.deadline, seat.user.timezone, seat.user.language),
        )
        mailer.reminder(game, title, seat, prompt, deadline)
        mailer.reminder(game, title, seat, prompt, deadline, last_call=True)
        mailer.digest(seat.user, waiting_games(mailer, seat.user))
        mailer.confirm(host)
        mailer.reset_unknown("nobody@example.org", "eo")
        mailer.outage_summary(mod, deadline, deadline, 2, ["Sugar Cane"], 0)
        replies._answer(
            game, seats[1], mailer, "refused", N_("No command was found at the top of your mail.")
        )
        replies._lobby_answer(
            seats[1].user.email,
            seats[1].user,
            lobby,
            mailer,
            "refused",
            N_("This lobby address was revoked by the host."),
            [],
        )
        ships = Game.get_by_id(ships_id)
        mover, offer = next(
            (s, o)
            for s in Seat.select().where(Seat.game == ships_id)
            for o in takebacks.offers(ships, s)
        )
        takebacks.ask(ships_id, mover.user, ships.seq, offer.seq, mailer=mailer)
    with app.app_context(), db.connection_context():
        mails = list(Outbox.select().order_by(Outbox.id))
    kinds = {m.kind for m in mails}
    assert {
        "turn",
        "started",
        "reminder",
        "talk",
        "moderation_notice",
        "final",
        "timeout",
        "new_link",
        "stalling",
        "lobby_reminder",
        "lobby_closed",
        "invite",
        "outage",
        "reset",
        "address_change",
        "address_notice",
        "account_exists",
        "digest",
        "confirm",
        "reset_unknown",
        "outage_summary",
        "reply_refused",
        "reply_lobby",
        "takeback_request",
        "moderation_seat",
    } <= kinds, kinds
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
