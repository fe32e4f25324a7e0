"""What a notice says: short, in the recipient's language, with the game,
what is asked, the deadline in the recipient's zone and the link.  A
player's own channel gets their seat link; a table channel, shared by the
whole table, only the game page's address and no one's secrets."""

from __future__ import annotations

from dataclasses import dataclass

from engine.words import N_
from server.i18n import translate

TITLES = {
    "turn": N_("Your turn in %(game)s"),
    "reminder": N_("Reminder, your turn in %(game)s"),
    "last_call": N_("Last call, your turn in %(game)s"),
    "result": N_("Game over: %(game)s"),
    "proposals": N_("A question for you in %(game)s"),
    "talk": N_("%(author)s says in %(game)s"),
    "lobby": N_("News of %(game)s"),
}
TABLE_TURN = N_("%(player)s's turn in %(game)s")
TABLE_RESULT = N_("%(game)s is over")
DEADLINE = N_("Deadline: %(deadline)s")
TEST_TITLE = N_("A test from pbem")
TEST_BODY = N_("This channel works: your notices will come here.")
LIMIT = 1500  # chat services cut long messages; a notice is a pointer


@dataclass(frozen=True)
class Text:
    title: str
    body: str


def _join(*lines: str) -> str:
    return "\n".join(line for line in lines if line)[:LIMIT]


def personal(
    language: str | None,
    event: str,
    game: str,
    *,
    prompt: str = "",
    deadline: str = "",
    url: str = "",
    author: str = "",
    text: str = "",
    title: str | None = None,
) -> Text:
    """``prompt``, ``text`` and ``deadline`` arrive already in the recipient's
    language and zone (as the mail of the same event has them); ``title``:
    the TITLES key when it is not the event's own."""
    title = translate(language, TITLES[title or event], {"game": game, "author": author})
    when = translate(language, DEADLINE, {"deadline": deadline}) if deadline else ""
    return Text(title, _join(prompt, text, when, url))


def table_turn(language: str | None, game: str, player: str, deadline: str, url: str) -> Text:
    title = translate(language, TABLE_TURN, {"player": player, "game": game})
    return Text(title, _join(translate(language, DEADLINE, {"deadline": deadline}), url))


def table_result(language: str | None, game: str, url: str) -> Text:
    return Text(translate(language, TABLE_RESULT, {"game": game}), url)


def test(language: str | None) -> Text:
    return Text(translate(language, TEST_TITLE), translate(language, TEST_BODY))
