"""Puerto Rico's board sections are made once per content
(engine/puerto_rico/view.py keeps them by the view data they read).  What a
seat reads must be what a fresh board says: the same words, the same
values, its own victory points only."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from engine import get_game
from engine.puerto_rico import view as pr_view
from engine.words import Words
from tests.engine.game_walks import positions

PR = get_game("puerto_rico")


def said(sections):
    as_json = lambda x: x.to_json() if isinstance(x, Words) else x  # noqa: E731
    return [(as_json(s.title), [(as_json(a), as_json(b)) for a, b in s.rows]) for s in sections]


def fresh(view, names, monkeypatch):
    with monkeypatch.context() as m:
        m.setattr(pr_view, "_TABLES", pr_view._Memo(4))
        m.setattr(pr_view, "_PLAYER_ROWS", pr_view._Memo(4))
        pr_view._buildings_in_play.cache_clear()
        pr_view._set_being_chosen.cache_clear()
        return said(PR.board(view, names))


@pytest.mark.parametrize("players, buildings", [(2, "base"), (3, "extended"), (4, "random")])
def test_a_kept_section_says_what_a_fresh_one_does(players, buildings, monkeypatch):
    names = [f"P{i}" for i in range(players)]
    for state in positions(PR, players, {"buildings": buildings}, seed=players, every=9):
        for viewer in [None, *range(players)]:
            view = PR.view(state, viewer)
            kept = said(PR.board(view, names))
            assert kept == fresh(view, names, monkeypatch)
            # Another seat's chips stay hidden, whoever looked before.
            for i, (_, rows) in enumerate(kept[1 : players + 1]):
                hidden = rows[1][1] == {"t": "hidden"}
                assert hidden == (i != viewer and not view["over"])
    # Other names, other words.
    view = PR.view(state, 0)
    other = [f"Q{i}" for i in range(players)]
    assert said(PR.board(view, other)) == fresh(view, other, monkeypatch)


class Reading(Mapping):
    """A view that remembers which of its keys were read."""

    def __init__(self, data):
        self.data, self.read = data, set()

    def __getitem__(self, key):
        self.read.add(key)
        return self.data[key]

    def __iter__(self):
        self.read.update(self.data)  # reading all of it reads every key
        return iter(self.data)

    def __len__(self):
        return len(self.data)


@pytest.mark.parametrize("players, buildings", [(2, "base"), (5, "extended"), (3, "random")])
def test_the_table_reads_only_what_its_key_holds(players, buildings):
    """The table section is kept by TABLE_READS: a field it read beyond them
    would let a kept table say an old value of it."""
    names = [f"P{i}" for i in range(players)]
    for state in positions(PR, players, {"buildings": buildings}, seed=players + 7, every=7):
        view = Reading(PR.view(state, 0))
        pr_view._table(view, names)
        assert view.read <= set(pr_view.TABLE_READS)


def test_a_turn_that_changes_only_whose_turn_it_is_keeps_the_table():
    state = PR.new_game(2, {}, seed=5)
    names = ["Ann", "Bo"]
    one, other = PR.view(state, 0), PR.view(state, 1)
    assert PR.board(one, names)[0] is PR.board(other, names)[0]
