"""Frame tiles, the end phase and the final scoring, with the rulebook's
worked examples (shared/rules/001_…, "Doelkaarten en speciale velden op het
scorespoor", "Eindfase van een ronde", "Einde van het spel")."""

from __future__ import annotations

from engine.new_found_land import board, scoring, track
from engine.new_found_land.data import COMPASS, ISLANDS, TILES
from engine.new_found_land.phases import endphase, goals, land
from engine.new_found_land.state import NEUTRAL
from tests.engine.new_found_land.nfl_helpers import GAME, bare, hold_at_goals, lay_tile, play, run

RED, YELLOW, BLUE = 0, 1, 2


def _land_with_points(
    score_before: int, others: list[int], nations=("Portugal", "Spain", "England")
):
    s = bare(list(nations))
    s.players[0]["score"] = score_before
    for i, sc in enumerate(others, start=1):
        s.players[i]["score"] = sc
    s.players[0]["goods"].update(wood=3, cloth=3, iron=3)
    run(s, land.enter)
    return s


def test_frame_tile_example_the_square_moves_back_to_space_4():
    """Voorbeeld: geel is de vierkante kadertegel gepasseerd.  Hij neemt de
    doelkaarten van het □-veld, kiest er 1 en legt de overige terug; daarna
    gaat de kadertegel 3 velden achteruit, naar veld 4 — at the end of his
    whole turn ("aan het einde van zijn volledige beurt")."""
    s = _land_with_points(5, [0, 2])
    s = play(s, {"type": "build", "row": "large", "slot": 0})  # +3: 5 -> 8
    assert s.phase == "land" and s.claims == [[0, "square"]]  # not yet
    pile = list(s.goal_piles["square"])
    s = play(s, {"type": "done"})
    assert s.phase == "frame" and s.turn == 0
    assert GAME.legal_actions(s, 0) == [{"type": "take_goal", "card": c} for c in pile]
    assert GAME.view(s, 0)["frame_pile"] == pile and GAME.view(s, 1)["frame_pile"] is None
    s = play(s, {"type": "take_goal", "card": pile[2]})
    assert s.players[0]["goals"] == [pile[2]] and len(s.goal_piles["square"]) == 4
    assert s.frames["square"] == [4, [0]]


def test_a_frame_tile_never_moves_onto_or_past_a_ship_or_another_frame_tile():
    """Een kadertegel mag nooit naar een veld met een andere kadertegel of een
    houten schip worden verplaatst of het passeren."""
    s = _land_with_points(5, [5, 2])  # a ship on 5: the tile stops on 6
    s = play(s, {"type": "build", "row": "large", "slot": 0})
    s = play(s, {"type": "done"})
    s = play(s, {"type": "take_goal", "card": s.goal_piles["square"][0]})
    assert s.frames["square"][0] == 6
    s = bare(["Portugal", "Spain"])
    s.frames["pentagon"][0] = 9
    s.frames["square"] = [10, [0]]
    track.step_back(s, "square", [])
    assert s.frames["square"][0] == 10  # the pentagon on 9 is in the way


def test_a_frame_tile_leaves_the_track_once_every_player_has_reached_it():
    """Hebben alle spelers een bepaalde kadertegel bereikt, neem deze dan van
    het scorespoor."""
    s = _land_with_points(5, [12], nations=("Portugal", "Spain"))
    s.frames["square"][1] = [1]
    s = play(s, {"type": "build", "row": "large", "slot": 0})
    s = play(s, {"type": "done"})
    s = play(s, {"type": "take_goal", "card": s.goal_piles["square"][0]})
    assert s.frames["square"][0] is None


def test_the_pentagon_gives_a_captain_and_the_triangle_a_good_from_the_goods_field():
    """Uitzonderingen: de tweede kadertegel (pentagon) geeft een kapitein, de
    vierde (driehoek) een product van het goederenveld.  Cortés: direct 1
    goud; Drake: een extra werf."""
    s = _land_with_points(13, [0, 0])
    s = play(s, {"type": "build", "row": "large", "slot": 0})  # 13 -> 16
    s = play(s, {"type": "done"})
    assert {a["type"] for a in GAME.legal_actions(s, 0)} == {"captain"}
    s = play(s, {"type": "captain", "captain": "drake"})
    assert s.players[0]["captains"] == ["drake"] and land.shipyards(s.players[0]) == 4
    assert "drake" not in s.captains
    s = _land_with_points(23, [0, 0])
    s = play(s, {"type": "build", "row": "large", "slot": 0})  # 23 -> 26
    s = play(s, {"type": "done"})
    s = play(s, {"type": "field_good", "good": "gold"})
    assert s.goods_field == ["wood", "cloth", "iron"] and s.players[0]["goods"]["gold"] >= 1


def test_cartography_example_nova_scotia_with_one_empty_space():
    """Cartografie example: de startspeler draait een kompastegel "Nova
    Scotia" om; bij 3 spelers zou hij 2 eilandtegels moeten trekken, maar op
    Nova Scotia is nog maar 1 veld leeg: hij trekt er maar 1; deze past."""
    s = bare(["Portugal", "Spain", "England"])
    spaces = ISLANDS["Nova Scotia"]["spaces"]
    for sp in spaces[:-1]:
        tile = next(t for t in s.island_pile if TILES[t]["shape"] == sp["shape"])
        lay_tile(s, tile, sp["id"])
    last = next(t for t in s.island_pile if TILES[t]["shape"] == spaces[-1]["shape"])
    s.island_pile.remove(last)
    s.island_pile.append(last)
    s.compass_pile.append(
        next(
            p for p, isl in COMPASS.items() if isl == "Nova Scotia" and p not in s.compass_pile[:-1]
        )
    )
    before = len(s.island_pile)
    endphase.cartography(s, [])
    assert s.board[spaces[-1]["id"]][0] == last and len(s.island_pile) == before - 1
    assert board.island_full(s, "Nova Scotia")


def test_cartography_discards_tiles_that_do_not_fit_and_puts_a_neutral_marker_with_2_players():
    """Cartografie: past een tegel niet, dan op het aflegtableau en verder
    trekken.  Bij 2 spelers: op elk gelegde eilandtegel 1 markeersteen van een
    derde kleur; deze tellen mee voor de meerderheid."""
    s = bare(["Portugal", "Spain"])
    s.compass_pile.append("P5")  # Prince Edward Island
    squares = [t for t in s.island_pile if TILES[t]["shape"] == "square"][:2]
    tee = next(t for t in s.island_pile if TILES[t]["shape"] == "tee")
    corner = next(t for t in s.island_pile if TILES[t]["shape"] == "corner")
    lay_tile(s, squares[0], "PE1")
    lay_tile(s, squares[1], "PE2")
    lay_tile(s, next(t for t in s.island_pile if TILES[t]["shape"] == "bar"), "PE3")
    for t in (tee, corner):
        s.island_pile.remove(t)
    s.island_pile += [tee, corner]  # corner first, then tee
    endphase.cartography(s, [])
    assert s.board["PE4"][0] == corner and s.board["PE5"][0] == tee
    assert s.board["PE4"][1][0] == [NEUTRAL, 1] and s.board["PE5"][1][0] == [NEUTRAL, 1]
    assert scoring.majority({0: 2, NEUTRAL: 2, 1: 1}, 6, 3) == {0: 2 + 3, 1: 1}


def _complete(s, island, markers):
    """Fill an island; ``markers``: per seat a list of field sizes."""
    fields = [(seat, k) for seat, ks in markers.items() for k in ks]
    for sp in ISLANDS[island]["spaces"]:
        tile = next(t for t in s.island_pile if TILES[t]["shape"] == sp["shape"])
        cell = [fields.pop(0) if fields else (None, 0) for _ in range(2)]
        lay_tile(s, tile, sp["id"], cell)


def _scoring_state(frames: bool = True):
    s = bare(["Spain", "Portugal", "England"], start=RED)  # red, yellow, blue
    s.compass_pile = []
    if not frames:  # keep frame-tile picks out of the way
        for f in s.frames.values():
            f[0] = None
    hold_at_goals(s, BLUE)
    return s


def test_island_scoring_example_nova_scotia():
    """Eilandtelling example: blauw en rood hebben ieder 5 markeerstenen op
    Nova Scotia, geel 3.  Blauw en rood delen de meerderheid en krijgen de
    bonus voor de tweede plaats; geel als derde niets.  Rood (startspeler)
    krijgt eerst 9 punten (5 + 4), dan geel 3, tot slot blauw 9.  Een product
    op het puntensymbool (8/4)."""
    s = _scoring_state(frames=False)
    _complete(s, "Nova Scotia", {RED: [2, 2, 1], BLUE: [2, 2, 1], YELLOW: [2, 1]})
    wood = s.supply["wood"]
    ev = run(s, endphase.enter)
    assert [p["score"] for p in s.players] == [9, 3, 9]
    texts = [e.text for e in ev if "Nova Scotia (" in e.text or "for Nova Scotia" in e.text]
    assert [t[:4] for t in texts] == ["{s0}", "{s1}", "{s2}"]
    assert s.scored == ["Nova Scotia"] and s.supply["wood"] == wood - 1


def test_city_scoring_example_stockholm():
    """Stadstelling example: in Stockholm heeft geel 3 markeerstenen, rood en
    blauw ieder 1.  Geel krijgt 8 bonuspunten; rood en blauw delen de tweede
    plaats en krijgen geen bonus.  Rood 1, geel 11, blauw 1."""
    s = _scoring_state(frames=False)
    s.cities["Stockholm"] = [YELLOW, RED, YELLOW, BLUE, YELLOW]
    run(s, endphase.enter)
    assert [p["score"] for p in s.players] == [1, 11, 1] and s.scored == ["Stockholm"]


def test_several_scorings_at_once_begin_with_the_largest_bonus_and_islands_before_cities():
    """Opmerking: zijn er meerdere eilanden die worden geteld, begin dan met
    het eiland dat de meeste bonuspunten geeft (the same for cities)."""
    s = _scoring_state()
    _complete(s, "Nova Scotia", {RED: [1]})
    _complete(s, "Newfoundland", {YELLOW: [1]})
    s.cities["Hamburg"] = [RED] * 4
    s.cities["Danzig"] = [BLUE] * 6
    run(s, endphase.enter)
    assert s.scored == ["Newfoundland", "Nova Scotia", "Danzig", "Hamburg"]


def test_scoring_points_go_from_the_start_player_which_matters_for_frame_tiles():
    """De startspeler krijgt eerst zijn punten, daarna de anderen in
    beurtvolgorde; dit is van belang voor de kadertegels."""
    s = _scoring_state()
    s.players[RED]["score"] = 5
    s.players[BLUE]["score"] = 5
    _complete(s, "Nova Scotia", {RED: [2, 2, 1], BLUE: [2, 2, 1]})
    run(s, endphase.enter)
    assert s.phase == "frame" and s.turn == RED and s.players[BLUE]["score"] == 5
    s = play(s, {"type": "take_goal", "card": s.goal_piles["square"][0]})
    assert s.frames["square"][0] == 6  # blue's ship on 5 stops it
    assert s.phase == "frame" and s.turn == BLUE  # then blue passes it too


def test_majorities_tied_first_take_the_second_bonus_and_tied_second_nothing():
    """Delen 2 of meer spelers de eerste plaats, dan krijgen ze allen de
    bonuspunten voor de tweede plaats.  Delen 2 of meer spelers de tweede
    plaats, dan krijgen ze allen geen bonuspunten."""
    assert scoring.majority({0: 3, 1: 3, 2: 1}, 8, 4) == {0: 7, 1: 7, 2: 1}
    assert scoring.majority({0: 4, 1: 2, 2: 2}, 8, 4) == {0: 12, 1: 2, 2: 2}
    assert scoring.majority({0: 4, 1: 2, 2: 1}, 8, 4) == {0: 12, 1: 6, 2: 1}


def test_passing_50_takes_the_top_50_100_card_and_passing_100_turns_it():
    """De 50/100-puntenkaarten: wie de 50-puntengrens bereikt, neemt de
    bovenste kaart; lukt het een tweede keer, dan draait hij de kaart naar de
    100-kant."""
    s = bare(["Portugal", "Spain"])
    track.add_points(s, 1, 50, [], "test")
    track.add_points(s, 0, 60, [], "test")
    assert s.players[1]["fifty"] == 0 and s.players[0]["fifty"] == 1
    assert track.fifty_bonus(s.players[1]) == 5 and track.fifty_bonus(s.players[0]) == 3
    track.add_points(s, 0, 45, [], "test")
    assert s.players[0]["hundred"] and track.fifty_bonus(s.players[0]) == 7


def _goal_state(goods, goal_cards, start=YELLOW):
    s = bare(["Spain", "Portugal", "England"], start=start)
    s.players[YELLOW]["goods"].update(goods)
    s.players[YELLOW]["goals"] = list(goal_cards)
    return s


def test_goal_card_example_iron_then_a_paid_second_card():
    """Doelkaarten spelen example: geel speelt deze doelkaart met 2 ijzer en
    krijgt 5 punten (hij hoeft de goederen niet in te leveren).  Hij wil nog
    een doelkaart spelen, betaalt 2 hout, en krijgt voor 9 markeerstenen op
    1 eiland nog 10 punten."""
    s = _goal_state({"iron": 2, "wood": 2}, ["G03", "G13"])
    _complete(s, "Newfoundland", {YELLOW: [2, 2, 2, 2, 1]})
    run(s, goals.enter)
    assert s.turn == YELLOW
    assert {"type": "goal", "card": "G13"} in GAME.legal_actions(s, YELLOW)
    s = play(s, {"type": "goal", "card": "G03"})
    assert s.players[YELLOW]["score"] == 5 and s.players[YELLOW]["goods"]["iron"] == 2
    assert {"type": "goal", "card": "G13"} not in GAME.legal_actions(s, YELLOW)
    s = play(s, {"type": "goal", "card": "G13", "pay": ["wood", "wood"]})
    assert s.players[YELLOW]["score"] == 15 and s.players[YELLOW]["goods"]["wood"] == 0
    assert s.discard["goals"] == ["G03", "G13"]


def test_goal_cards_pay_the_upper_or_the_lower_goal():
    """Een speler moet aan ten minste het bovenste of het onderste doel
    voldoen (6 or 9 markers on one island)."""
    s = _goal_state({}, ["G13"])
    _complete(s, "Newfoundland", {YELLOW: [2, 2, 2]})
    assert goals.goal_points(s, YELLOW, "G13") == 6
    s = _goal_state({}, ["G13"])
    _complete(s, "Newfoundland", {YELLOW: [2, 2]})
    assert goals.goal_points(s, YELLOW, "G13") == 0


def test_goal_card_example_two_completed_islands():
    """Bijlage example: groen heeft 8 markeerstenen op Newfoundland en 6 op
    Prince Edward Island, beide afgebouwd: 13 punten."""
    s = _goal_state({}, ["G14"])
    _complete(s, "Newfoundland", {YELLOW: [2, 2, 2, 2]})
    _complete(s, "Prince Edward Island", {YELLOW: [2, 2, 2]})
    assert goals.goal_points(s, YELLOW, "G14") == 13


def test_gold_is_no_wild_good_for_goods_goals_and_charters_do_not_count_as_ships():
    """Bijlage: goud geldt hier niet als product naar keuze; charterschepen,
    kapiteins en havenuitbreidingen tellen bij de symbooldoelen niet mee."""
    s = _goal_state({"iron": 1, "gold": 3}, ["G03"])
    assert goals.goal_points(s, YELLOW, "G03") == 0
    s = _goal_state({}, ["G07"])
    s.players[YELLOW]["ships"] = ["s12"]  # person 2
    s.players[YELLOW]["hand"] = ["K10"]  # a charter with person 2
    s.players[YELLOW]["captains"] = ["magellan"]
    s.players[YELLOW]["exts"] = ["shipyard"]
    assert goals.goal_points(s, YELLOW, "G07") == 0
    s.players[YELLOW]["ships"].append("s10")  # person 1: 3 in all
    assert goals.goal_points(s, YELLOW, "G07") == 4


def test_an_extra_goal_card_costs_two_goods_paid_before_the_condition_is_checked():
    """Voor elke extra doelkaart in een ronde 2 goederen naar keuze betalen
    (he pays, then turns the card)."""
    s = _goal_state({"wood": 3, "cloth": 1, "iron": 2}, ["G03", "G01"])
    run(s, goals.enter)
    s = play(s, {"type": "goal", "card": "G03"})
    legal = GAME.legal_actions(s, YELLOW)
    assert {"type": "goal", "card": "G01", "pay": ["cloth", "iron"]} in legal
    assert {"type": "goal", "card": "G01", "pay": ["wood", "wood"]} not in legal


def test_the_start_player_passes_left_after_the_round():
    """Startspeler: de startspeler geeft de startspelertegel aan de speler
    links van hem."""
    s = bare(["Spain", "Portugal", "England"], start=2)
    goals.finish(s, [])
    assert s.start == 0 and s.round == 2


def test_final_scoring_example_76_82_85():
    """Eindtelling example: geel 69 + 4 markeerstenen op niet getelde
    eilanden/steden + 1 (50/100-kaart) + 2 (1 doelkaart) = 76; rood 73 + 2 + 3
    + 4 (2 1x-kaarten) = 82; blauw 80 + 0 + 5 + 0 = 85.  Blauw wint."""
    s = bare(["Spain", "Portugal", "England"])
    s.round = 4
    yellow, red, blue = s.players[YELLOW], s.players[RED], s.players[BLUE]
    yellow["score"], red["score"], blue["score"] = 69, 73, 80
    blue["fifty"], red["fifty"], yellow["fifty"] = 0, 1, 2
    yellow["goals"] = ["G01"]
    red["hand"] = ["K12", "K13"]
    lay_tile(s, "T01", "NF1", [(YELLOW, 2), (RED, 1)])
    lay_tile(s, "T04", "NF2", [(YELLOW, 1), (None, 0)])
    s.cities["Danzig"] = [YELLOW, RED]
    lay_tile(s, "T05", "NS1", [(BLUE, 2), (None, 0)])
    s.scored = ["Nova Scotia"]  # scored: no more points
    goals.finish(s, [])
    assert s.over and [p["score"] for p in s.players] == [82, 76, 85]
    out = GAME.outcome(s)
    assert out.winners == (BLUE,)
    assert dict(out.scores[YELLOW].breakdown)["unplayed cards"] == 2


def test_ties_go_to_more_goods_and_then_the_win_is_shared():
    """Hebben 2 of meer spelers evenveel punten, dan wint de speler met meer
    goederen; is het dan nog gelijk, dan delen deze spelers de winst."""
    s = bare(["Spain", "Portugal", "England"])
    s.round = 4
    for p in s.players:
        p["score"] = 40
    s.players[0]["goods"]["wood"] = 2
    s.players[1]["goods"]["gold"] = 2
    goals.finish(s, [])
    assert GAME.outcome(s).winners == (0, 1)
    s.players[1]["goods"]["gold"] = 3
    assert GAME.outcome(s).winners == (1,)
