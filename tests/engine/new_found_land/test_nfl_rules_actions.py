"""Rules and worked examples of the planning and action phases
(shared/rules/001_…, "Planningsfase", "Actiefase", "Laden", "Vestigen",
"Leveren", "Ontdekken", the Bijlage on captains and harbour extensions)."""

from __future__ import annotations

from engine.new_found_land.data import SHIPS, TILES
from engine.new_found_land.phases import actions, planning
from tests.engine.new_found_land.nfl_helpers import (
    GAME,
    bare,
    hold_at_goals,
    lay_tile,
    plan,
    play,
    run,
)

RED, BLUE, YELLOW = 0, 1, 2


def _planning(nations, ships, hand=(), captains=()):
    s = bare(nations)
    s.players[0]["ships"] = list(ships)
    s.players[0]["hand"] = list(hand)
    s.players[0]["captains"] = list(captains)
    run(s, planning.enter)
    return s


def test_load_takes_one_ship_and_the_others_up_to_the_nations_maximum():
    """Planningsfase: bij Laden 1 schip; bij Vestigen, Leveren en Ontdekken
    meerdere schepen, tot het maximum op het spelertableau."""
    s = _planning(["Spain", "Portugal"], ["s08", "s10", "s12", "s14"])
    assert s.action == "load" and s.turn == 0
    s = play(s, {"type": "assign", "ship": "s08"})
    assert s.action == "settle"  # one ship: Load is full
    for sid in ("s10", "s12", "s14"):  # Spain: up to 3 on Settle
        s = play(s, {"type": "assign", "ship": sid})
    assert [x for x, _ in s.plan["settle"][0]] == ["s10", "s12", "s14"]
    assert s.phase != "plan" or s.action != "settle"


def test_a_charter_ship_counts_toward_the_maximum_and_is_discarded_after_use():
    """Charterschepen: telt mee bij het maximale aantal schepen bij een
    actie; na gebruik op het aflegtableau."""
    s = _planning(["Portugal", "Spain"], ["s10", "s15"], hand=["K07"])
    s = play(s, {"type": "done"})  # no Load
    s = play(s, {"type": "assign", "ship": "K07"})  # charter to Settle
    s = play(s, {"type": "assign", "ship": "s10"})  # Portugal: 2 max
    # s15 is left, and any ship may be planned for any action (see the next test)
    assert s.action == "deliver" and "K07" not in s.players[0]["hand"]
    ev: list = []
    s.plan["settle"][0] = [["K07", ""], ["s10", ""]]
    s.phase, s.action, s.order, s.step, s.work = "act", "settle", [0], 0, {"queue": []}
    actions.turn_done(s, 0, ev)
    assert "K07" in s.discard["cards"] and s.plan["settle"][0] == []


def test_any_ship_may_be_planned_for_any_action_and_unplanned_ships_sit_out():
    """Planningsfase: "Wil hij dat, dan moet hij één van de schiptegels aan
    zijn werven open onder de actie Laden van zijn spelertableau leggen" —
    any of his ships, with no condition on its symbols (the rules read the
    action's number off whichever ship is there: "Bij Laden is het cijfer op
    de kist bepalend, bij Vestigen het cijfer op de personen, bij Leveren weer
    het cijfer op de kist en bij Ontdekken het cijfer op de verrekijker").
    "Een speler die nog schepen overheeft, kan deze in deze ronde niet meer
    inzetten."

    The engine used to offer a ship only for an action whose symbol it
    showed, with reconstructed ships lacking symbols; every ship now shows
    all three (components.py) and may go anywhere."""
    s = _planning(["Portugal", "Spain"], ["s09", "s06"])
    assert {a["ship"] for a in GAME.legal_actions(s, 0) if a["type"] == "assign"} == {"s09", "s06"}
    s = play(s, {"type": "assign", "ship": "s09"})  # Load
    assert s.action == "settle"
    assert {"type": "assign", "ship": "s06"} in GAME.legal_actions(s, 0)
    s = play(s, {"type": "done"})
    s = play(s, {"type": "done"})  # Deliver: none
    assert s.action == "explore" and {"type": "assign", "ship": "s06"} in GAME.legal_actions(s, 0)
    assert [x for a in s.plan.values() for x in a[0]] == [["s09", ""]]
    s = play(s, {"type": "done"})  # Explore: none
    assert s.phase != "plan"  # s06 sits out the round
    for sid, sh in SHIPS.items():
        assert sh.crate >= 1 and sh.person in (1, 2) and sh.spyglass >= 1, sid


def test_magellan_adds_7_sailing_and_da_gama_3_crates_to_one_ship():
    """Magellan: de zeilwaarde van dit schip wordt met 7 verhoogd.  Da Gama:
    dit schip krijgt bij Laden of Leveren +3 kistsymbolen."""
    s = _planning(["England", "Spain"], ["s08", "s10"], captains=["magellan", "da_gama"])
    legal = GAME.legal_actions(s, 0)
    assert {"type": "assign", "ship": "s08", "captain": "da_gama"} in legal
    s = play(s, {"type": "assign", "ship": "s08", "captain": "da_gama"})
    legal = GAME.legal_actions(s, 0)
    assert {"type": "assign", "ship": "s10", "captain": "magellan"} in legal
    assert not any(a.get("captain") == "da_gama" for a in legal)  # Settle: no Da Gama
    s = play(s, {"type": "assign", "ship": "s10", "captain": "magellan"})
    assert actions.sailing_value(s, 0, "settle") == 3 + 7
    from engine.new_found_land.phases.load import crate_value

    assert crate_value(s.plan["load"][0]) == 2 + 3


def test_sailing_order_example_ties_go_in_turn_order_from_the_start_player():
    """Actiefase example: blauw heeft bij Laden zeilwaarde 2, rood ook 2 en
    geel 4.  Geel is eerst; rood is startspeler en laadt vóór blauw."""
    blue, red, yellow = 0, 1, 2
    s = bare(["Portugal", "Spain", "England"], start=red)
    plan(s, "load", blue, "s08")  # sail 2
    plan(s, "load", red, "s16")  # sail 2
    plan(s, "load", yellow, "s14")  # sail 4
    assert actions.acting_order(s, "load") == [yellow, red, blue]


def test_sailing_order_example_totals_and_a_player_without_ships_does_not_act():
    """Actiefase example: rood heeft 3 schepen bij Vestigen met totaal 9,
    blauw 1 schip met 3, geel geen: rood, dan blauw; geel voert de actie
    niet uit."""
    s = bare(["Spain", "Portugal", "England"], start=RED)
    plan(s, "settle", RED, "s10", "s15", "K09")  # 3 + 3 + 3
    plan(s, "settle", BLUE, "s10")
    assert actions.sailing_value(s, RED, "settle") == 9
    assert actions.acting_order(s, "settle") == [RED, BLUE]


def test_the_naval_base_adds_2_sailing_in_every_action():
    """Nederland, marinebasis: bij elke actie de zeilwaarde +2."""
    s = bare(["Netherlands", "Portugal"])
    s.players[0]["exts"] = ["naval_base"]
    for a in ("load", "settle", "deliver", "explore"):
        plan(s, a, 0, "s10")
        assert actions.sailing_value(s, 0, a) == 3 + 2


def _acting(s, action, seat):
    """Start ``action`` in the action phase; seat 0 holds a playable goal card,
    so the round stops at the goal cards instead of running on."""
    hold_at_goals(s, 0)
    s.phase = "act"
    run(s, actions._start_action, action)
    assert s.turn == seat
    return s


def test_load_example_a_less_valuable_good_and_one_card_kept():
    """Laden example: rood heeft een schip met kistwaarde 3; hij mag een ijzer
    nemen, kiest het minder waardevolle doek; trekt 3 kaarten, houdt er 1 en
    legt de rest gedekt op het aflegtableau."""
    s = bare(["Spain", "Portugal"])  # Spain: crate 3 = iron
    plan(s, "load", RED, "s07")  # crate 3
    s = _acting(s, "load", RED)
    assert GAME.legal_actions(s, RED) == [
        {"type": "load", "good": g} for g in ("wood", "cloth", "iron")
    ]
    top3 = s.card_pile[-3:]
    s = play(s, {"type": "load", "good": "cloth"})
    assert s.players[RED]["goods"]["cloth"] == 1 and sorted(s.drawn) == sorted(top3)
    assert GAME.view(s, BLUE)["drawn"] is None and GAME.view(s, RED)["drawn"] == s.drawn
    keep = s.drawn[0]
    s = play(s, {"type": "keep", "card": keep})
    assert s.players[RED]["hand"] == [keep]
    assert sorted(s.discard["cards"][-2:]) == sorted(set(top3) - {keep})


def test_the_colonial_harbour_keeps_one_more_card_when_two_were_drawn():
    """Engeland, koloniale haven: een extra 1x-kaart houden als hij ten
    minste 2 kaarten trekt."""
    s = bare(["England", "Portugal"])
    s.players[0]["exts"] = ["colonial_harbour"]
    plan(s, "load", 0, "s08")  # crate 2
    s = _acting(s, "load", 0)  # England, crate 2: wood only, loaded at once
    assert s.players[0]["goods"]["wood"] == 1 and len(s.drawn) == 2
    s = play(s, {"type": "keep", "card": s.drawn[0]})
    assert s.drawn and s.work["keep"] == 1  # a second card to keep
    s = play(s, {"type": "keep", "card": s.drawn[0]})
    assert len(s.players[0]["hand"]) == 2


def test_settling_example_with_three_ships():
    """Vestigen example: rood heeft 3 schepen.  Eerste schip (1): 1 markeersteen
    op een vrij veld, bonus 1 hout en 1 doek.  Tweede schip (2): een toren
    van 2 markeerstenen op het vrije veld van de tegel, 3 punten.  Derde,
    een charterschip (1): een markeersteen, weer 3 punten.  Daarna gaat het
    charterschip naar het aflegtableau."""
    s = bare(["England", "Portugal"])
    lay_tile(s, "T01", "NF1")  # 1 wood + 1 cloth / 3 points
    lay_tile(s, "T07", "NF2")  # 1 wood + 1 iron / 3 points
    plan(s, "settle", RED, "s10", "s12", "K06")  # person 1, 2, 1
    s = _acting(s, "settle", RED)
    s = play(s, {"type": "settle", "space": "NF1", "bonus": 0})
    s = play(s, {"type": "settle", "space": "NF1", "bonus": 1})
    s = play(s, {"type": "settle", "space": "NF2", "bonus": 1})
    p = s.players[RED]
    assert s.board["NF1"][1] == [[RED, 1], [RED, 2]] and s.board["NF2"][1][0] == [RED, 1]
    assert p["goods"]["wood"] == 1 and p["goods"]["cloth"] == 1 and p["score"] == 6
    assert p["markers"] == 25 - 4 and "K06" in s.discard["cards"]


def test_settling_in_new_england_scores_a_point_per_marker_not_placed():
    """Vestigen: kan of wil een speler zich niet vestigen, dan mag hij zich
    op New England vestigen: 1 punt voor elke niet gezette markeersteen."""
    s = bare(["England", "Portugal"])
    plan(s, "settle", RED, "s12")  # person 2
    s = _acting(s, "settle", RED)  # no tile on the board: New England is forced
    assert s.players[RED]["score"] == 2 and s.players[RED]["markers"] == 25


def test_spains_colonial_oversight_adds_a_marker_and_a_bonus():
    """Spanje, koloniale toezicht: bij Vestigen 1 extra markeersteen op een
    eilandtegel, en nogmaals één van beide bonussen."""
    s = bare(["Spain", "Portugal"])
    s.players[0]["exts"] = ["colonial_oversight"]
    lay_tile(s, "T05", "NF1")  # 2 wood / 2 points
    plan(s, "settle", 0, "s10")
    s = _acting(s, "settle", 0)
    s = play(s, {"type": "settle", "space": "NF1", "bonus": 0})
    s = play(s, {"type": "settle", "space": "NF1", "bonus": 1})
    assert s.board["NF1"][1] == [[0, 1], [0, 1]]
    assert s.players[0]["goods"]["wood"] == 2 and s.players[0]["score"] == 2


def _deliver_example():
    s = bare(["Portugal", "Spain", "England"], start=YELLOW)
    p = s.players[YELLOW]
    p["nation"] = "Portugal"
    s.players[RED]["nation"] = "France"
    p["goods"].update(wood=3, cloth=1, iron=2)
    s.contracts[0] = "C01"  # Hamburg: 2 wood, 3 points
    s.contracts[3] = "C02"  # Stockholm: 1 wood 1 cloth 2 iron, 11 points
    s.cities["Hamburg"] = [RED, RED, BLUE, BLUE]  # full
    s.cities["Stockholm"] = [RED, BLUE, YELLOW, YELLOW]  # one field free
    plan(s, "deliver", YELLOW, "s06", "s08", "s16")  # crates 3, 2, 2
    return _acting(s, "deliver", YELLOW)


def test_delivery_example_hamburg_and_stockholm():
    """Leveren example: geel levert met zijn schip met kist 3 2 hout aan
    Hamburg (3 punten, geen markeersteen: Hamburg is vol), en met zijn twee
    schepen met kist 2 samen 1 hout, 1 doek en 2 ijzer aan Stockholm
    (11 punten, markeersteen op het laatste vrije veld)."""
    s = _deliver_example()
    s = play(s, {"type": "deliver", "field": 0, "ships": ["s06"]})
    legal = GAME.legal_actions(s, YELLOW)
    assert not any("s06" in a.get("ships", []) for a in legal)  # one ship, one contract
    assert {"type": "deliver", "field": 3, "ships": ["s16"]} not in legal  # 2 crates < 4 goods
    s = play(s, {"type": "deliver", "field": 3, "ships": ["s08", "s16"]})
    p = s.players[YELLOW]
    assert p["score"] == 14 and p["goods"] == {"wood": 0, "cloth": 0, "iron": 0, "gold": 0}
    assert s.cities["Hamburg"].count(YELLOW) == 0 and s.cities["Stockholm"].count(YELLOW) == 3
    assert {"C01", "C02"} <= set(s.discard["contracts"]) | set(s.contracts)
    assert None not in s.contracts  # refilled to 9


def test_crate_values_cap_the_goods_and_gold_may_stand_in():
    """Leveren: de kistsymbolen geven aan hoeveel goederen de speler maximaal
    mag leveren; 1 goud mag 1 hout, doek of ijzer vervangen."""
    s = _deliver_example()
    s.players[YELLOW]["goods"].update(wood=1, gold=1)
    s._legal = None
    legal = GAME.legal_actions(s, YELLOW)
    assert {"type": "deliver", "field": 0, "ships": ["s08"]} in legal
    s = play(s, {"type": "deliver", "field": 0, "ships": ["s08"]})
    assert s.players[YELLOW]["goods"]["gold"] == 0 and s.players[YELLOW]["goods"]["wood"] == 0


def test_antwerp_pays_a_point_per_good_and_needs_a_crate_per_good():
    """Leveren: aan Antwerpen levert elk product 1 punt op; hij heeft 1 kist
    per te leveren product nodig."""
    s = bare(["Portugal", "Spain"])
    s.players[0]["goods"].update(wood=5)
    plan(s, "deliver", 0, "s08")  # crate 2
    s = _acting(s, "deliver", 0)
    s = play(s, {"type": "antwerp", "good": "wood"})
    assert not any(a["type"] == "deliver" for a in GAME.legal_actions(s, 0))
    s = play(s, {"type": "antwerp", "good": "wood"})  # then only "done": forced
    assert s.players[0]["score"] == 2 and s.players[0]["goods"]["wood"] == 3
    assert s.action != "deliver" or s.turn != 0


def test_the_toll_house_adds_3_points_per_contract():
    """Frankrijk, tolhuis: 3 punten extra voor elk vervuld contract."""
    s = bare(["France", "Spain"])
    s.players[0]["exts"] = ["toll_house"]
    s.players[0]["goods"].update(wood=2)
    s.contracts[0] = "C01"
    plan(s, "deliver", 0, "s08")
    s = _acting(s, "deliver", 0)
    s = play(s, {"type": "deliver", "field": 0, "ships": ["s08"]})
    assert s.players[0]["score"] == 3 + 3


def test_exploring_example_with_5_tiles_drawn():
    """Ontdekken example: blauw heeft 2 schepen met verrekijkers samen 5;
    trekt 5 eilandtegels, legt er 2 (1 per schip) op passende velden en de
    andere 3 gedekt op het aflegtableau; een markeersteen op elk en alle
    bonussen: totaal 1 hout, 2 doek, 1 goud en 2 punten."""
    s = bare(["Portugal", "Spain"])
    s.island_pile = [t for t in s.island_pile if t not in ("T02", "T03")]
    others = [t for t in s.island_pile if TILES[t]["shape"] == "square"][:3]
    for t in others:
        s.island_pile.remove(t)
    s.island_pile += others + ["T02", "T03"]
    plan(s, "explore", BLUE, "s13", "s09")  # spyglass 3 + 2
    s = _acting(s, "explore", BLUE)
    assert sorted(s.drawn) == sorted(others + ["T02", "T03"])
    assert GAME.view(s, RED)["drawn"] is None and GAME.view(s, RED)["drawn_count"] == 5
    s = play(s, {"type": "place", "tile": "T02", "island": "Nova Scotia"})
    s = play(s, {"type": "place", "tile": "T03", "island": "Cape Breton"})
    p = s.players[BLUE]
    assert p["goods"] == {"wood": 1, "cloth": 2, "iron": 0, "gold": 1} and p["score"] == 2
    assert sorted(s.discard["islands"][-3:]) == sorted(others)
    assert s.board["NS3"] == ["T02", [[BLUE, 1], [None, 0]]]
    assert s.board["CB5"] == ["T03", [[BLUE, 1], [None, 0]]]


def test_tiles_fit_only_spaces_of_their_shape_and_columbus_places_one_more():
    """Ontdekken: de vorm op het speelbord moet met die op de tegel
    overeenkomen (draaien mag).  Columbus: een extra eilandtegel."""
    s = bare(["Portugal", "Spain"])
    s.players[0]["captains"] = ["columbus"]
    tees = [t for t in s.island_pile if TILES[t]["shape"] == "tee"][:2]
    for t in tees:
        s.island_pile.remove(t)
    s.island_pile += tees
    plan(s, "explore", 0, "s09")  # spyglass 2, one ship
    s = _acting(s, "explore", 0)
    legal = GAME.legal_actions(s, 0)
    assert {a["island"] for a in legal if a["type"] == "place"} == {
        "Newfoundland",
        "Nova Scotia",
        "Prince Edward Island",
        "Cape Breton",
    }
    s = play(s, {"type": "place", "tile": tees[0], "island": "Prince Edward Island"})
    legal = GAME.legal_actions(s, 0)
    assert "Prince Edward Island" not in {a["island"] for a in legal if a["type"] == "place"}
    s = play(s, {"type": "place", "tile": tees[1], "island": "Cape Breton"})
    assert s.board["PE5"][0] == tees[0] and s.board["CB6"][0] == tees[1]


def test_goods_and_point_cards_may_be_played_during_the_players_own_turn():
    """Laden: goederen- en puntenkaarten mag hij op elk moment in zijn beurt
    spelen; hij krijgt direct de goederen en/of punten."""
    s = bare(["Portugal", "Spain"])
    s.players[0]["hand"] = ["K17"]  # 3 points
    s.players[1]["hand"] = ["K12"]
    plan(s, "deliver", 0, "s08")
    s = _acting(s, "deliver", 0)
    assert {"type": "play", "card": "K17"} in GAME.legal_actions(s, 0)
    assert GAME.legal_actions(s, 1) == []
    s = play(s, {"type": "play", "card": "K17"})
    assert s.players[0]["score"] == 3 and "K17" in s.discard["cards"]
