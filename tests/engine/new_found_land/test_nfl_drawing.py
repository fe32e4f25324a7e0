"""Issue 16, item 1: Race to the New Found Land drawn from a seat's view.

The drawing is well-formed SVG at every player count, shows every marker
on the islands and in the cities and every player's place on the score
track, escapes names, and draws nothing the seat may not see."""

from __future__ import annotations

import json
import random
import re
import xml.etree.ElementTree as ET

import pytest

from engine import GAMES
from tests.engine.game_walks import positions

GAME = GAMES["new_found_land"]
SVG = "{http://www.w3.org/2000/svg}"


def position(players: int, moves: int, seed: int = 3):
    state, r = GAME.new_game(players, {}, seed=seed), random.Random(seed)
    for _ in range(moves):
        if GAME.is_over(state):
            break
        seat = GAME.to_move(state)
        state, _ = GAME.apply(state, seat, r.choice(GAME.legal_actions(state, seat)))
    return state


def drawn(state, seat, names=None) -> ET.Element:
    return ET.fromstring(GAME.board_svg(GAME.view(state, seat), names))


def with_class(root: ET.Element, name: str) -> list[ET.Element]:
    return [e for e in root.iter() if name in (e.get("class") or "").split()]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("moves", [0, 60, 200, 5000])
def test_every_marker_and_score_is_drawn(players, moves):
    state = position(players, moves)
    view = GAME.view(state, 0)
    root = drawn(state, 0)
    assert root.tag == f"{SVG}svg" and root.find(f"{SVG}title") is not None
    fields = [f for space in view["board"].values() for f in space["fields"] if f[1]]
    assert len(with_class(root, "field")) == len(fields)
    labels = sorted(
        int(e.text)
        for e in root.iter(f"{SVG}text")
        if e.text and e.text.isdigit() and e.get("fill") == "#fff"
    )
    assert labels == sorted(markers for _, markers in fields)
    assert len(with_class(root, "city")) == sum(len(s) for s in view["cities"].values())
    scores = with_class(root, "score")
    assert sorted(int(g.get("data-seat")) for g in scores) == list(range(players))
    text = ET.tostring(root, encoding="unicode")
    for p in view["players"]:
        assert f"{p['score']} points" in text


def test_names_are_escaped():
    state = position(3, 50)
    svg = GAME.board_svg(GAME.view(state, 0), ['<b>"Ann"</b>', "Bo & Co", "Cy"])
    assert "<b>" not in svg and "&lt;b&gt;" in svg and "Bo &amp; Co" in svg
    ET.fromstring(svg)


def test_a_seat_sees_no_card_it_may_not_see():
    """The one-time and goal cards in other hands (and the face-down piles)
    never reach the drawing: every card id the drawing names is in the
    viewer's own view."""
    for moves in (40, 120, 300):
        state = position(4, moves, seed=11)
        everything = json.dumps(GAME.to_json(state))
        for seat in range(4):
            visible = json.dumps(GAME.view(state, seat))
            svg = GAME.board_svg(GAME.view(state, seat))
            for card in set(re.findall(r"\b[KG]\d\d\b", everything)):
                if card not in visible:
                    assert card not in svg, (moves, seat, card)
            others = [i for i in range(4) if i != seat]
            assert all("(hidden)" in svg for _ in others)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_position_of_whole_games_is_drawn_for_every_seat(players):
    """Empty slots (a ship sold, a contract delivered) and the end of the game
    included: the drawing never fails where the text board does not."""
    for seed in range(4):
        for state in positions(GAME, players, {}, seed, every=5):
            for seat in (*range(players), None):
                ET.fromstring(GAME.board_svg(GAME.view(state, seat)))
