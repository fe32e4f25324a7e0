"""May this person act for this seat now (services/acting.py): every case
asked of the one function the game page, the mail replies and the API take."""

from __future__ import annotations

import pytest

from engine.words import term
from server.i18n import say
from server.models import Game, Seat
from server.services.acting import SAID, Answer, may_act

PLAYER, OTHER = 7, 8


def seat(**fields) -> Seat:
    """Seat 1 (index 0) of player 7, as changed by ``fields``."""
    return Seat(index=0, user=fields.pop("user", PLAYER), **fields)


def game(**fields) -> Game:
    """An active game, seat 1 to move, as changed by ``fields``."""
    return Game(**{"status": "active", "paused": False, "to_move": 0, **fields})


CASES = [
    # (what, seat, who asks, game or None: the person's checks only, answer)
    ("their seat, their turn", seat(), PLAYER, game(), Answer.OK),
    ("their seat, no game asked", seat(), PLAYER, None, Answer.OK),
    ("no seat", None, PLAYER, game(), Answer.NOT_YOUR_SEAT),
    ("somebody else's seat", seat(), OTHER, game(), Answer.NOT_YOUR_SEAT),
    ("nobody asks (no account)", seat(), None, game(), Answer.NOT_YOUR_SEAT),
    (
        "a practice game's bot seat",
        seat(user=None, bot="random"),
        PLAYER,
        game(),
        Answer.NOT_YOUR_SEAT,
    ),
    ("resigned or removed", seat(withdrawn=True), PLAYER, game(), Answer.WITHDRAWN),
    ("resigned, no game asked", seat(withdrawn=True), PLAYER, None, Answer.WITHDRAWN),
    (
        "removed, handed to a bot",
        seat(withdrawn=True, bot="heuristic"),
        PLAYER,
        game(),
        Answer.HANDED_TO_BOT,
    ),
    (
        "left, and the game is over",
        seat(withdrawn=True),
        PLAYER,
        game(status="finished"),
        Answer.WITHDRAWN,
    ),
    # Moving is how an absent player takes the seat back (docs/players/practice.md).
    ("absent, passing meanwhile", seat(absent=True), PLAYER, game(), Answer.OK),
    (
        "absent, a bot plays meanwhile",
        seat(absent=True, bot="heuristic"),
        PLAYER,
        game(),
        Answer.OK,
    ),
    ("game over", seat(), PLAYER, game(status="finished", to_move=None), Answer.GAME_OVER),
    ("game still open", seat(), PLAYER, game(status="open", to_move=None), Answer.NOT_STARTED),
    (
        "game closed unstarted",
        seat(),
        PLAYER,
        game(status="closed", to_move=None),
        Answer.NOT_STARTED,
    ),
    ("game paused", seat(), PLAYER, game(paused=True), Answer.PAUSED),
    ("another seat to move", seat(), PLAYER, game(to_move=1), Answer.NOT_YOUR_TURN),
    ("not their turn, no game asked", seat(), PLAYER, None, Answer.OK),
]


@pytest.mark.parametrize(
    ("what", "the_seat", "who", "the_game", "expected"), CASES, ids=[c[0] for c in CASES]
)
def test_may_act_answers_every_case(what, the_seat, who, the_game, expected):
    assert may_act(the_seat, who, the_game) is expected


def test_every_answer_is_asked_above():
    assert {case[-1] for case in CASES} == set(Answer)


@pytest.mark.parametrize("answer", [a for a in Answer if not a.ok])
def test_every_refusal_is_said_in_each_language(answer):
    """The page and the API say each refusal in the reader's language."""
    english = SAID[answer]
    for language in ("nl", "de", "fr"):
        assert say(language, term(english)) not in ("", english), (language, english)
