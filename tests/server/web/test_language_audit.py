"""Every word in the reader's language, as a new user meets it: what an audit in a real browser
(nl, de, fr, en) still found in English or in codes, each fixed and held here.

- The address-confirmation page, the password-reset pages and the
  unsubscribe page were English on every language's site.
- The game page's mail-link note, a proposal's box, the missed-deadline
  note, table talk's "(seat n)", the look-back page's headings and the mail
  statuses in Settings were English.
- Flash messages with a value (a bot seated, an option set, an address
  moved, a moderator named) were English f-strings.
- The refusals of game options with unknown names or values were English
  (README: "Still English").
- The option values (base / extended / random, standard / advanced) showed
  as codes; New Found Land's frame-tile option had no explanation.
- New Found Land's frame tiles were English words (square, pentagon, …) in
  the board, the prompt and the log; the drawn score track cut them to
  "squa", "pent".
- French "plantation de indigo"; Dutch "1 punten" beside a building; German
  "Schicke s04 zu Laden"; French "envoyez des navires Charger".
"""

from __future__ import annotations

import re

import pytest
from clock_helpers import sign_in, started_game
from web_helpers import csrf, form_for, post_form, queued_link, signup

from engine import get_game
from engine.puerto_rico.labels import target_title
from engine.words import Words
from server.db import db
from server.i18n import say, translate
from server.models import Game, User
from server.services import games, proposals

LANGS = ("nl", "de", "fr")
HEADERS = {lang: {"Accept-Language": lang} for lang in LANGS}


def visible(html: str) -> str:
    """The page's words, without tags, scripts or the drawing's markup."""
    html = re.sub(r"<(script|style|svg)\b.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def set_language(app, email: str, lang: str) -> None:
    with app.app_context(), db.connection_context():
        User.update(language=lang).where(User.email == email).execute()


@pytest.mark.parametrize("lang", LANGS)
def test_account_pages_speak_the_browsers_language(app, lang):
    client = app.test_client()
    page = client.get("/signup", headers=HEADERS[lang])
    client.post(
        "/signup",
        headers=HEADERS[lang],
        data={
            "csrf_token": csrf(page.text),
            "name": "Nel",
            "email": f"nel-{lang}@example.org",
            "password": "correct horse",
        },
    )
    confirm = client.get(
        queued_link(app, f"nel-{lang}@example.org", "/confirm/"), headers=HEADERS[lang]
    )
    words = visible(confirm.text)
    for english in ("Confirm your address", "your address?", "Yes, confirm and sign in"):
        assert english not in words, (lang, english)
    assert {
        "nl": "Ja, bevestigen en aanmelden",
        "de": "Ja, bestätigen und anmelden",
        "fr": "Oui, confirmer et me connecter",
    }[lang] in words
    reset = visible(client.get("/reset", headers=HEADERS[lang]).text)
    for english in ("Forgot your password?", "Mail me a link", "Give your address"):
        assert english not in reset, (lang, english)
    unsubscribe = client.get(
        queued_link(app, f"nel-{lang}@example.org", "/mail/unsubscribe/"), headers=HEADERS[lang]
    )
    assert unsubscribe.status_code == 200
    for english in ("Optional mail for", "Stop reminders", "Unsubscribe"):
        assert english not in visible(unsubscribe.text), (lang, english)


def test_a_proposal_and_the_look_back_page_in_the_players_language(app):
    game = started_game(app, players=3, tag="p")
    set_language(app, "p1@example.org", "de")
    with app.app_context(), db.connection_context():
        game = Game.get_by_id(game.id)
        what = proposals.describe(game, "undo", {"count": 2})
        assert isinstance(what, Words)
        assert say("de", what) == "die letzten 2 Züge zurücknehmen"
        assert (
            say("nl", proposals.describe(game, "abandon", {}))
            == "het spel af te breken zoals het nu staat"
        )
    client = sign_in(app, "p1@example.org")
    look_back = visible(client.get(f"/games/{game.id}/at/0").text)
    assert "The log up to" not in look_back and "Das Protokoll bis #0" in look_back
    assert " Board " not in look_back


def test_option_refusals_and_values_in_the_readers_language(app):
    with app.app_context(), db.connection_context():
        kind = get_game("puerto_rico")
        with pytest.raises(games.LobbyError) as unknown:
            games._checked_options(kind, {"colour": "red"})
        assert (
            say("nl", unknown.value.args[0])
            == "Puerto Rico heeft geen optie 'colour' (de opties: buildings)."
        )
        with pytest.raises(games.LobbyError) as bad:
            games._checked_options(kind, {"buildings": "huge"})
        assert say("fr", bad.value.args[0]).startswith(
            "Bâtiments en jeu\u202f: «\u202fhuge\u202f» n’est pas un choix"
        )
        with pytest.raises(games.LobbyError) as players:
            games.create_game(None, "puerto_rico", "x", 9, {}, 24, [], None)
        assert say("de", players.value.args[0]) == "Puerto Rico ist für 2 bis 5 Spieler."

    host = app.test_client()
    signup(host, "Nel", "nel@example.org")
    set_language(app, "nel@example.org", "nl")
    new = visible(host.get("/games/new?kind=new_found_land").text)
    assert "Kadertegels" in new and "standaard" in new and "gevorderd" in new
    assert "velden 7, 15, 20, 25 en 35" in new
    made = post_form(
        host,
        form_for(host.get("/games/new").text, "/games/new"),
        name="Suiker",
        seats="3",
        move_hours="24",
        reminder_hours="",
    )
    lobby = visible(made.text)
    assert "Gebouwenset: basis" in lobby and ": base" not in lobby
    # The word the /option mail command takes stays beside its translation.
    assert "(extended)" in lobby and "(random)" in lobby
    game_id = int(re.search(r"/games/(\d+)/lobby", made.request.path).group(1))
    refused = host.post(
        f"/games/{game_id}/option",
        data={"csrf_token": csrf(made.text), "name": "buildings", "value": "huge"},
    )
    assert refused.status_code == 400
    assert "is geen keuze" in visible(refused.text) and "is not a choice" not in refused.text
    done = host.post(
        f"/games/{game_id}/option",
        follow_redirects=True,
        data={"csrf_token": csrf(made.text), "name": "buildings", "value": "random"},
    )
    assert "Gebouwenset is nu willekeurig." in visible(done.text)


def test_frame_tiles_are_named_in_the_readers_language():
    kind = get_game("new_found_land")
    state = kind.new_game(3, {}, seed=3)
    view = kind.view(state, 0)
    rows = " ".join(
        say("nl", value)
        for section in kind.board(view, ["A", "B", "C"])
        for _, value in section.rows
    )
    assert "vierkant op 7" in rows and "vijfhoek op 15" in rows, rows
    assert (
        translate(
            "de", "take your reward for reaching the %(frame)s frame tile", {"frame": Words("star")}
        ).count("Stern")
        == 1
    )


def test_plantations_and_building_points_read_right():
    assert say("fr", target_title("indigo")) == "plantation d’indigo"
    assert say("nl", target_title("tobacco")) == "tabaksplantage"
    assert say("de", target_title("corn")) == "Maisplantage"
    text = Words(
        "cost %(cost)s, %(vp)s VP, column %(column)s: %(effect)s",
        {"cost": 1, "vp": 1, "column": 1, "effect": "x"},
    )
    assert "1 punten" not in say("nl", text)
    send = Words("Send %(ship)s to %(action)s", {"ship": "s04", "action": Words("Load")})
    assert say("de", send) == "Schicke s04 zum Laden"
    assert say("fr", Words("send ships to Load")) == "envoyez des navires pour Charger"


def test_deadlines_are_said_by_babel_in_the_readers_language_and_zone(app):
    """ "Termijn: Fri 27 Nov 2026 22:30 UTC" on a Dutch page, then bare
    numbers: a time is now said by Babel in the reader's language and zone."""
    import datetime as dt

    from server.services.clock.deadlines import local_text

    when = dt.datetime(2026, 11, 27, 21, 30)
    assert (
        local_text(when, "Europe/Amsterdam", "nl")
        == "vrijdag 27 november 2026 om 22:30 (Europe/Amsterdam)"
    )
    assert local_text(when, "Europe/Berlin", "de").startswith("Freitag, 27. November 2026, 22:30")
    assert local_text(when, "UTC", "fr") == "vendredi 27 novembre 2026 à 21:30 (UTC)"
    game = started_game(app, players=2, tag="d")
    set_language(app, "d0@example.org", "nl")
    page = visible(sign_in(app, "d0@example.org").get(f"/games/{game.id}").text)
    assert re.search(
        r"Termijn: (maandag|dinsdag|woensdag|donderdag|vrijdag|zaterdag|zondag) "
        r"\d+ \w+ 20\d\d om \d\d:\d\d",
        page,
    ), page
    assert not re.search(r"\b(Mon|Tue|Wed|Thu|Fri|Sat|Sun)\w* \d", page)


def test_finding_a_game_and_a_rematch_in_the_readers_language(app):
    """The open games list, the lobby news to its host, a rematch
    request and its box speak the reader's language."""
    from clock_helpers import outbox, user

    from server.services import moderation, open_games, rematches

    mailer = app.extensions["pbem_mailer"]
    with app.app_context(), db.connection_context():
        host, guest = user("fh@example.org", "Fenna"), user("fg@example.org", "Gerd")
        User.update(language="nl").where(User.id == host.id).execute()
        User.update(language="de").where(User.id == guest.id).execute()
        host, guest = User.get_by_id(host.id), User.get_by_id(guest.id)
        listed = games.create_game(
            host, "puerto_rico", "Suiker", 3, {}, 48, [24], mailer, public=True
        )
        open_games.join_listed(listed.id, guest, mailer)
    words = {
        "nl": ("Open spellen", "Nederlands", "2 van 3 bezet", "Uren per zet: 48."),
        "de": ("Offene Spiele", "Niederländisch", "2 von 3 besetzt", "Stunden pro Zug"),
        "fr": ("Parties ouvertes", "néerlandais", "2 sur 3 prises", "Heures par coup"),
    }
    for lang, expected in words.items():
        page = visible(app.test_client().get("/games/open", headers=HEADERS[lang]).text)
        for word in expected:
            assert word in page, (lang, word, page)
        assert "seats free" not in page and "Language of the table" not in page
    (news,) = outbox(app, "lobby_news", "fh@example.org")
    assert "Gerd zit nu op plaats 2." in news.body_text and "Hallo Fenna," in news.body_text

    game = started_game(app, players=2, tag="q")
    set_language(app, "q1@example.org", "fr")
    with app.app_context(), db.connection_context():
        moderator = user("fq@example.org", is_moderator=True)
        moderation.abandon(game.id, moderator, Game.get_by_id(game.id).seq, "fin", mailer=mailer)
        rematches.propose(game.id, User.get(User.email == "q0@example.org"), mailer)
    (asked,) = outbox(app, "rematch", "q1@example.org")
    assert "propose une revanche" in asked.body_text
    page = visible(sign_in(app, "q1@example.org").get(f"/games/{game.id}").text)
    assert "Oui, rejouer" in page and "Doivent encore répondre" in page


def test_profiles_archive_and_leaderboard_in_the_readers_language(app):
    """The new pages and the profile choices in Settings."""
    game = started_game(app, players=2, tag="w")
    client = sign_in(app, "w1@example.org")
    with app.app_context(), db.connection_context():
        me = User.get(User.email == "w1@example.org").id
    english = (
        "Archive of finished games",
        "Games in progress",
        "Finished games",
        "Ended on or after",
        "The rating shown is a cautious one",
        "Languages I play in",
        "Show my finished games",
        "Who may see it",
        "Players:",
    )
    wanted = {
        "nl": (
            "Archief van afgelopen spellen",
            "Lopende spellen",
            "Ranglijst",
            "Talen waarin ik speel",
            "Wie het mag zien",
        ),
        "de": (
            "Archiv der beendeten Partien",
            "Laufende Partien",
            "Rangliste",
            "Sprachen, in denen ich spiele",
            "Wer sie sehen darf",
        ),
        "fr": (
            "Archives des parties terminées",
            "Parties en cours",
            "Classement",
            "Langues dans lesquelles je joue",
            "Qui peut la voir",
        ),
    }
    for lang in LANGS:
        words = " ".join(
            visible(client.get(path, headers=HEADERS[lang]).text)
            for path in (
                "/archive",
                f"/players/{me}",
                "/leaderboard",
                "/settings",
                "/games/new",
                f"/games/{game.id}",
            )
        )
        for text in english:
            assert text not in words, (lang, text)
        for text in wanted[lang]:
            assert text in words, (lang, text)
