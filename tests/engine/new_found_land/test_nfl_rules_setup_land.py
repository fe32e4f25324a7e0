"""Rules of setup and the land phase (shared/rules/001_…, "Voorbereiding",
"Landfase", "Haven uitbreiden", "Schepen bouwen")."""

from __future__ import annotations

from engine.new_found_land import board, setup
from engine.new_found_land.data import CARDS, NATIONS, SHIPS, TILES
from engine.new_found_land.phases import land
from tests.engine.new_found_land.nfl_helpers import GAME, bare, play, run


def test_setup_lays_out_the_game_as_the_rulebook_says():
    """Voorbereiding 2-13: random nations; start ship and start card per
    nation, the other start cards on the discard board; 4 small + 4 large
    ships on offer; 9 contracts; 3 goal piles of 5; 5 captains; 1 wood, cloth,
    iron and gold on the goods field; 1 iron each; frame tiles on 7, 15, 20,
    25, 35; one compass tile per player with a fitting island tile; the
    lowest nation number starts."""
    seen = set()
    for seed in range(30):
        for n in (2, 3, 4):
            s = setup.new_state(n, seed)
            nations = [p["nation"] for p in s.players]
            assert len(set(nations)) == n
            seen.add(tuple(nations))
            for p in s.players:
                assert [SHIPS[x].start for x in p["ships"]] == [p["nation"]]
                assert [CARDS[x].get("nation") for x in p["hand"]] == [p["nation"]]
                assert p["goods"] == {"wood": 0, "cloth": 0, "iron": 1, "gold": 0}
            assert sorted(CARDS[k]["nation"] for k in s.discard["cards"]) == sorted(
                set(NATIONS) - set(nations)
            )
            assert len(s.small_offer) == 4 and len(s.large_offer) == 4 and len(s.contracts) == 9
            assert [len(v) for v in s.goal_piles.values()] == [5, 5, 5]
            assert len(s.captains) == 5 and s.goods_field == ["wood", "cloth", "iron", "gold"]
            assert [f[0] for f in s.frames.values()] == [7, 15, 20, 25, 35]
            assert len(s.board) == n and len(s.compass_pile) == 8
            for space, (tile, fields) in s.board.items():
                assert TILES[tile]["shape"] == board.SPACES[space][1]
                assert fields == [[None, 0], [None, 0]]
            numbers = [NATIONS[x]["number"] for x in nations]
            assert s.start == numbers.index(min(numbers))
    assert len(seen) > 20


def test_the_variant_puts_the_triangle_on_30_and_the_star_on_40():
    """Variant: leg de witte driehoek op 30 en de ster op 40."""
    s = GAME.new_game(3, {"frame_tiles": "advanced"}, 1)
    assert [f[0] for f in s.frames.values()] == [7, 15, 20, 30, 40]


def test_setup_discards_island_tiles_that_do_not_fit_and_draws_on():
    """Voorbereiding 12: past de eilandtegel niet op het aangegeven eiland,
    leg de tegel dan op het aflegtableau en trek zolang tegels totdat er één
    past."""
    s = bare(["Portugal", "Spain"])
    for sp in ("PE1", "PE2", "PE3", "PE4"):  # only PEI's tee space is left
        s.board[sp] = [s.island_pile.pop(), [[None, 0], [None, 0]]]
    tee = next(t for t in s.island_pile if TILES[t]["shape"] == "tee")
    square = next(t for t in s.island_pile if TILES[t]["shape"] == "square")
    s.island_pile.remove(tee)
    s.island_pile.remove(square)
    s.island_pile += [tee, square]  # the square is drawn first
    s.discard["islands"] = []
    space = setup.place_fitting(s, "Prince Edward Island", [])
    assert space == "PE5" and s.board["PE5"][0] == tee
    assert s.discard["islands"] == [square]
    assert setup.place_fitting(s, "Prince Edward Island", []) is None  # full: none drawn


def _land(nations, goods=None, start=0):
    s = bare(nations, start)
    if goods:
        s.players[start]["goods"].update(goods)
    s.players[start]["ships"] = [next(k for k, v in SHIPS.items() if v.start == nations[start])]
    run(s, land.enter)
    return s


def test_income_is_one_wood_and_one_cloth_and_cortes_adds_gold():
    """Landfase: inkomen, 1 hout en 1 doek.  Cortés: elke ronde aan het begin
    van zijn Landfase +1 goud."""
    s = _land(["Portugal", "Spain"])
    assert s.turn == 0 and s.players[0]["goods"] == {"wood": 1, "cloth": 1, "iron": 0, "gold": 0}
    s = bare(["Portugal", "Spain"])
    s.players[0]["captains"] = ["cortes"]
    run(s, land.enter)
    assert s.players[0]["goods"]["gold"] == 1


def test_both_harbour_extensions_in_one_land_phase_in_any_order():
    """Haven uitbreiden: nieuwe werf 1 doek + 1 ijzer; de eigen uitbreiding
    tegen de gedrukte kosten; in een volgorde naar keuze, ook in 1 landfase."""
    s = _land(["France", "Spain"], {"cloth": 1, "iron": 2, "wood": 0})
    own = {"type": "extend", "ext": "toll_house"}  # 1 wood, 1 cloth, 1 iron
    yard = {"type": "extend", "ext": "shipyard"}
    assert own in GAME.legal_actions(s, 0) and yard in GAME.legal_actions(s, 0)
    s = play(s, own)
    s = play(s, yard)
    assert s.players[0]["exts"] == ["toll_house", "shipyard"]
    assert s.players[0]["goods"] == {"wood": 0, "cloth": 0, "iron": 0, "gold": 0}
    assert land.shipyards(s.players[0]) == 4 and s.players[0]["markers"] == 23


def test_gold_may_replace_one_wood_cloth_or_iron_in_any_payment():
    """Schepen bouwen: een speler mag altijd 1 goud inleveren in plaats van
    1 hout, 1 doek of 1 ijzer; ook bij Haven uitbreiden en Leveren."""
    s = _land(["Portugal", "Spain"], {"gold": 1})  # + income: 1 wood, 1 cloth
    assert {"type": "extend", "ext": "shipyard"} in GAME.legal_actions(s, 0)  # cloth + gold
    s = play(s, {"type": "extend", "ext": "shipyard"})
    assert s.players[0]["goods"] == {"wood": 1, "cloth": 0, "iron": 0, "gold": 0}


def test_small_ships_cost_wood_and_cloth_and_large_ships_their_price_and_3_points():
    """Schepen bouwen: een klein schip kost altijd 1 hout en 1 doek; een
    groot schip de kosten op de tegel, en de speler krijgt 3 punten."""
    s = _land(["Portugal", "Spain"], {"wood": 3, "cloth": 3, "iron": 3})
    small = s.small_offer[0]
    s = play(s, {"type": "build", "row": "small", "slot": 0})
    assert s.players[0]["goods"]["wood"] == 3 and s.players[0]["goods"]["cloth"] == 3
    large = s.large_offer[1]
    before = dict(s.players[0]["goods"])
    s = play(s, {"type": "build", "row": "large", "slot": 1})
    for g, k in SHIPS[large].cost.items():
        assert s.players[0]["goods"][g] == before[g] - k
    assert s.players[0]["score"] == 3 and small in s.players[0]["ships"]
    assert s.small_offer[0] is None and s.large_offer[1] is None  # not yet refilled
    s = play(s, {"type": "done"})
    assert None not in s.small_offer and None not in s.large_offer  # refilled after


def test_a_player_without_a_free_shipyard_must_discard_a_ship_to_build():
    """Er mag nooit meer dan 1 schip aan een werf liggen; heeft de speler geen
    onbezette werf, dan moet hij één van zijn schepen op het aflegtableau
    leggen."""
    s = bare(["Portugal", "Spain"])
    s.players[0]["ships"] = ["s01", "s06", "s07"]
    s.players[0]["goods"].update(wood=2, cloth=2)
    run(s, land.enter)
    builds = [a for a in GAME.legal_actions(s, 0) if a["type"] == "build"]
    assert builds and all("discard" in a for a in builds)
    s = play(s, {"type": "build", "row": "small", "slot": 0, "discard": "s06"})
    assert len(s.players[0]["ships"]) == 3 and s.discard["small"] == ["s06"]


def test_the_offer_is_refilled_from_the_reshuffled_discard_when_a_pile_runs_out():
    """Is een gedekte stapel leeg, schud dan de betreffende tegels op het
    aflegtableau en gebruik deze als nieuwe gedekte stapel."""
    s = bare(["Portugal", "Spain"])
    s.players[0]["goods"].update(wood=1, cloth=1)
    s.discard["small"] = list(s.small_pile)
    s.small_pile = []
    run(s, land.enter)
    s = play(s, {"type": "build", "row": "small", "slot": 2})
    s = play(s, {"type": "done"})
    assert s.small_offer[2] is not None and len(s.discard["small"]) == 0
