"""Issue 16, item 1: the Puerto Rico board drawn as SVG from a seat's view:
each island (12 spaces) and city (12 spaces, large buildings over two) with
colonists on their circles, goods and doubloons; the ships with their cargo,
the trading house, the roles with their doubloons, the colonist ship and the
supplies.  Hidden parts stay hidden: it is drawn from the view alone."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest

from engine import get_game
from engine.puerto_rico.data import CARDS
from engine.puerto_rico.drawing import city_cells
from tests.engine.game_walks import positions

SVG = "{http://www.w3.org/2000/svg}"
RULES = get_game("puerto_rico")


def some_state(players: int, seed: int, moves: int):
    rnd, state = random.Random(seed), RULES.new_game(players, {}, seed)
    for _ in range(moves):
        seat = RULES.to_move(state)
        if seat is None:
            break
        state, _ = RULES.apply(state, seat, rnd.choice(RULES.legal_actions(state, seat)))
    return state


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_drawing_is_well_formed_and_shows_every_player_and_the_table(players):
    state = some_state(players, players, 150)
    names = [f"Player <{i}>" for i in range(players)]  # escaped, not markup
    view = RULES.view(state, 0)
    root = ET.fromstring(RULES.board_svg(view, names))
    assert root.tag == f"{SVG}svg" and root.get("role") == "img"
    assert root.find(f"{SVG}title").text.startswith("Puerto Rico, round")
    words = " ".join(t.text or "" for t in root.iter(f"{SVG}text"))
    for i, p in enumerate(view["players"]):
        assert f"{names[i]}" in words and f"{p['doubloons']} doubloon" in words
    for role, coins in view["roles"].items():
        assert f"{coins} d" in words
    for ship in view["ships"]:
        assert f"{ship['count']}/{ship['capacity']}" in words
    assert f"Colonist ship {view['colonist_ship']}" in words
    worked = sum(sum(p["worked"].values()) + sum(p["buildings"].values()) for p in view["players"])
    filled = [c for c in root.iter(f"{SVG}circle") if c.get("fill") != "none"]
    assert len(filled) == worked  # one filled circle per colonist at work


def test_hidden_victory_points_are_not_drawn():
    state = some_state(3, 8, 200)
    secret = RULES.view(state, None)
    mine = RULES.view(state, 1)
    assert mine["players"][1]["vp"] is not None
    drawing = RULES.board_svg(mine)
    for i, p in enumerate(mine["players"]):
        if i != 1:
            assert p["vp"] is None
    assert drawing.count("VP chips hidden") == 2
    assert RULES.board_svg(secret).count("VP chips hidden") == 3


def test_large_buildings_take_two_city_spaces():
    placed = city_cells(
        {
            "small_market": 0,
            "university": 1,
            "hacienda": 0,
            "fortress": 0,
            "guild_hall": 0,
            "harbor": 1,
        }
    )
    cells = set()
    assert CARDS["fortress"].large and CARDS["guild_hall"].large
    for name, col, row in placed:
        rows = 2 if CARDS[name].large else 1
        new = {(col, row + k) for k in range(rows)}
        assert not new & cells and row + rows <= 3
        cells |= new
    assert len(placed) == 6 and len(cells) == 8


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_position_of_whole_games_is_drawn_for_every_seat(players):
    """The end of the game and every option included: the drawing never
    fails where the text board does not."""
    game = get_game("puerto_rico")
    for seed, option in enumerate(("base", "extended", "random")):
        for state in positions(game, players, {"buildings": option}, seed, every=9):
            for seat in (*range(players), None):
                ET.fromstring(game.board_svg(game.view(state, seat)))
