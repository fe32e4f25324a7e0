"""The components data file: counts from the rulebook, provenance on every
entry, and validation that refuses an inconsistent file."""

from __future__ import annotations

import pytest

from engine.new_found_land import components, data
from engine.new_found_land.data import ComponentError, raw, validate


def test_the_data_file_validates_and_every_entry_cites_its_source():
    c = raw()
    validate(c)
    for name, value in c.items():
        entries = value if isinstance(value, list) else [value]
        for e in entries:
            if isinstance(e, dict) and name != "SHAPES":
                assert e["src"].startswith(("rulebook", "reconstructed")), (name, e)


def test_counts_are_the_rulebooks():
    """Speelmateriaal: 11 grote schepen, 17 kleine schepen (waarvan 5
    startschepen), 34 eilandtegels, 18 contracttegels, 5 kadertegels,
    8 kompastegels; 21 1x-kaarten (5 start, 6 charter, 10 goederen),
    15 doelkaarten, 5 kapiteins, 4 50/100-kaarten; 25 markeerstenen."""
    assert len(components.LARGE_SHIPS) == 11
    assert len(components.SMALL_SHIPS) == 17
    assert sum(1 for s in components.SMALL_SHIPS if s["start"]) == 5
    assert len(components.ISLAND_TILES) == 34 and len(components.CONTRACTS) == 18
    assert [f["space"] for f in components.FRAME_TILES] == [7, 15, 20, 25, 35]
    assert len(components.COMPASS_TILES) == 8 and len(components.ONE_TIME_CARDS) == 21
    assert len(components.GOAL_CARDS) == 15 and len(components.CAPTAINS) == 5
    assert len(components.FIFTY_CARDS) == 4 and data.MARKERS == 25
    assert set(data.NATIONS) == {"Portugal", "Spain", "France", "Netherlands", "England"}
    assert len(data.ISLANDS) == 4 and len(data.CITIES) == 3


def test_contracts_pay_the_rulebook_examples_and_more_for_more_goods():
    """Leveren: 2 hout aan Hamburg → 3 punten; 1 hout, 1 doek en 2 ijzer aan
    Stockholm → 11 punten."""
    by_goods = {tuple(sorted(k["goods"].items())): k["points"] for k in components.CONTRACTS}
    assert by_goods[(("wood", 2),)] == 3
    assert by_goods[(("cloth", 1), ("iron", 2), ("wood", 1))] == 11


def test_every_crate_value_indexes_the_load_tables():
    top = max(s.crate for s in data.SHIPS.values()) + data.DA_GAMA_CRATES
    for nation in data.NATIONS:
        for crate in range(1, top + 1):
            assert data.load_good(nation, crate) in data.GOODS


def _corrupt(edit):
    c = raw()
    edit(c)
    with pytest.raises(ComponentError):
        validate(c)


def test_a_missing_ship_is_refused():
    _corrupt(lambda c: c["SMALL_SHIPS"].pop())


def test_a_crate_value_beyond_the_load_tables_is_refused():
    def edit(c):
        c["NATIONS"][0]["load"] = c["NATIONS"][0]["load"][:4]

    _corrupt(edit)


def test_a_load_table_falling_in_value_is_refused():
    def edit(c):
        c["NATIONS"][0]["load"][1] = "gold"

    _corrupt(edit)


def test_a_tile_shape_no_board_space_has_is_refused():
    def edit(c):
        c["ISLAND_TILES"][5]["shape"] = "hexagon"

    _corrupt(edit)


def test_a_space_with_an_unknown_orientation_is_refused():
    def edit(c):
        c["ISLANDS"][0]["spaces"][3]["orientation"] = "diagonal"

    _corrupt(edit)


def test_a_compass_tile_naming_no_island_is_refused():
    def edit(c):
        c["COMPASS_TILES"][0]["island"] = "Atlantis"

    _corrupt(edit)


def test_a_contract_paying_less_for_more_goods_is_refused():
    def edit(c):
        c["CONTRACTS"][1]["points"] = 2

    _corrupt(edit)


def test_an_entry_without_provenance_is_refused():
    def edit(c):
        del c["LARGE_SHIPS"][0]["src"]

    _corrupt(edit)


def test_an_unknown_good_is_refused():
    def edit(c):
        c["ISLAND_TILES"][0]["bonuses"][0] = {"spice": 1}

    _corrupt(edit)


def test_frame_tiles_out_of_order_are_refused():
    def edit(c):
        c["FRAME_TILES"][0]["space"] = 40

    _corrupt(edit)
