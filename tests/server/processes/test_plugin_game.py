"""Games are plug-ins.  Race to 21 lives only under
tests/plugin_game/ as a package of its own (scripts/test.sh installs it with
``pip install -e tests/plugin_game``) and names itself in the ``pbem.games``
entry point group; with no line of server/, mail_templates/ or the server's
catalogs about it, it gets a lobby, turn mails, move pages, replies,
timeouts, a text board and its Dutch words from its own catalog.
"""

from __future__ import annotations

import re
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path

import pytest
from clock_helpers import events, sweep_past_deadline
from game_driver import Table, current_turn
from reply_helpers import body_of, reply_app, send, start_receiver, write_reply
from web_helpers import move_form, post_form, text_of

from engine import BUILT_IN, GAMES
from engine.words import term
from server.db import db
from server.i18n import say
from server.models import Game, User
from server.services.state_store import load_state
from server.web.play import prompt_text

ROOT = Path(__file__).resolve().parents[3]
# What would name one of the games in the server: their names, titles and
# package paths, and the plug-in's.
GAME_WORDS = re.compile(r"puerto|rico|new.found|found.land|newfound|nfl\b|race.to.21|race_to", re.I)


@pytest.fixture
def duo(sqlite_url, smtp, send_mail, tmp_path):
    app = reply_app(sqlite_url, smtp, tmp_path)
    table = Table(app, smtp, send_mail, 2, seed=21, kind="race_to_21")
    table.set_up("Twenty-one")  # created, invited, joined, started by pages
    return table


def _state(table: Table) -> dict:
    with table.app.app_context(), db.connection_context():
        return GAMES["race_to_21"].to_json(load_state(Game.get_by_id(table.game_id), save=False))


def test_the_plugin_game_is_found_through_its_entry_point():
    names = {point.name: point.value for point in entry_points(group="pbem.games")}
    assert names["race_to_21"] == "race_to_21.game:RaceTo21"
    assert names.keys() >= BUILT_IN.keys()  # pbem's own games are plug-ins too
    game = GAMES["race_to_21"]
    assert game.domain == "race_to_21"
    assert Path(game.translations_dir()) == ROOT / "tests/plugin_game/race_to_21/translations"
    assert say("nl", term(game.description)).startswith("Twee spelers tellen om de beurt")


def test_a_plugin_game_is_played_by_page_by_reply_and_by_timeout(duo, smtp):
    app = duo.app
    # The turn mail: the game's prompt and its text board.
    seat, client, page, mail = current_turn(duo)
    assert "add 1, 2 or 3 to the count (now 0)" in text_of(mail)
    assert "The count" in text_of(mail) and "Goal" in text_of(mail)
    # A move by page, from the mail's link.
    form = move_form(page.text)
    assert [label for name, label in form["buttons"] if name == "action"]
    page = post_form(
        client,
        form,
        action=next(v for name, v in form["buttons"] if name == "action" and '"n": 3' in v),
    )
    assert page.status_code == 200 and _state(duo)["count"] == 3
    # A move by reply: "2" is the second choice, Add 2.
    receiver = start_receiver(app)
    try:
        seat, client, page, mail = current_turn(duo)
        assert "add 1, 2 or 3 to the count (now 3)" in text_of(mail)
        send(receiver.port, write_reply(mail, duo.emails[seat], "2"))
        (answer,) = duo.new_mail(duo.emails[seat])
        assert "Your reply was played" in body_of(answer) and "Add 2 (to 5)" in body_of(answer)
    finally:
        receiver.stop()
    assert _state(duo)["count"] == 5
    # A timeout: the sweep plays the game's default action (add 1).
    assert sweep_past_deadline(app, duo.game_id).timeouts == 1
    (timed_out,) = events(app, duo.game_id, "timeout")
    assert timed_out.action == {"type": "add", "n": 1} and _state(duo)["count"] == 6
    # The game page in Dutch: the game's words from the game's own catalog.
    seat = duo.game().to_move
    with app.app_context(), db.connection_context():
        User.update(language="nl").where(User.email == duo.emails[seat]).execute()
    page = duo.clients[seat].get(f"/games/{duo.game_id}")
    assert "tel 1, 2 of 3 op bij de stand (nu 6)" in page.text
    assert "De telling" in page.text and "Tel 3 op (tot 9)" in page.text
    assert "telt 1 op: de stand is 6." in page.text
    # "Goal" is this game's "Doel"; New Found Land's catalog says "Doelkaart"
    # (a goal card): the game's own catalog comes first.
    assert re.search(r">\s*Doel\s*<", page.text) and "Doelkaart" not in page.text
    page = duo.clients[seat].get("/games/new?kind=race_to_21")
    assert "Twee spelers tellen om de beurt 1, 2 of 3 op" in page.text


def test_the_server_and_its_mails_name_no_game():
    """Adding a game touches the game only: nothing in server/ (code,
    templates, the server's catalogs) or mail_templates/ names one."""
    found = []
    for top in ("server", "mail_templates"):
        for path in sorted((ROOT / top).rglob("*")):
            if path.is_file() and path.suffix in (".py", ".html", ".txt", ".po", ".pot"):
                for number, line in enumerate(path.read_text().splitlines(), start=1):
                    if GAME_WORDS.search(line):
                        found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert found == []


def test_a_prompts_values_are_dutch_on_the_game_page(sqlite_app):
    """Dutch "kadertegel square": the game page said the prompt's template
    in Dutch but left its values (a frame tile) in English."""

    class Reward:  # New Found Land asking for a frame tile's reward
        domain = "new_found_land"

        def prompt_message(self, state):
            return (
                "take your reward for reaching the %(frame)s frame tile",
                {"frame": term("square")},
            )

    with sqlite_app.test_request_context(headers={"Accept-Language": "nl"}):
        assert prompt_text(Reward(), None, []) == (
            "neem je beloning voor het bereiken van de kadertegel vierkant"
        )


def test_a_plugin_that_does_not_load_is_left_out_and_named(monkeypatch):
    """An installed game whose code fails to import is no reason for pbem not
    to start: it is left out, and create_app logs it (engine.BROKEN)."""
    import engine

    points = [
        EntryPoint("race_to_21", "race_to_21.game:RaceTo21", "pbem.games"),
        EntryPoint("broken", "no_such_module.game:Game", "pbem.games"),
        EntryPoint("not_a_game", "engine.words:Words", "pbem.games"),
    ]
    monkeypatch.setattr(engine, "entry_points", lambda group: points)
    monkeypatch.setattr(engine, "GAMES", {})
    monkeypatch.setattr(engine, "BROKEN", {})
    engine.load_games()
    assert list(engine.GAMES) == ["puerto_rico", "new_found_land", "race_to_21"]
    assert engine.BROKEN["broken"].startswith("ModuleNotFoundError")
    assert engine.BROKEN["not_a_game"].startswith("TypeError")
