"""The Puerto Rico expansion buildings and the building options, one test per rule.

Every test quotes the line it checks from /work/shared/rules/:

    003_d47d98a651436bc3.txt  English manual of an online server: the options
                              (lines 7-14) and section 7 (lines 307-374)
    002_ba16dceef361cad6.txt  the same server's German manual (options, 176-188)

Where those texts leave a value open the engine follows the published
expansion; the test says so.  Positions come from tests/engine/puerto_rico/pr_expansion_helpers.py
(every card on offer, islands empty) and are driven through the public
interface only.
"""

from __future__ import annotations

import pytest

from engine import IllegalMove
from engine.puerto_rico.catalogue import all_buildings, building_info
from engine.puerto_rico.data import CARDS, COFFEE, CORN, INDIGO, SUGAR, TOBACCO, VIOLET_SLOTS
from tests.engine.puerto_rico.pr_expansion_helpers import setx, xtable
from tests.engine.puerto_rico.pr_positions import (
    GAME,
    HACIENDA,
    PASS,
    QUARRY,
    act,
    build,
    choose,
    game_over_now,
    legal,
    load,
    place,
    plantation,
    role,
    sell,
    set_ships,
)

FOREST = {"type": "forest"}
DONE = {"type": "guests_done"}


def bm(pay: str, **kw) -> dict:
    return {"type": "black_market", "pay": pay, **kw}


def guest(target: str) -> dict:
    return {"type": "guest", "target": target}


def trading_post(kind: str) -> dict:
    return {"type": "sell", "kind": kind, "to": "trading_post"}


def small_wharf(*kinds: str) -> dict:
    return {"type": "small_wharf", "kinds": list(kinds)}


# =============================================================================
# Options
# =============================================================================


def test_options_base_extended_random_and_the_synonym_extension():
    """003_…txt lines 7-14: "With /option base the game uses the standard building set;
    With /option extended the players select the buildings from the standard and expansion
    set; With /option random a random set of buildings in selected by the server."  Line
    312: "activated with the command "/option extension"".
    """
    spec = GAME.options[0]
    assert spec.choices == ("base", "extended", "random") and spec.default == "base"
    assert all(spec.help_for(v) for v in spec.choices)
    base = GAME.new_game(3, {}, 5)
    assert GAME.view(base, None)["building_set"] == "base"
    assert GAME.to_json(GAME.new_game(3, {"buildings": "base"}, 5)) == GAME.to_json(base)
    ext = GAME.new_game(3, {"buildings": "extension"}, 5)
    assert GAME.to_json(ext) == GAME.to_json(GAME.new_game(3, {"buildings": "extended"}, 5))


def test_an_unknown_option_value_is_refused_with_the_allowed_values():
    """003_…txt lines 7-14 name three building options; anything else is refused."""
    with pytest.raises(IllegalMove, match="base, extended, random"):
        GAME.new_game(3, {"buildings": "deluxe"}, 1)
    with pytest.raises(IllegalMove):
        GAME.new_game(3, {"colour": "red"}, 1)


# =============================================================================
# Selection (extended) and the random set
# =============================================================================


def test_extended_starts_with_the_governor_choosing_a_fitting_building():
    """003_…txt lines 318-324: "The production buildings are always used, only the purple
    buildings are selected by players. … Buildings selected must "fit" based upon their
    cost.  … Once, a full set of buildings have been selected, the game begins."
    """
    s = GAME.new_game(4, {"buildings": "extended"}, 3)
    v = GAME.view(s, None)
    assert GAME.to_move(s) == v["governor"] and v["phase"] == "select"
    assert all(not CARDS[b].violet for b in v["buildings_left"])
    offered = [a["building"] for a in legal(s)]
    assert {CARDS[b].cost for b in offered} == set(VIOLET_SLOTS)
    assert "Building set being chosen" in GAME.board(v)[-1].title


def test_extended_never_offers_a_building_whose_cost_slot_is_full():
    """003_…txt lines 321-323: "since there are only 2 buildings in the basic game that cost
    7, only 2 building types that cost 7 may be selected" (the base game has as many
    types of each cost as may be chosen; a full cost is offered no more).
    """
    s = GAME.new_game(3, {"buildings": "extended"}, 3)
    governor = GAME.to_move(s)
    s = act(s, {"type": "select", "building": "aqueduct"})  # the only cost-1 slot
    assert GAME.to_move(s) == (governor + 1) % 3
    assert not [a for a in legal(s) if CARDS[a["building"]].cost == 1]


def test_extended_fills_every_slot_then_the_governor_chooses_a_role():
    """003_…txt line 323-324: "Once, a full set of buildings have been selected, the game
    begins."  One type a decision, in turn order; 12 small and 5 large types."""
    for n in (2, 3, 4, 5):
        s = GAME.new_game(n, {"buildings": "extended"}, 8)
        governor = GAME.to_move(s)
        while s.phase == "select":
            s = act(s, GAME.default_action(s))
        violet = [b for b in s.buildings_left if CARDS[b].violet]
        assert len(violet) == 17
        assert sorted(CARDS[b].cost for b in violet) == sorted(
            c for c, k in VIOLET_SLOTS.items() for _ in range(k)
        )
        assert s.phase == "role" and GAME.to_move(s) == governor
        assert GAME.view(s, None)["building_set"] == "extended"


def test_extended_timeout_keeps_the_base_buildings():
    """A timed-out seat picks the first base building offered (our default)."""
    s = GAME.new_game(4, {"buildings": "extended"}, 3)
    while s.phase == "select":
        s = act(s, GAME.default_action(s))
    violet = [b for b in s.buildings_left if CARDS[b].violet]
    assert not [b for b in violet if CARDS[b].expansion]


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_random_set_fits_and_comes_from_the_seed(n):
    """003_…txt lines 13-14: "With /option random a random set of buildings in selected by
    the server"; 002_…txt line 188: "Die Gebäude werden vor Spielbeginn zufällig
    ausgewählt."  The draw fits like a chosen set and replays from the seed."""
    sets = set()
    for seed in range(12):
        s = GAME.new_game(n, {"buildings": "random"}, seed)
        again = GAME.new_game(n, {"buildings": "random"}, seed)
        assert s.buildings_left == again.buildings_left
        violet = [b for b in s.buildings_left if CARDS[b].violet]
        assert sorted(CARDS[b].cost for b in violet) == sorted(
            c for c, k in VIOLET_SLOTS.items() for _ in range(k)
        )
        copies = {s.buildings_left[b] for b in violet if not CARDS[b].large}
        assert copies == ({1} if n == 2 else {2})
        assert s.phase == "role"
        sets.add(tuple(violet))
    assert len(sets) > 1


def test_the_board_names_the_set_and_each_buildings_card():
    """The board names the building set in play and shows every card's cost, points
    and effect (003_…txt lines 229-231: "the price of the building is shown in black,
    while the value in red")."""
    s = GAME.new_game(3, {"buildings": "random"}, 4)
    last = GAME.board(GAME.view(s, 0))[-1]
    assert last.title.startswith("Buildings in play: random")
    rows = dict(last.rows)
    for name in s.buildings_left:
        b = CARDS[name]
        assert f"cost {b.cost}, {b.vp} VP" in rows[b.title] and b.text in rows[b.title]
    base = GAME.board(GAME.view(GAME.new_game(3, {}, 4), 0))[-1]
    assert base.title == "Buildings in play: base game"


def test_building_info_for_every_card_and_build_labels_carry_it():
    """003_…txt section 6 (lines 254-302) and 7 (lines 328-374): every building's cost,
    points and effect."""
    assert len(all_buildings()) == 23 + 14
    assert building_info("statue") == {
        "name": "statue",
        "title": "Statue",
        "cost": 10,
        "vp": 8,
        "column": 4,
        "circles": 0,
        "large": True,
        "produces": None,
        "violet": True,
        "expansion": True,
        "text": "8 VP; takes no colonist.",
    }
    printed = {
        "aqueduct": (1, 1),
        "forest_house": (2, 1),
        "black_market": (2, 1),
        "storehouse": (3, 1),
        "guest_house": (4, 2),
        "trading_post": (5, 2),
        "church": (5, 2),
        "small_wharf": (6, 2),
        "lighthouse": (7, 3),
        "specialty_factory": (8, 3),
        "library": (8, 3),
        "union_hall": (8, 3),
        "statue": (10, 8),
        "cloister": (10, 4),
    }
    assert {n: (b.cost, b.vp) for n, b in CARDS.items() if b.expansion} == printed
    assert all(b.src for b in CARDS.values() if b.expansion)
    s = xtable(3)
    setx(s, 0, doubloons=10)
    s, _ = choose(s, 0, "builder")
    text = GAME.label(s, build("church"))
    assert text.startswith("Build the Church for 4") and "2 VP" in text and "Builder:" in text


# =============================================================================
# The fourteen buildings
# =============================================================================


def test_aqueduct_adds_one_indigo_and_sugar_from_the_large_plants():
    """003_…txt lines 328-330: "Aqueduct: (Cost 1, VP 1) Produces one extra Indigo or
    Sugar, if production came from a large Indigo plant or a large Sugar mill."
    """
    s = xtable(3)
    setx(
        s,
        0,
        tiles={"indigo": 1, "sugar": 1},
        worked={"indigo": 1, "sugar": 1},
        buildings={"aqueduct": 1, "indigo_plant": 1, "small_sugar_mill": 1},
    )
    s, _ = choose(s, 1, "craftsman")
    assert s.players[0].goods[INDIGO] == 2  # large plant: one more
    assert s.players[0].goods[SUGAR] == 1  # small mill: no effect


def test_forest_house_takes_a_forest_instead_of_a_plantation():
    """003_…txt lines 331-333: "Foresthouse: (Cost 2, VP 1) During the settler phase may
    build a forest instead of a plantation. Forests do not require a colonist."
    """
    s = xtable(3)
    setx(s, 1, buildings={"forest_house": 1})
    s, _ = choose(s, 0, "settler")
    s = act(s, PASS)
    assert FOREST in legal(s)
    stack = len(s.stack)
    s = act(s, FOREST)
    p = s.players[1]
    assert len(p.forests) == 1 and sum(p.tiles) == 0 and len(s.stack) < stack + 1
    assert p.island_tiles() == 1 and p.circles() == 1  # the house's circle only


def test_forest_house_two_forests_lower_a_price_by_one_without_a_column_limit():
    """003_…txt lines 333-334: "Each 2 forests reduces building costs by one doubloon
    during the building phase."  Published sheet: in addition to builder and quarries,
    no column limit.
    """
    s = xtable(3)
    setx(
        s,
        0,
        doubloons=0,
        tiles={"quarry": 1},
        worked={"quarry": 1},
        buildings={"forest_house": 1},
        forests=5,
    )
    s, _ = choose(s, 0, "builder")
    # Small warehouse (3, column 1): -1 builder, -1 quarry, -2 forests (5 // 2) = 0.
    assert build("small_warehouse") in legal(s)
    assert GAME.label(s, build("small_warehouse")).startswith("Build the Small warehouse for 0")


def test_forest_house_with_hacienda_the_drawn_tile_may_become_a_forest():
    """003_…txt lines 331-333 (forest instead of a plantation) with the Hacienda (lines
    256-257).  Published sheet: "he can look at the drawn tile before deciding if he wants
    to place it face up or face down as a forest tile."
    """
    s = xtable(3)
    setx(s, 0, buildings={"hacienda": 1, "forest_house": 1})
    s, _ = choose(s, 0, "settler")
    drawn = s.stack[-1]
    s = act(s, HACIENDA)
    assert legal(s) == [
        {"type": "hacienda_tile", "as": "plantation"},
        {"type": "hacienda_tile", "as": "forest"},
    ]
    s = act(s, {"type": "hacienda_tile", "as": "forest"})
    assert s.players[0].forests == (drawn,) and sum(s.players[0].tiles) == 0
    assert FOREST in legal(s)  # and the usual tile still to take


def test_forest_house_with_hospice_the_colonist_goes_to_san_juan():
    """003_…txt lines 262-263 (Hospice: "get a colonist when you take a plantation") and
    333 ("Forests do not require a colonist").  Published sheet: "If the owner of the
    Forest House also owns a Hospice, he places the colonist in San Juan."
    """
    s = xtable(3)
    setx(s, 0, buildings={"hospice": 1, "forest_house": 1})
    s, _ = choose(s, 0, "settler")
    assert {**FOREST, "colonist": False} in legal(s)
    s = act(s, FOREST)
    assert s.players[0].san_juan == 1


def test_black_market_pays_a_shortfall_with_a_good_a_colonist_and_a_point():
    """003_…txt lines 335-337: "Blackmarket: (Cost 2, VP 1) During building phase. may
    reduce building cost by up to 3 by "spending" a good, a colonist, and/or a VP."
    """
    s = xtable(3)
    setx(s, 1, doubloons=2, vp=3, goods={"corn": 1}, san_juan=1, buildings={"black_market": 1})
    s, _ = choose(s, 0, "builder")
    s = act(s, PASS)
    assert build("office") in legal(s)  # 5 = 2 doubloons + 3 items
    assert build("large_warehouse") not in legal(s)  # 6: one too many
    colonists, vp_supply = s.colonist_supply, s.vp_supply
    s = act(s, build("office"))
    assert bm("cancel") in legal(s) and bm("vp") in legal(s)
    s = act(s, bm("good", kind="corn"))
    s = act(s, bm("colonist", **{"from": "san_juan"}))
    s = act(s, bm("vp"))
    p = s.players[1]
    assert "office" in p.buildings and p.doubloons == 0 and p.vp == 2
    assert p.goods[CORN] == 0 and p.san_juan == 0
    assert s.colonist_supply == colonists + 1 and s.vp_supply == vp_supply + 1


def test_black_market_only_covers_what_the_doubloons_do_not():
    """003_…txt lines 335-337 ("up to 3"); published sheet: only for a price the owner
    cannot pay, never below 0.  With the price paid in doubloons nothing more is asked."""
    s = xtable(3)
    setx(s, 1, doubloons=5, vp=3, buildings={"black_market": 1})
    s, _ = choose(s, 0, "builder")
    s = act(s, PASS)
    s = act(s, build("office"))
    assert "office" in s.players[1].buildings and s.players[1].vp == 3


def test_black_market_with_quarries_and_the_builders_privilege():
    """003_…txt lines 123-125 (the builder "pays 1 doubloon less") and 002_…txt line 107
    (quarries, limited by column) come first; the black market covers the rest, at most
    3 (003_…txt line 336)."""
    s = xtable(3)
    setx(
        s,
        0,
        doubloons=1,
        vp=1,
        goods={"corn": 1},
        tiles={"quarry": 2},
        worked={"quarry": 2},
        buildings={"black_market": 1},
    )
    s, _ = choose(s, 0, "builder")
    # Harbor 8: -1 privilege, -2 quarries = 5; 1 doubloon + good + colonist + VP = 4.
    assert build("harbor") not in legal(s)
    # Large warehouse 6: -1, -2 = 3; 1 doubloon + 2 items.
    s = act(s, build("large_warehouse"))
    s = act(s, bm("good", kind="corn"))
    assert GAME.to_move(s) == 0  # still one short
    s = act(s, bm("vp"))
    assert "large_warehouse" in s.players[0].buildings and s.players[0].doubloons == 0
    assert s.players[0].worked[5] == 2  # the quarries kept their colonists


def test_black_market_cancel_gives_the_items_back():
    """Choosing not to build after all (our "cancel") leaves the owner as before."""
    s = xtable(3)
    setx(s, 1, doubloons=3, vp=2, goods={"sugar": 1}, buildings={"black_market": 1})
    s, _ = choose(s, 0, "builder")
    s = act(s, PASS)
    s = act(s, build("office"))
    s = act(s, bm("good", kind="sugar"))
    s = act(s, bm("cancel"))
    p = s.players[1]
    assert p.goods[SUGAR] == 1 and p.vp == 2 and "office" not in p.buildings
    assert PASS in legal(s)


def test_storehouse_keeps_three_more_barrels():
    """003_…txt lines 338-339: "Storehouse: (Cost 3, VP 1) May store up to 3 goods after
    shipping."  Published sheet: "in addition to the one un-shipped good"."""
    s = xtable(3)
    setx(s, 1, goods={"corn": 3, "tobacco": 2, "coffee": 1}, buildings={"storehouse": 1})
    set_ships(s, (4, None, 0), (5, None, 0), (6, None, 0))
    s.ships = [[4, COFFEE, 4], [5, TOBACCO, 5], [6, CORN, 6]]  # nothing can be loaded
    s, _ = choose(s, 0, "captain")
    opts = legal(s)
    assert all(len(a["barrels"]) == 4 for a in opts)
    s = act(
        s, {"type": "store", "warehouse": [], "barrels": ["corn", "tobacco", "tobacco", "coffee"]}
    )
    assert s.players[1].goods[:5] == [1, 0, 0, 2, 1]


def test_storehouse_with_a_warehouse():
    """003_…txt lines 260-261 (Small Warehouse: "Can store one type of good") and 338-339:
    all barrels of one kind, plus one, plus three."""
    s = xtable(3)
    setx(
        s,
        1,
        goods={"corn": 3, "indigo": 3, "tobacco": 3},
        buildings={"storehouse": 1, "small_warehouse": 1},
    )
    s.ships = [[4, COFFEE, 4], [5, TOBACCO, 5], [6, CORN, 6]]
    s, _ = choose(s, 0, "captain")
    s = act(
        s,
        {
            "type": "store",
            "warehouse": ["tobacco"],
            "barrels": ["corn", "corn", "indigo", "indigo"],
        },
    )
    assert s.players[1].goods[:5] == [2, 2, 0, 3, 0]
    assert GAME.default_action(xtable(3)) is not None


def test_guest_house_parks_colonists_and_moves_them_later():
    """003_…txt lines 340-343: "Guesthouse: (Cost 4, VP 2) During the mayor phase, may place
    1 or 2 colonists on the Guesthouse. These colonists may be moved at end time during
    the players turn."  A guest moved onto the Office makes it work.
    """
    s = xtable(3)
    setx(
        s,
        0,
        buildings={"guest_house": 0, "office": 0},
        san_juan=2,
        goods={"sugar": 1},
        tiles={"corn": 2},
    )
    s.house = [SUGAR]
    s.colonist_ship = 0
    s, _ = choose(s, 0, "mayor")
    s = act(s, place("guest_house", 2))
    s = act(s, place("corn"))
    assert s.players[0].buildings["guest_house"] == 2
    s.phase, s.turn, s.picks, s._legal = "role", 0, 0, None
    assert guest("office") in legal(s)  # moved before the trader is chosen
    s = act(s, guest("office"))
    assert s.players[0].buildings == {"guest_house": 1, "office": 1}
    s = act(s, role("trader"))
    assert sell("sugar") in legal(s)


def test_guest_house_with_university_and_hospice():
    """003_…txt lines 340-343 with the University (lines 277-278: "receive a colonist when
    you purchase a building") and the Hospice (262-263): a guest may go onto the new tile or
    building in the same turn, unless their colonist already fills it."""
    s = xtable(3)
    setx(s, 0, doubloons=10, buildings={"guest_house": 2, "university": 1})
    s, _ = choose(s, 0, "builder")
    s = act(s, build("office"))
    assert s.players[0].buildings["office"] == 1  # the university's colonist
    assert GAME.to_move(s) == 1  # nothing left to move onto
    s = xtable(3)
    setx(s, 0, buildings={"guest_house": 2, "hospice": 1})
    s.face_up = [CORN, SUGAR, TOBACCO, COFFEE]
    s, _ = choose(s, 0, "settler")
    s = act(s, {**plantation("sugar"), "colonist": False})
    assert legal(s) == [guest("sugar"), DONE]
    s = act(s, guest("sugar"))
    assert s.players[0].worked[SUGAR] == 1 and s.players[0].buildings["guest_house"] == 1


def test_trading_post_sells_at_full_price_even_to_a_full_house():
    """003_…txt lines 344-349: "TradingPost: (Cost 5, VP 2) … May sell one good to their own
    trading house, at full price instead of using the trading house. Small market and
    large market bonuses do not apply. Bonus for being the trader does. You may sell a good
    that is in the trading house and you may even sell if the trading house is full."
    """
    s = xtable(3)
    setx(s, 0, goods={"coffee": 1}, buildings={"trading_post": 1, "large_market": 1})
    setx(s, 1, goods={"coffee": 1})
    s.house = [CORN, INDIGO, SUGAR, COFFEE]
    s, _ = choose(s, 0, "trader")
    assert legal(s) == [trading_post("coffee"), PASS]
    before = s.players[0].doubloons
    s = act(s, trading_post("coffee"))
    assert s.players[0].doubloons == before + 4 + 1  # full price + trader, no market
    assert s.players[1].goods[COFFEE] == 1  # the full house takes nothing more


def test_trading_post_with_office():
    """003_…txt lines 264-265 (Office: "can sell a type of good that already is in the
    trading house") and 344-349: both ways to sell are offered."""
    s = xtable(3)
    setx(s, 1, goods={"sugar": 1}, buildings={"trading_post": 1, "office": 1, "small_market": 1})
    s.house = [SUGAR]
    s, _ = choose(s, 0, "trader")  # seat 0 has nothing to sell: seat 1 decides
    assert legal(s) == [sell("sugar"), trading_post("sugar"), PASS]
    assert GAME.label(s, sell("sugar")) == "Sell one sugar for 3"
    assert GAME.label(s, trading_post("sugar")) == "Sell one sugar to your trading post for 2"


@pytest.mark.parametrize(
    "name, points",
    [("small_market", 0), ("hospice", 1), ("factory", 1), ("city_hall", 2), ("statue", 2)],
)
def test_church_points_when_buying(name, points):
    """003_…txt lines 350-352: "Church: (Cost 5, VP 2) One victory point when buying a 2VP
    or 3VP building. 2 VPs when buying a Large purple building."
    """
    s = xtable(3)
    setx(s, 1, doubloons=20, buildings={"church": 1})
    s, _ = choose(s, 0, "builder")
    s = act(s, PASS)
    vp_supply = s.vp_supply
    s = act(s, build(name))
    assert s.players[1].vp == points and s.vp_supply == vp_supply - points


def test_small_wharf_ships_mixed_kinds_at_one_point_per_two_barrels():
    """003_…txt lines 353-355: "Small Wharf: (Cost 6, VP 2) A private ship. May ship goods
    of different types. However, you only get 1 VP for each 2 goods shipped."
    """
    s = xtable(3)
    setx(s, 1, goods={"corn": 2, "indigo": 3}, buildings={"small_wharf": 1})
    s.ships = [[4, COFFEE, 4], [5, TOBACCO, 5], [6, SUGAR, 6]]
    s, _ = choose(s, 0, "captain")
    assert small_wharf("corn", "indigo") in legal(s) and PASS in legal(s)
    s = act(s, small_wharf("corn", "indigo"))
    assert s.players[1].vp == 2 and sum(s.players[1].goods) == 0


def test_small_wharf_with_harbor_and_the_captains_privilege():
    """003_…txt lines 353-355 with the Harbor (279-280: "one bonus VP whenever you ship")
    and the captain's privilege (185-187: "one bonus Victory Point if they shipped");
    published expansion: a small-wharf load is a shipment like any other."""
    s = xtable(3)
    setx(s, 0, goods={"corn": 3}, buildings={"small_wharf": 1, "harbor": 1})
    s.ships = [[4, COFFEE, 4], [5, TOBACCO, 5], [6, SUGAR, 6]]
    s, _ = choose(s, 0, "captain")
    s = act(s, small_wharf("corn"))
    assert s.players[0].vp == 1 + 1 + 1


def test_lighthouse_pays_a_doubloon_per_shipment_and_one_more_to_the_captain():
    """003_…txt lines 356-358: "Lighthouse: (Cost 7, VP 3) 1 Doubloon whenever you ship.
    Also, if you are the captain and ship you get an extra doubloon."
    """
    s = xtable(3)
    setx(s, 0, goods={"corn": 1, "sugar": 1}, buildings={"lighthouse": 1})
    setx(s, 1, goods={"indigo": 1}, buildings={"lighthouse": 1})
    set_ships(s, (4, None, 0), (5, None, 0), (6, None, 0))
    before = [p.doubloons for p in s.players]
    s, _ = choose(s, 0, "captain")
    s = act(s, load("corn", 0))
    s = act(s, load("indigo", 1))  # then the sugar is loaded for seat 0: no choice
    assert s.players[0].doubloons == before[0] + 2 + 1
    assert s.players[1].doubloons == before[1] + 1


def test_specialty_factory_pays_the_largest_production_minus_one():
    """003_…txt lines 359-362: "Specialty Factory: (Cost 8, VP 3) Earn doubloons when
    producing multiple of the same good. Does not apply to Corn. Take the number of goods
    that you produced the most of minus one. You get that many doubloons."
    """
    s = xtable(3)
    setx(
        s,
        0,
        tiles={"corn": 4, "sugar": 3},
        worked={"corn": 4, "sugar": 3},
        buildings={"specialty_factory": 1, "sugar_mill": 3},
    )
    before = s.players[0].doubloons
    s, _ = choose(s, 1, "craftsman")
    assert s.players[0].goods[SUGAR] == 3 and s.players[0].doubloons == before + 2


def test_union_hall_scores_before_shipping():
    """003_…txt lines 365-366: "Unionhall: (Cost 8, VP 3) Before shipping, take 1 VP for every
    2 goods you have."
    """
    s = xtable(3)
    setx(s, 1, goods={"corn": 2, "tobacco": 3}, buildings={"union_hall": 1})
    s.ships = [[4, COFFEE, 4], [5, TOBACCO, 5], [6, CORN, 6]]
    s, _ = choose(s, 0, "captain")
    assert s.players[1].vp == 2


def test_statue_takes_no_colonist_and_is_worth_8():
    """003_…txt lines 367-368: "Statue: (Cost 10, VP 8) No colonists can or need be placed on
    the statue. Just 8 VPs."
    """
    s = xtable(3)
    setx(s, 0, buildings={"statue": 0, "office": 0}, san_juan=3)
    s.colonist_ship = 0
    s, _ = choose(s, 0, "mayor")
    assert all(a.get("target") != "statue" for a in legal(s))
    score = dict(game_over_now(s).scores[0].breakdown)
    assert score["buildings"] == 8 + 2


@pytest.mark.parametrize(
    "tiles, points",
    [
        ({"corn": 2}, 0),
        ({"corn": 3}, 1),
        ({"corn": 3, "quarry": 3}, 3),
        ({"corn": 3, "quarry": 4, "sugar": 5}, 6),
        ({"indigo": 6, "quarry": 3}, 6),
        ({"corn": 3, "indigo": 3, "sugar": 3, "quarry": 3}, 10),
    ],
)
def test_cloister_scores_sets_of_three_like_tiles_quarries_too(tiles, points):
    """003_…txt lines 369-374: "Cloister: (Cost 10, VP 4) Receive VPs for sets of 3 like
    plantations and/or quarries. - 1 set - 1 VP - 2 sets - 3 VP - 3 sets - 6 VP - 4 sets -
    10 VP"; occupied, like every large building (lines 287-288).
    """
    s = xtable(3)
    setx(s, 0, tiles=tiles, buildings={"cloister": 1})
    setx(s, 1, tiles=tiles, buildings={"cloister": 0})
    scores = game_over_now(s).scores
    assert dict(scores[0].breakdown)["Cloister"] == points
    assert dict(scores[1].breakdown)["Cloister"] == 0


# =============================================================================
# Library: "Doubles the role bonus whenever you take a role card"
# =============================================================================

LIBRARY = "003_…txt lines 363-364"


def _library(s, seat=0, **kw):
    return setx(s, seat, buildings={"library": 1, **kw.pop("buildings", {})}, **kw)


def test_library_settler_takes_a_second_tile():
    """003_…txt lines 363-364: "Library: (Cost 8, VP 3) Doubles the role bonus whenever you
    take a role card."  Settler: a second tile (published sheet: "he can place 0, 1, or 2
    forest tiles"), either may be a quarry."""
    s = xtable(3)
    _library(s)
    s.face_up = [CORN, SUGAR, TOBACCO, COFFEE]
    s, _ = choose(s, 0, "settler")
    s = act(s, QUARRY)
    assert GAME.to_move(s) == 0 and QUARRY in legal(s)
    s = act(s, plantation("coffee"))
    assert s.players[0].tiles == [0, 0, 0, 0, 1, 1] and GAME.to_move(s) == 1


def test_library_mayor_takes_two_colonists():
    """003_…txt lines 112-113 ("the Mayor receives one extra colonist") doubled."""
    s = xtable(3)
    _library(s, buildings={"office": 0})
    supply = s.colonist_supply
    s.colonist_ship = 0
    s, _ = choose(s, 0, "mayor")
    assert s.colonist_supply <= supply - 2 + 3  # two taken; the ship is refilled after
    assert s.players[0].colonists() == 1 + 2


def test_library_builder_pays_two_less():
    """003_…txt lines 123-125 ("pays 1 doubloon less") doubled."""
    s = xtable(3)
    _library(s, doubloons=3)
    s, _ = choose(s, 0, "builder")
    assert GAME.label(s, build("office")).startswith("Build the Office for 3")


def test_library_craftsman_takes_two_extra_barrels():
    """003_…txt lines 139-141 ("receives one extra good of any kind that they produced")
    doubled: two bonus barrels, each of a kind produced."""
    s = xtable(3)
    _library(
        s,
        tiles={"corn": 1, "indigo": 1},
        worked={"corn": 1, "indigo": 1},
        buildings={"small_indigo_plant": 1},
    )
    s, _ = choose(s, 0, "craftsman")
    s = act(s, {"type": "bonus", "kind": "indigo"})
    assert GAME.to_move(s) == 0
    s = act(s, {"type": "bonus", "kind": "indigo"})
    assert s.players[0].goods[:2] == [1, 3]


def test_library_trader_gets_two_more():
    """003_…txt lines 162-164 ("receives one extra doubloon as a bonus") doubled."""
    s = xtable(3)
    _library(s, goods={"sugar": 1})
    before = s.players[0].doubloons
    s, _ = choose(s, 0, "trader")
    s = act(s, sell("sugar"))
    assert s.players[0].doubloons == before + 2 + 2


def test_library_captain_gets_two_more_points():
    """003_…txt lines 185-187 ("one bonus Victory Point if they shipped") doubled."""
    s = xtable(3)
    _library(s, goods={"corn": 2})
    set_ships(s, (4, None, 0), (5, None, 0), (6, None, 0))
    s, _ = choose(s, 0, "captain")
    s = act(s, load("corn", 0))
    assert s.players[0].vp == 2 + 2


def test_library_prospector_gets_two_doubloons():
    """003_…txt lines 202-204 ("they receive one doubloon from the bank") doubled."""
    s = xtable(4)
    _library(s)
    before = s.players[0].doubloons
    s, _ = choose(s, 0, "prospector")
    assert s.players[0].doubloons == before + 2


def test_library_does_nothing_for_the_other_players():
    """The privilege is the role taker's alone (003_…txt lines 82-84)."""
    s = xtable(3)
    _library(s, seat=1, goods={"sugar": 1})
    before = s.players[1].doubloons
    s, _ = choose(s, 0, "trader")  # seat 0 has nothing to sell
    s = act(s, sell("sugar"))
    assert s.players[1].doubloons == before + 2


def test_the_default_actions_of_the_new_decisions_are_legal():
    """A timed-out seat: guests stay, black market pays its first item, the hacienda
    tile stays face up."""
    s = xtable(3)
    setx(s, 0, buildings={"guest_house": 2})
    s.face_up = [CORN, SUGAR, TOBACCO, COFFEE]
    s, _ = choose(s, 0, "settler")
    assert GAME.default_action(s) == PASS
    s = act(s, plantation("corn"))
    assert GAME.default_action(s) == DONE
    s = xtable(3)
    setx(s, 0, doubloons=1, vp=2, buildings={"black_market": 1})
    s, _ = choose(s, 0, "builder")
    s = act(s, build("small_warehouse"))  # 3 - 1: one doubloon and one point
    assert GAME.default_action(s) == bm("vp")
