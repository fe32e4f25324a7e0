"""Texts read like English: not "a indigo tile", "1 cards",
"1 more hours" or "draws 1 one-time cards".  Every event text, choice label
and board line of seeded random games of both games is checked."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from engine import get_game
from engine.words import article, count, fill

ENGINE = Path(__file__).resolve().parents[2] / "engine"

# A count of one before a plural noun ("1 cards", "1 island tiles"), and "a"
# before a vowel ("a indigo"; "a one-time card" is right).
NOUNS = (
    "cards",
    "tiles",
    "hours",
    "colonists",
    "points",
    "barrels",
    "crates",
    "ships",
    "markers",
    "cities",
    "islands",
    "doubloons",
    "chips",
    "quarries",
    "seats",
    "moves",
    "plantations",
    "buildings",
    "shipyards",
    "days",
    "goods",
    "players",
    "spaces",
)
ONE_PLURAL = re.compile(rf"(?<![\d.])\b1 (?:[a-z-]+ )?(?:{'|'.join(NOUNS)})\b")
A_VOWEL = re.compile(r"\ba (?!one\b|one-|uni|use|usu)[aeiou]", re.IGNORECASE)


def test_count_and_article():
    assert count(1, "card") == "1 card" and count(2, "card") == "2 cards"
    assert count(0, "one-time card") == "0 one-time cards"
    assert count(3, "quarry") == "3 quarries" and count(2, "more hour") == "2 more hours"
    assert count(1, "more hour") == "1 more hour"
    assert article("indigo") == "an indigo" and article("corn") == "a corn"


def texts_of_a_game(kind: str, players: int, seed: int) -> list[str]:
    rules = get_game(kind)
    rnd = random.Random(seed)
    state = rules.new_game(players, {}, seed)
    names = [f"P{i}" for i in range(players)]
    texts = []
    for _ in range(3000):
        seat = rules.to_move(state)
        if seat is None:
            break
        actions = rules.legal_actions(state, seat)
        texts.extend(rules.label(state, a) for a in actions[:30])
        action = rnd.choice(actions)
        state, events = rules.apply(state, seat, action)
        texts.extend(e.text for e in events)
        texts.extend(e.public_text for e in events if e.public_text)
    for viewer in range(players):
        for section in rules.board(rules.view(state, viewer), names):
            texts.extend(str(cell) for row in section.rows for cell in row)
    return texts


@pytest.mark.parametrize(
    "kind,players",
    [("puerto_rico", 3), ("puerto_rico", 5), ("new_found_land", 2), ("new_found_land", 4)],
)
def test_no_one_with_a_plural_and_no_a_before_a_vowel(kind, players):
    bad = set()
    for seed in range(12):
        for text in texts_of_a_game(kind, players, seed):
            if ONE_PLURAL.search(text) or A_VOWEL.search(text):
                bad.add(text)
    assert not bad, sorted(bad)[:20]


def test_the_end_of_a_game_is_said_in_a_sentence():
    """The rules' three end conditions (colonists, a full city, the chips)
    read as a sentence in the final mail, not "game end: colonists"."""
    from engine.puerto_rico.scoring import end_sentence

    assert end_sentence("colonists") == "It ended because the colonists ran out."
    assert end_sentence("city, vp chips") == (
        "It ended because a player filled all twelve "
        "city spaces and the victory-point chips ran out."
    )
    for kind, players in (("puerto_rico", 3), ("new_found_land", 3)):
        rules = get_game(kind)
        rnd, state = random.Random(7), rules.new_game(players, {}, 7)
        while rules.to_move(state) is not None:
            seat = rules.to_move(state)
            state, _ = rules.apply(state, seat, rnd.choice(rules.legal_actions(state, seat)))
        reason = rules.outcome(state).reason
        assert reason.startswith("It ended") and reason.endswith(".") and ":" not in reason


@pytest.mark.parametrize("name", ["puerto_rico", "new_found_land"])
def test_every_prompt_is_a_marked_template_filled_in(name):
    """A server translates the prompt from ``prompt_message``: it must say
    exactly what ``prompt`` says, and its template must be one the engine
    marked for the catalogs (``N_``), whatever the values."""
    game = get_game(name)
    marked = set()
    for seed in range(6):
        state, r = game.new_game(3, {}, seed=seed), random.Random(seed)
        while True:
            template, values = game.prompt_message(state)
            assert fill(template, values) == game.prompt(state)
            marked.add(template)
            if game.is_over(state):
                break
            seat = game.to_move(state)
            state, _ = game.apply(state, seat, r.choice(game.legal_actions(state, seat)))
    sources = "".join(p.read_text() for p in ENGINE.rglob("*.py"))
    for template in marked:
        assert f'N_("{template}")' in sources.replace("\n", ""), template
