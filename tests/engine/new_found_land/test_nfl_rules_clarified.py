"""Rules the engine's first version simplified, now as the rulebook text says
(shared/rules/001_…; engine/new_found_land/README.md, "Interpretations").

Each docstring quotes the Dutch rule and says it in English."""

from __future__ import annotations

from engine.new_found_land import labels
from engine.new_found_land.phases import actions, goals, land
from tests.engine.new_found_land.nfl_helpers import (
    GAME,
    bare,
    hold_at_goals,
    lay_tile,
    plan,
    play,
    run,
)

ME, OTHER = 0, 1
PLAIN = {"type": "pay", "gold_for": []}


def _land(goods: dict, nation: str = "Portugal"):
    """Seat 0's land phase (after the income of 1 wood + 1 cloth) with
    ``goods`` on top, one start ship, a harbour with room."""
    s = bare([nation, "Spain"])
    s.players[ME]["goods"].update(goods)
    s.players[ME]["ships"] = ["s01"]
    run(s, land.enter)
    assert s.turn == ME and s.phase == "land"
    return s


def _acting(s, action: str, seat: int = ME):
    hold_at_goals(s, OTHER)  # the round stops at the goal cards
    s.phase = "act"
    run(s, actions._start_action, action)
    assert s.turn == seat
    return s


def _types(s, seat=ME) -> list[str]:
    return [a["type"] for a in GAME.legal_actions(s, seat)]


# -- 1. gold in payments ----------------------------------------------------------


def test_gold_may_be_paid_instead_of_a_good_the_player_has_and_he_chooses_how():
    """Schepen bouwen: "Belangrijk: een speler mag altijd 1 goud inleveren in
    plaats van 1 hout, 1 doek of 1 ijzer."  — A player may always hand in 1
    gold instead of 1 wood, 1 cloth or 1 iron: also when he has the wood, so
    the player chooses.  One build action per ship; when the cost can be paid
    in several ways the next decision asks how, and each label says what is
    paid."""
    s = _land({"gold": 2})  # 1 wood, 1 cloth, 2 gold
    slot0 = s.small_offer[0]
    builds = [
        a
        for a in GAME.legal_actions(s, ME)
        if a["type"] == "build" and a["slot"] == 0 and a["row"] == "small"
    ]
    assert builds == [{"type": "build", "row": "small", "slot": 0}]
    assert "you choose how to pay next" in GAME.label(s, builds[0])
    s = play(s, builds[0])
    assert s.phase == "land" and s.small_offer[0] == slot0  # not built yet
    pays = [a for a in GAME.legal_actions(s, ME) if a["type"] == "pay"]
    assert pays == [
        PLAIN,
        {"type": "pay", "gold_for": ["wood"]},
        {"type": "pay", "gold_for": ["cloth"]},
        {"type": "pay", "gold_for": ["wood", "cloth"]},
    ]
    words = [GAME.label(s, a) for a in pays]
    assert words[0].startswith("Pay 1 wood + 1 cloth for a small ship " + slot0)
    assert words[1].startswith("Pay 1 cloth + 1 gold (gold for 1 wood) for a small ship")
    assert words[3].startswith("Pay 2 gold (gold for 1 wood + 1 cloth)")
    assert GAME.default_action(s) == PLAIN  # a timeout pays with the goods
    s = play(s, {"type": "pay", "gold_for": ["wood"]})
    assert s.players[ME]["goods"] == {"wood": 1, "cloth": 0, "iron": 0, "gold": 1}
    assert slot0 in s.players[ME]["ships"] and s.work is None


def test_gold_covers_every_good_the_player_lacks_as_often_as_he_has_gold():
    """Bijlage, doelkaarten met goederen: "Goud geldt hier niet als product
    naar keuze" — gold is not a good of one's choice *here*: everywhere else
    it is, one gold for each wood, cloth or iron ("altijd 1 goud … in plaats
    van 1 hout, 1 doek of 1 ijzer" sets the rate, not a limit per payment).
    With no choice left the label says what is paid and the build is done at
    once."""
    s = bare(["Portugal", "Spain"])
    s.players[ME]["goods"].update(gold=2)
    s.players[ME]["ships"] = ["s01"]
    s.players[ME]["captains"] = []
    s.start = ME
    run(s, land.enter)
    s.players[ME]["goods"].update(wood=0, cloth=0)  # no income to spend: gold only
    s._legal = None
    build = {"type": "build", "row": "small", "slot": 1}
    assert GAME.label(s, build).startswith("Build a small ship ")
    assert GAME.label(s, build).split(" for ")[-1] == "2 gold"
    s = play(s, build)
    assert s.players[ME]["goods"]["gold"] == 0 and len(s.players[ME]["ships"]) == 2


def test_gold_stands_in_for_harbour_extensions_and_deliveries_too():
    """ "Dit geldt ook bij Haven uitbreiden en Leveren." — This also holds for
    extending the harbour and for delivering."""
    s = _land({"iron": 1, "gold": 1})  # shipyard: 1 cloth + 1 iron
    s = play(s, {"type": "extend", "ext": "shipyard"})
    assert [a for a in GAME.legal_actions(s, ME) if a["type"] == "pay"] == [
        PLAIN,
        {"type": "pay", "gold_for": ["cloth"]},
        {"type": "pay", "gold_for": ["iron"]},
    ]
    assert (
        GAME.label(s, {"type": "pay", "gold_for": ["iron"]})
        == "Pay 1 cloth + 1 gold (gold for 1 iron) for the extra shipyard"
    )
    s = play(s, {"type": "pay", "gold_for": ["iron"]})
    assert s.players[ME]["goods"] == {"wood": 1, "cloth": 0, "iron": 1, "gold": 0}
    assert "shipyard" in s.players[ME]["exts"]

    s = bare(["Portugal", "Spain"])
    s.players[ME]["goods"].update(wood=2, gold=1)
    s.contracts[0] = "C01"  # Hamburg: 2 wood, 3 points
    plan(s, "deliver", ME, "s08")  # crate 2
    s = _acting(s, "deliver")
    deliver = {"type": "deliver", "field": 0, "ships": ["s08"]}
    assert deliver in GAME.legal_actions(s, ME)
    s = play(s, deliver)
    assert [a for a in GAME.legal_actions(s, ME) if a["type"] == "pay"] == [
        PLAIN,
        {"type": "pay", "gold_for": ["wood"]},
    ]
    assert (
        GAME.label(s, {"type": "pay", "gold_for": ["wood"]})
        == "Pay 1 wood + 1 gold (gold for 1 wood) for the contract in Hamburg (2 wood)"
    )
    s = play(s, {"type": "pay", "gold_for": ["wood"]})
    p = s.players[ME]
    assert p["goods"] == {"wood": 1, "cloth": 0, "iron": 0, "gold": 0} and p["score"] == 3


def test_a_payment_with_one_way_only_is_made_at_once():
    """Gold only where the player lacks the good and nothing to choose: no
    second decision (the rulebook's own example pays 1 doek and 1 ijzer)."""
    s = _land({"iron": 1})  # 1 wood, 1 cloth, 1 iron
    s = play(s, {"type": "extend", "ext": "shipyard"})
    assert "pay" not in _types(s) and s.players[ME]["goods"]["iron"] == 0


# -- 2. Antwerp ---------------------------------------------------------------------


def _antwerp_state(goods: dict):
    s = bare(["Portugal", "Spain"])
    s.players[ME]["goods"].update(goods)
    s.contracts[0] = "C01"  # Hamburg: 2 wood, 3 points
    plan(s, "deliver", ME, "s06", "s10")  # crates 3 and 1
    return _acting(s, "deliver")


def test_antwerp_with_one_ship_and_a_contract_with_another_in_either_order():
    """Leveren: "Voor elk contract heeft een speler 1 schip nodig. […] nooit
    1 schip voor meerdere contracten."  "Kan of wil een speler geen contract
    vervullen, dan mag hij in plaats daarvan goederen aan Antwerpen leveren."
    — Each contract needs a ship of its own; a player who cannot or will not
    fulfil a contract (with a ship) may deliver to Antwerp instead.  So the
    ships that fulfil no contract may go to Antwerp, before or after the
    others fulfil contracts; the player chooses which ship goes."""
    s = _antwerp_state({"wood": 3})
    legal = GAME.legal_actions(s, ME)
    assert {"type": "antwerp", "good": "wood", "ship": "s10"} in legal
    assert {"type": "antwerp", "good": "wood", "ship": "s06"} in legal
    assert "sending s10" in GAME.label(s, {"type": "antwerp", "good": "wood", "ship": "s10"})
    s = play(s, {"type": "antwerp", "good": "wood", "ship": "s10"})
    legal = GAME.legal_actions(s, ME)
    assert {"type": "deliver", "field": 0, "ships": ["s06"]} in legal  # s06 is free
    s = play(s, {"type": "deliver", "field": 0, "ships": ["s06"]})
    assert s.players[ME]["score"] == 1 + 3 and s.players[ME]["goods"]["wood"] == 0

    s = _antwerp_state({"wood": 4})  # the other order
    s = play(s, {"type": "deliver", "field": 0, "ships": ["s06"]})
    assert {"type": "antwerp", "good": "wood"} in GAME.legal_actions(s, ME)  # s10 only
    s = play(s, {"type": "antwerp", "good": "wood"})
    assert s.players[ME]["score"] == 3 + 1


def test_antwerp_pays_a_point_per_good_with_one_crate_per_good_and_its_ships_fulfil_no_contract():
    """ "Elk geleverd product levert hem 1 punt op. Hij heeft echter zoals
    gebruikelijk 1 kist per te leveren product nodig." — Each good delivered
    to Antwerp pays 1 point; as usual one crate per good.  A ship sent to
    Antwerp carries goods there, not to a contract."""
    s = _antwerp_state({"wood": 2, "cloth": 3, "gold": 1})
    s = play(s, {"type": "antwerp", "good": "cloth", "ship": "s06"})  # 3 crates
    assert not any(
        a["type"] == "deliver" and "s06" in a["ships"] for a in GAME.legal_actions(s, ME)
    )
    s = play(s, {"type": "antwerp", "good": "cloth"})
    s = play(s, {"type": "antwerp", "good": "gold"})  # gold is a good
    assert s.work["antwerp"] == 0
    legal = GAME.legal_actions(s, ME)
    assert {"type": "antwerp", "good": "cloth"} in legal  # s10 may follow
    s = play(s, {"type": "antwerp", "good": "cloth"})
    assert s.players[ME]["score"] == 4
    assert s.players[ME]["goods"] == {"wood": 2, "cloth": 0, "iron": 0, "gold": 0}
    assert s.turn != ME or s.action != "deliver"  # no crates left: only "done", forced


# -- 3. any ship for any action: test_nfl_rules_actions.py --------------------------

# -- 4. Spain's colonial oversight ------------------------------------------------


def _oversight(tiles):
    s = bare(["Spain", "Portugal"])
    s.players[ME]["exts"] = ["colonial_oversight"]
    for tile, space, fields in tiles:
        lay_tile(s, tile, space, fields)
    plan(s, "settle", ME, "s10")  # person 1
    return _acting(s, "settle")


def test_the_colonial_oversights_marker_may_join_the_players_own_marker():
    """Bijlage, Spanje: "dan mag hij bij de actie Vestigen 1 extra markeersteen
    op één van beide velden van een al op het speelbord liggende eilandtegel
    leggen. Daarna kiest hij nogmaals één van beide op deze eilandtegel
    afgebeelde bonussen." — One extra marker on either of the two fields of a
    tile already on the board, then once more one of that tile's bonuses.
    Unlike a settling ship ("uitsluitend op een leeg veld") the field need
    not be empty: it may be the player's own."""
    s = _oversight([("T05", "NF1", ((None, 0), (None, 0)))])  # 2 wood / 2 points
    s = play(s, {"type": "settle", "space": "NF1", "bonus": 0})
    legal = GAME.legal_actions(s, ME)
    assert {"type": "settle", "space": "NF1", "bonus": 1, "field": 0} in legal
    assert {"type": "settle", "space": "NF1", "bonus": 1} in legal  # the empty field
    assert "onto your marker" in GAME.label(
        s, {"type": "settle", "space": "NF1", "bonus": 1, "field": 0}
    )
    s = play(s, {"type": "settle", "space": "NF1", "bonus": 1, "field": 0})
    p = s.players[ME]
    assert s.board["NF1"][1] == [[ME, 2], [None, 0]]
    assert p["markers"] == 25 - 2 and p["goods"]["wood"] == 2 and p["score"] == 2


def test_the_colonial_oversight_never_uses_another_colours_field_and_may_be_declined():
    """ "1 extra markeersteen op één van beide velden" is the player's marker
    on a field of his own or an empty one, never on another colour's; and it
    is a "mag" (may): he may place none, which gives nothing — New England
    ("Kan of wil een speler zich niet op een eilandtegel vestigen") is for
    the ships' settling, not for this extra marker."""
    s = _oversight(
        [("T05", "NF1", ((OTHER, 1), (None, 0))), ("T04", "NF2", ((OTHER, 1), (OTHER, 2)))]
    )
    s = play(s, {"type": "new_england"})  # the ship: 1 point
    assert s.players[ME]["score"] == 1
    legal = GAME.legal_actions(s, ME)
    assert GAME.prompt(s).startswith("place the colonial oversight's extra marker")
    assert {a.get("space") for a in legal if a["type"] == "settle"} == {"NF1"}
    assert not any("field" in a for a in legal)
    assert {"type": "new_england"} not in legal and {"type": "done"} in legal
    assert GAME.label(s, {"type": "done"}) == "Place no extra marker"
    assert GAME.default_action(s) == {"type": "done"}
    s = play(s, {"type": "done"})
    assert s.players[ME]["score"] == 1 and s.players[ME]["markers"] == 25


# -- 5. one-time cards ----------------------------------------------------------------


def test_a_goods_card_can_be_played_in_every_land_phase():
    """Laden: "Goederen- en puntenkaarten mag hij op elk moment in zijn beurt
    spelen." — Goods and points cards may be played at any time during one's
    own turn.  The engine offers them at every decision of the player; the
    land phase always stops for a player holding one, so every round gives
    the chance (before building, where the goods matter most)."""
    s = bare(["Portugal", "Spain"])
    s.players[ME]["hand"] = ["K12"]  # 2 wood
    run(s, land.enter)
    assert s.turn == ME and {"type": "play", "card": "K12"} in GAME.legal_actions(s, ME)
    s = play(s, {"type": "play", "card": "K12"})
    assert s.players[ME]["goods"]["wood"] == 1 + 2


# -- 6. ship-symbol goal cards ----------------------------------------------------


def test_symbol_goal_cards_add_up_the_numbers_on_the_players_own_ships_only():
    """Bijlage: "Om zo'n doelkaart te spelen, moet de speler ten minste het
    erop aangegeven aantal symbolen op zijn kleine en grote schepen hebben.
    Let op: charterschepen, kapiteins en havenuitbreidingen tellen bij deze
    doelkaarten niet mee." — At least the number of symbols shown, on his
    small and large ships; charters, captains and extensions do not count.
    The symbols carry numbers, and the rules count them as such (Da Gama:
    "+3 kistsymbolen", +3 crate symbols), so the card adds up the numbers;
    that captains and the naval base (+2 sailing) must be excluded only makes
    sense for a sum."""
    s = bare(["Netherlands", "Portugal"])
    p = s.players[ME]
    p["goals"] = ["G05", "G06"]
    p["ships"] = ["s06", "L02"]  # crates 3 + 4, sails 1 + 4
    assert goals.measure(s, ME, {"kind": "symbol", "param": "crate"}) == 7
    assert goals.goal_points(s, ME, "G06") == 4  # 6 or 9 crates: 7 -> lower goal
    p["hand"] = ["K08"]  # charter, crate 3
    p["captains"] = ["da_gama", "magellan"]
    p["exts"] = ["naval_base"]
    assert goals.goal_points(s, ME, "G06") == 4
    assert goals.goal_points(s, ME, "G05") == 0  # sails 5 < 10; +7 and +2 do not count
    p["ships"].append("L11")  # sail 7, crate 2
    assert goals.goal_points(s, ME, "G06") == 8 and goals.goal_points(s, ME, "G05") == 4


def test_labels_name_every_legal_action_of_a_payment_decision():
    s = _land({"iron": 2, "gold": 3})
    for a in GAME.legal_actions(s, ME):
        if a["type"] in ("build", "extend"):
            t = play(s, a)
            for b in GAME.legal_actions(t, ME):
                assert labels.label(t, b)
