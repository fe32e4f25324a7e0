"""The worked examples of the Puerto Rico rulebooks ("Voorbeeld"), replayed.

Each test rebuilds the position of one example and checks the engine reaches
the outcome the rulebook gives.  Sources in /work/shared/rules/:

    000_5b629d4347a4e22c.txt  Dutch rulebook (the main spec)
    004_800c979a45a72a97.txt  French rulebook (the same examples, with names)

Seats: A = 0, B = 1, C = 2, D = 3, clockwise.  The engine plays a decision at
once when it has a single legal action, so forced steps of an example happen
inside the apply() of the last real choice before them.
"""

from __future__ import annotations

import pytest

from engine.puerto_rico.data import TOBACCO
from tests.engine.puerto_rico.pr_positions import (
    GAME,
    PASS,
    act,
    build,
    choose,
    game_over_now,
    goods_of,
    legal,
    load,
    set_ships,
    set_supply,
    setp,
    ship_view,
    supply,
    table,
    wharf,
)

A, B, C, D = range(4)


def test_example_captain_phase_four_players():
    """000_5b629d4347a4e22c.txt, "Voorbeeld van een kapiteinsfase (met 4 spelers)":

    "A. is kapitein en begint met leveren. Hij heeft 2 maïs en 6 suiker. Het 5-schip en het
    7-schip zijn leeg, op het 6-schip liggen al 3 maïs. A. moet nu ofwel 2 maïs ofwel 6
    suiker leveren. Hij besluit 6 suikerstenen te leveren op het 7-schip. Dit levert hem 7
    punten op (6 voor de suiker plus 1 als zijn privilege.)
    B. ... heeft 2 suiker en 3 tabak. Hij kiest ervoor om suiker te leveren en plaatst 1
    suikersteen op het laatste vrije veld in het 7-schip. (In plaats hiervan had hij ook 3
    tabak op het 5-schip mogen laden.) Hij krijgt 1 punt.
    C. ... heeft 2 maïs en 1 tabak. Hij besluit om tabak te leveren en zet 1 tabakssteen op
    het 5-schip. Hij krijgt 1 punt.
    D. ... heeft 1 maïs en 5 indigo. Hij moet zijn maïs op het 6-schip laden en krijgt 1
    punt.
    A. komt opnieuw aan de beurt. Hij moet zijn 2 maïs aan het 6-schip leveren en krijgt
    daarvoor 2 punten.
    B. heeft geen keuze meer. Hij moet zijn 3 tabaksstenen leveren aan het 5-schip. Hij
    krijgt hiervoor 3 punten.
    Niemand kan hierna meer leveren. ... Nu wordt bekeken hoeveel goederen de spelers op
    kunnen slaan. Daarna worden het volle 6-schip en het volle 7-schip gelost. Het 5-schip
    wordt niet gelost, omdat het nog niet helemaal vol is. De 4 tabaksstenen blijven dus op
    dit schip liggen."

    004_800c979a45a72a97.txt adds: "elle ne peut pas choisir le navire à 5 cases, sur
    lequel elle ne pourrait pas charger 6 tonneaux".
    """
    s = table(4, governor=A)
    set_ships(s, (5, None, 0), (6, "corn", 3), (7, None, 0))
    setp(s, A, goods={"corn": 2, "sugar": 6})
    setp(s, B, goods={"sugar": 2, "tobacco": 3})
    setp(s, C, goods={"corn": 2, "tobacco": 1})
    setp(s, D, goods={"corn": 1, "indigo": 5})
    vp_supply = s.vp_supply
    s, _ = choose(s, A, "captain")

    # A: 2 corn on the 6-ship or 6 sugar on the 7-ship - not on the 5-ship.
    assert GAME.to_move(s) == A
    assert sorted(legal(s), key=str) == sorted([load("corn", 1), load("sugar", 2)], key=str)
    s = act(s, load("sugar", 2))
    assert ship_view(s)[2] == (7, "sugar", 6) and s.players[A].vp == 7

    # B: 1 sugar fills the 7-ship, or 3 tobacco on the empty 5-ship.
    assert GAME.to_move(s) == B
    assert sorted(legal(s), key=str) == sorted([load("sugar", 2), load("tobacco", 0)], key=str)
    s = act(s, load("sugar", 2))
    assert ship_view(s)[2] == (7, "sugar", 7) and s.players[B].vp == 1
    assert goods_of(s, B) == {"sugar": 1, "tobacco": 3}

    # C: corn on the 6-ship or tobacco on the 5-ship; he ships 1 tobacco.
    assert GAME.to_move(s) == C
    assert sorted(legal(s), key=str) == sorted([load("corn", 1), load("tobacco", 0)], key=str)
    s = act(s, load("tobacco", 0))

    # The rest is forced: D 1 corn, A 2 corn, B 3 tobacco; then nobody can load,
    # C and D keep one barrel each, and the full 6- and 7-ships are unloaded.
    assert GAME.view(s, None)["phase"] == "role" and GAME.to_move(s) == B
    assert [p.vp for p in s.players] == [7 + 2, 1 + 3, 1, 1]
    assert s.vp_supply == vp_supply - 15
    assert ship_view(s) == [(5, "tobacco", 4), (6, None, 0), (7, None, 0)]
    assert goods_of(s, A) == {}
    assert goods_of(s, B) == {"sugar": 1}
    assert goods_of(s, C) == {"corn": 1}
    assert goods_of(s, D) == {"indigo": 1}


def test_example_mayor_four_players_six_colonists():
    """000_5b629d4347a4e22c.txt, "Voorbeeld voor 4 spelers": "1 → 1. Burgemeester, 2 → 2.
    de speler, 3 → 3. de speler, 4 → 4. de speler, 5 → 5. Burgemeester, 6 → 2. de speler
    (De burgemeester krijgt aldus 3 kolonisten, de tweede speler 2 en speler 3 en 4 ieder
    1)".  004_800c979a45a72a97.txt: "l'intendant prend 3 colons (1 de la réserve et 2 du
    navire), le second joueur 2 colons, les troisième et quatrième joueurs 1 colon chacun."

    Six colonists on the ship, mayor in seat 1: 3, 2, 1, 1 from the mayor on.
    """
    s = table(4, governor=1)
    s.colonist_ship, s.colonist_supply = 6, 60
    s, _ = choose(s, 1, "mayor")  # nobody has a circle: all wait in San Juan
    assert [s.players[(1 + i) % 4].san_juan for i in range(4)] == [3, 2, 1, 1]
    assert s.colonist_supply == 60 - 1 - 4


@pytest.mark.parametrize(
    "name, paid", [("construction_hut", 1), ("office", 3), ("harbor", 5), ("city_hall", 7)]
)
def test_example_three_occupied_quarries(name, paid):
    """000_5b629d4347a4e22c.txt: "(Een speler met drie bezette steengroeven moet dan
    bijvoorbeeld volgende bouwkosten betalen: Bouwhut: 1 / Magazijn: 3 / Haven: 5 /
    Raadhuis: 7)" ("Magazijn" is the office).  004_800c979a45a72a97.txt: "un joueur ayant
    trois carrières occupées paiera 1 doublon pour la baraque de chantier, 3 doublons pour le
    comptoir, 5 doublons pour le port et 7 doublons pour l'hôtel de ville."

    A player (not the builder) with three occupied quarries.
    """
    s = table(3, governor=0)
    setp(s, 0, doubloons=0)
    setp(s, 1, doubloons=paid, tiles={"quarry": 3}, worked={"quarry": 3})
    s, _ = choose(s, 0, "builder")
    s = act(s, PASS, seat=0)  # the builder could build a small market for 0
    assert GAME.to_move(s) == 1
    s = act(s, build(name))
    assert s.players[1].doubloons == 0 and name in s.players[1].buildings


def test_example_production():
    """000_5b629d4347a4e22c.txt, "Voorbeeld: De speler produceert de volgende goederen:
    ① 2 maal maïs (omdat de derde maïsplantage niet bezet is) ② 1 maal tabak (omdat alleen
    het eerste rondje in de tabaksfabriek bezet is) ③ 3 maal suiker (omdat de vierde
    suikerplantage niet bezet is)".  004_800c979a45a72a97.txt: "Les colons inutiles (comme,
    dans l'exemple ci-dessus, celui qui se trouve sur la seconde plantation de tabac ou
    celui qui se trouve sur le troisième cercle de la grande raffinerie de sucre) ne
    produisent rien."

    3 corn plantations (2 occupied); 2 occupied tobacco plantations, tobacco storage
    with 1 colonist; 4 sugar plantations (3 occupied), small sugar mill and sugar mill
    fully occupied: 2 corn, 1 tobacco, 3 sugar.
    """
    s = table(3, governor=0)
    setp(
        s,
        1,
        tiles={"corn": 3, "tobacco": 2, "sugar": 4},
        worked={"corn": 2, "tobacco": 2, "sugar": 3},
        buildings={"tobacco_storage": 1, "small_sugar_mill": 1, "sugar_mill": 3},
    )
    s, _ = choose(s, 0, "craftsman")
    assert goods_of(s, 1) == {"corn": 2, "sugar": 3, "tobacco": 1}


def test_example_factory():
    """000_5b629d4347a4e22c.txt: "Voorbeeld: De eigenaar van een fabriek beschikt over 3
    mais-, 3 suikerriet- en 1 tabakspantage en over de daarbij horende productiegebouwen. In
    de huidige opzichterfase produceert hij 2 goederensteentjes suiker en 1 tabak, omdat er
    helemaal geen mais en alleen nog 2 suiker in de voorraad liggen. Hij krijgt 1 dubloon van
    de bank omdat hij 2 goederensoorten geproduceerd heeft."
    """
    s = table(3, governor=0)
    setp(
        s,
        1,
        doubloons=0,
        tiles={"corn": 3, "sugar": 3, "tobacco": 1},
        worked={"corn": 3, "sugar": 3, "tobacco": 1},
        buildings={"factory": 1, "sugar_mill": 3, "tobacco_storage": 1},
    )
    set_supply(s, corn=0, sugar=2)
    s, _ = choose(s, 0, "craftsman")
    assert goods_of(s, 1) == {"sugar": 2, "tobacco": 1}
    assert s.players[1].doubloons == 1


def test_example_office():
    """000_5b629d4347a4e22c.txt (Magazijn = office): "Voorbeeld: In het handelshuis ligt al
    een tabakssteentje. De eigenaar van een magazijn komt aan de beurt en verkoopt nog een
    tabak. Ook de eigenaar van een ander magazijn komt aan de beurt en verkoopt tabak..."
    """
    s = table(3, governor=0)
    s.house = [TOBACCO]
    setp(s, 0, doubloons=0)
    setp(s, 1, doubloons=0, goods={"tobacco": 1}, buildings={"office": 1})
    setp(s, 2, doubloons=0, goods={"tobacco": 1}, buildings={"office": 1})
    s, _ = choose(s, 0, "trader")
    s = act(s, {"type": "sell", "kind": "tobacco"}, seat=1)
    s = act(s, {"type": "sell", "kind": "tobacco"}, seat=2)
    assert GAME.view(s, None)["trading_house"] == ["tobacco"] * 3
    assert [p.doubloons for p in s.players] == [0, 3, 3]


def test_example_small_market():
    """000_5b629d4347a4e22c.txt (Kleine markthal): "Voorbeeld: hij verkoopt een goederensteen
    mais en krijgt daarvoor 1 dubloen."
    """
    s = table(3, governor=0)
    setp(s, 0, doubloons=0)
    setp(s, 1, doubloons=0, goods={"corn": 1}, buildings={"small_market": 1})
    s, _ = choose(s, 0, "trader")
    s = act(s, {"type": "sell", "kind": "corn"}, seat=1)
    assert s.players[1].doubloons == 1


def test_example_prospector_with_two_doubloons():
    """000_5b629d4347a4e22c.txt: "(Zo krijgt een speler die bijvoorbeeld een goudzoeker met 2
    dubloenen kiest 3 dubloenen.)"
    """
    s = table(4, governor=0)
    setp(s, 0, doubloons=0)
    s.roles["prospector"] = 2
    s, _ = choose(s, 0, "prospector")
    assert s.players[0].doubloons == 3


def _harbor_wharf_table():
    s = table(4, governor=A)
    set_ships(s, (5, "tobacco", 2), (6, None, 0), (7, "corn", 1))
    setp(s, B, goods={"tobacco": 5, "sugar": 2}, buildings={"harbor": 1, "wharf": 1})
    return s


def test_example_harbor_and_wharf():
    """000_5b629d4347a4e22c.txt (Haven): "Voorbeeld: De eigenaar van de haven (en een werf)
    kan slechts 3 van zijn 5 tabakssteentjes op het tabaksschip laden, omdat het dan vol is.
    Hij krijgt 3 + 1 punten. In de volgende leveringsronde laadt hij 2 suikersteentjes op een
    ander schip: 2 + 1 punten. Een leveringsronde verder gebruikt hij zijn werf en legt beide
    overige tabakssteentjes terug in de voorraad: opnieuw 2 + 1 punten. Hij heeft zo in deze
    ene kapiteinsfase door de haven 3 extra punten gekregen."
    """
    s = _harbor_wharf_table()
    tobacco = supply(s, "tobacco")
    s, _ = choose(s, A, "captain")  # the captain has nothing to ship
    assert GAME.to_move(s) == B
    s = act(s, load("tobacco", 0))
    assert s.players[B].vp == 3 + 1 and ship_view(s)[0] == (5, "tobacco", 5)
    assert GAME.to_move(s) == B
    assert wharf("tobacco") in legal(s)
    s = act(s, load("sugar", 1))
    assert s.players[B].vp == 4 + 2 + 1
    assert GAME.to_move(s) == B and sorted(legal(s), key=str) == sorted(
        [wharf("tobacco"), PASS], key=str
    )
    s = act(s, wharf("tobacco"))
    assert s.players[B].vp == 7 + 2 + 1 == 3 + 2 + 2 + 3
    assert goods_of(s, B) == {}
    # the full tobacco ship is unloaded, the sugar ship keeps its cargo
    assert ship_view(s) == [(5, None, 0), (6, "sugar", 2), (7, "corn", 1)]
    assert supply(s, "tobacco") == tobacco + 2 + 5


def test_example_wharf_instead_of_the_tobacco_ship():
    """000_5b629d4347a4e22c.txt (Werf): "Voorbeeld: In het voorbeeld bij de haven had de
    speler zijn werf ook kunnen gebruiken om alle 5 tabakssteentjes in de voorraad terug te
    leggen. Hierdoor was het echte tabaksschip misschien aan het einde van de ronde niet vol
    geweest - en was het dus aan het einde van de ronde niet gelost."
    """
    s = _harbor_wharf_table()
    s, _ = choose(s, A, "captain")
    s = act(s, wharf("tobacco"))  # then the sugar on the 6-ship, played at once
    assert s.players[B].vp == (5 + 1) + (2 + 1)
    assert ship_view(s) == [(5, "tobacco", 2), (6, "sugar", 2), (7, "corn", 1)]


def test_example_guild_hall():
    """000_5b629d4347a4e22c.txt: "Voorbeeld: De eigenaar van de gildenhof heeft aan het einde
    van het spel de kleine en de grote suikermolen, de kleine indigokuiperij en de
    koffiebranderij in bezit: hij krijgt 6 extra punten."
    """
    s = table(3)
    setp(
        s,
        0,
        buildings={
            "guild_hall": 1,
            "small_sugar_mill": 0,
            "sugar_mill": 1,
            "small_indigo_plant": 0,
            "coffee_roaster": 2,
        },
    )
    out = game_over_now(s)
    assert ("Guild hall", 6) in out.scores[0].breakdown
    assert out.scores[0].total == (4 + 1 + 2 + 1 + 3) + 6


def test_example_residence():
    """000_5b629d4347a4e22c.txt: "Voorbeeld: De eigenaar van de residentie heeft aan het einde
    van het spel op 10 van zijn 12 eilandvelden een plantage of steengroeve liggen. Hij
    krijgt 5 punten extra."
    """
    s = table(3)
    setp(
        s,
        0,
        tiles={"corn": 3, "sugar": 4, "quarry": 3},
        worked={"corn": 1},
        buildings={"residence": 1},
    )
    out = game_over_now(s)
    assert ("Residence", 5) in out.scores[0].breakdown
    assert out.scores[0].total == 4 + 5


@pytest.mark.parametrize("tiles, bonus", [(0, 4), (9, 4), (10, 5), (11, 6), (12, 7)])
def test_example_residence_table(tiles, bonus):
    """000_5b629d4347a4e22c.txt: "Voor nul tot en met negen gevulde eilandvelden ontvangt hij
    4 punten; voor tien gevulde velden 5 punten; voor elf gevulde velden 6 punten en voor
    alle twaalf gevulde eilandvelden 7 punten."
    """
    s = table(3)
    setp(s, 0, tiles={"indigo": tiles}, buildings={"residence": 1})
    assert ("Residence", bonus) in game_over_now(s).scores[0].breakdown


def test_example_fortress():
    """000_5b629d4347a4e22c.txt: "Voorbeeld: De eigenaar van de vesting heeft op het einde van
    het spel in totaal 20 kolonisten op zijn plantages, steengroeven, gebouwen en in San Juan
    liggen. Hij krijgt 6 extra punten."
    """
    s = table(3)
    setp(
        s,
        0,
        tiles={"corn": 6, "quarry": 4},
        worked={"corn": 6, "quarry": 4},
        buildings={"fortress": 1, "sugar_mill": 3, "coffee_roaster": 2, "harbor": 1},
        san_juan=3,
    )
    assert s.players[0].colonists() == 20
    out = game_over_now(s)
    assert ("Fortress", 6) in out.scores[0].breakdown


def test_example_customs_house():
    """000_5b629d4347a4e22c.txt: "Voorbeeld: De eigenaar van het tolhuis heeft op het einde van
    het spel 23 punten in de vorm van 1- en 5-puntsfiches: hij krijgt 5 punten extra."
    """
    s = table(3)
    setp(s, 0, vp=23, buildings={"customs_house": 1})
    out = game_over_now(s)
    assert ("Customs house", 5) in out.scores[0].breakdown
    assert out.scores[0].total == 23 + 4 + 5


def test_example_city_hall():
    """000_5b629d4347a4e22c.txt: "Voorbeeld: Een speler bezit op het einde van het spel de
    volgende paarse gebouwen: hacienda; bouwhut; magazijn; groot pakhuis; haven; residentie
    en stadhuis (bezet). Hij krijgt 7 punten extra."
    """
    s = table(3)
    setp(
        s,
        0,
        buildings={
            "hacienda": 0,
            "construction_hut": 0,
            "office": 0,
            "large_warehouse": 0,
            "harbor": 0,
            "residence": 0,
            "city_hall": 1,
            "indigo_plant": 3,
        },
    )
    out = game_over_now(s)
    assert ("City hall", 7) in out.scores[0].breakdown
    assert ("Residence", 0) in out.scores[0].breakdown  # not occupied: no bonus
    assert out.scores[0].total == (1 + 1 + 2 + 2 + 3 + 4 + 4 + 2) + 7
