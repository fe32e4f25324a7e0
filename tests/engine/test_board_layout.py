"""The board as layout data (engine/layout.py) that the server
makes into HTML.  Drawn from the view alone: the viewer's panel first,
other players' victory points hidden, one filled mark per colonist at work,
every tile with words; plain JSON, so the engine stays pure."""

from __future__ import annotations

import json

import pytest

from engine import get_game
from tests.engine.game_walks import positions

PR, NFL = get_game("puerto_rico"), get_game("new_found_land")


def tiles(panel):
    return [t for g in panel["groups"] for t in g["tiles"]]


@pytest.mark.parametrize("players", [2, 5])
def test_puerto_rico_panels_from_the_viewers_seat(players):
    names = [f"P{i}" for i in range(players)]
    for state in positions(PR, players, {"buildings": "random"}, players, every=120):
        view = PR.view(state, 1)
        panels = PR.board_layout(view, names)
        json.dumps(panels)
        assert panels[0]["mine"] and panels[0]["title"] == "P1 (you)"
        assert [p["seat"] for p in panels if p["seat"] is not None] == [1] + [
            i for i in range(players) if i != 1
        ]
        for p in panels:
            if p["seat"] is not None:
                player = view["players"][p["seat"]]
                filled = sum(m["filled"] for t in tiles(p) for m in t["marks"])
                assert filled == sum(player["worked"].values()) + sum(player["buildings"].values())
                # 12 island and 12 city spaces; a large building takes two.
                assert len(tiles(p)) == 24 - sum(t["span"] == 2 for t in tiles(p))
                assert ("VP chips hidden" in p["lines"]) == (p["seat"] != 1 and not view["over"])
            assert all(t["label"] or t["kind"] == "empty" for t in tiles(p))


def test_new_found_land_panels_and_the_readers_language():
    from server.i18n import say

    state = list(positions(NFL, 3, {}, 4, every=40))[1]
    view = NFL.view(state, 2)
    german = NFL.board_layout(view, ["A", "B", "C"], lambda text: say("de", text))
    json.dumps(german)
    assert german[0]["mine"] and german[0]["seat"] == 2
    titles = [p["title"] for p in german]
    assert "Punkteleiste" in titles and "Score track" not in titles
    hidden = [line for p in german if p["seat"] in (0, 1) for line in p["lines"]]
    assert any("verdeckt" in line for line in hidden), hidden
