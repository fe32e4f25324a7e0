"""The Puerto Rico rulebook, one test per rule case (in the manner of the DATC).

Every test quotes the rule it checks, with the file it comes from in
/work/shared/rules/, and says it in English:

    000_5b629d4347a4e22c.txt  Dutch rulebook, with the 2-player variant (the main spec)
    004_800c979a45a72a97.txt  French rulebook of the same game
    003_d47d98a651436bc3.txt  English manual of an online server (component table)

Positions are built with tests/engine/puerto_rico/pr_positions.py: a new game whose fields
are set directly, then driven through the public interface only.  Seat i + 1
sits to the left of seat i (clockwise).  Remember that the engine plays a
decision at once when it has a single legal action, and skips seats that have
nothing to decide.
"""

from __future__ import annotations

import random

import pytest

from engine import IllegalMove
from engine.puerto_rico.data import BUILDINGS, COFFEE, CORN, INDIGO, SUGAR, TOBACCO
from tests.engine.puerto_rico.pr_positions import (
    AUTO,
    GAME,
    HACIENDA,
    PASS,
    QUARRY,
    act,
    bonus,
    build,
    choose,
    game_over_now,
    goods_of,
    legal,
    load,
    place,
    plantation,
    role,
    sell,
    set_ships,
    set_supply,
    setp,
    ship_view,
    store,
    supply,
    table,
    wharf,
)


def turn_outcomes(s, seat: int, depth: int = 3) -> list:
    """Every state in which ``seat``'s turn can end, whatever actions (and
    follow-up questions) the engine offers for it: a way to ask "can the player
    end up with X?" without assuming how the choice is put to him."""
    out = []
    for a in GAME.legal_actions(s, seat):
        new, _ = GAME.apply(s, seat, a)
        if depth > 1 and GAME.to_move(new) == seat and new.phase == s.phase:
            out += turn_outcomes(new, seat, depth - 1)
        else:
            out.append(new)
    return out


# =============================================================================
# Setup ("VOORBEREIDING VAN HET SPEL", "VARIANT VOOR 2 SPELERS")
# =============================================================================


@pytest.mark.parametrize("n, coins", [(2, 3), (3, 2), (4, 3), (5, 4)])
def test_setup_starting_doubloons(n, coins):
    """000_5b629d4347a4e22c.txt: "geld: 3 spelers: 2 dubloenen - 4 spelers: 3 dubloenen
    - 5 spelers: 4 dubloenen"; 2 players: "Per speler 1 spelbord + 3 dubloenen".

    Each player starts with 2 (3 players), 3 (4), 4 (5) or 3 (2 players) doubloons.
    """
    s = GAME.new_game(n, {}, 11)
    assert [p["doubloons"] for p in GAME.view(s, None)["players"]] == [coins] * n


@pytest.mark.parametrize(
    "n, kinds",
    [
        (2, ["indigo", "corn"]),
        (3, ["indigo", "indigo", "corn"]),
        (4, ["indigo", "indigo", "corn", "corn"]),
        (5, ["indigo", "indigo", "indigo", "corn", "corn"]),
    ],
)
def test_setup_starting_plantation_by_seat_from_the_governor(n, kinds):
    """000_5b629d4347a4e22c.txt: "De startspeler krijgt de gouverneurskaart en een blauw
    indigokaartje ... bij 3 spelers: 2e speler: 1 x indigo en 3e speler 1 x maïs; bij 4
    spelers: 2e speler: 1 x indigo en 3e en 4e speler elk 1 x maïs; bij 5 spelers: 2e en 3e
    speler elk 1 x indigo en 4e en 5e speler elk 1 x maïs"; 2 players: "1 indigoplantage
    (voor de gouverneur) respectievelijk 1 maïsplantage (voor de tweede speler)".

    The starting plantations are dealt clockwise from the first governor, whoever
    the lot chose ("het lot bepaalt de startspeler"), one tile per player.
    """
    governors = set()
    for seed in range(12):
        v = GAME.view(GAME.new_game(n, {}, seed), None)
        g = v["governor"]
        governors.add(g)
        for i, kind in enumerate(kinds):
            tiles = v["players"][(g + i) % n]["tiles"]
            assert {k: c for k, c in tiles.items() if c} == {kind: 1}, (seed, i)
            assert not any(v["players"][(g + i) % n]["worked"].values())
    assert len(governors) > 1, "the first governor is chosen by lot"


@pytest.mark.parametrize("n, chips", [(2, 65), (3, 75), (4, 100), (5, 122)])
def test_setup_victory_point_chips(n, chips):
    """000_5b629d4347a4e22c.txt: "de puntenfiches: bij 3 spelers: 75 punten - bij 4
    spelers: 100 punten - bij 5 spelers: alle 122 punten"; 2 players: "Aantal punten 65".

    The victory-point chips in play: 75, 100, 122 points; 65 for two players.
    """
    s = GAME.new_game(n, {}, 3)
    assert GAME.view(s, None)["vp_supply"] == chips
    assert all(p.vp == 0 for p in s.players)


@pytest.mark.parametrize("n, colonists", [(2, 40), (3, 55), (4, 75), (5, 95)])
def test_setup_colonists_in_supply_and_on_the_ship(n, colonists):
    """000_5b629d4347a4e22c.txt: "het kolonistschip met 3, 4 of 5 kolonisten erop (evenveel
    als er spelers zijn)"; "de bruine kolonisten (als voorraad): bij 3 spelers: 55
    steentjes, bij 4 spelers: 75, bij 5 spelers: 95"; 2 players: "40 (in voorraad) 2 op het
    kolonistenschap".

    The supply holds 40/55/75/95 colonists and the colonist ship one per player.
    """
    v = GAME.view(GAME.new_game(n, {}, 3), None)
    assert (v["colonist_supply"], v["colonist_ship"]) == (colonists, n)
    assert all(p["san_juan"] == 0 for p in v["players"])


@pytest.mark.parametrize("n, ships", [(2, [4, 6]), (3, [4, 5, 6]), (4, [5, 6, 7]), (5, [6, 7, 8])])
def test_setup_cargo_ships(n, ships):
    """000_5b629d4347a4e22c.txt: "drie schepen: bij 3 spelers: de schepen met 4, 5 en 6
    laadruimtes; bij 4 spelers: 5, 6 en 7; bij 5 spelers: 6, 7 en 8"; 2 players: "2 schepen:
    het 4-schip en het 6-schip".

    The cargo ships in play, all empty at the start.
    """
    v = GAME.view(GAME.new_game(n, {}, 3), None)
    assert [sh["capacity"] for sh in v["ships"]] == ships
    assert all(sh["kind"] is None and sh["count"] == 0 for sh in v["ships"])


@pytest.mark.parametrize("n, count, prospectors", [(2, 7, 1), (3, 6, 0), (4, 7, 1), (5, 8, 2)])
def test_setup_role_cards(n, count, prospectors):
    """000_5b629d4347a4e22c.txt: "de rollenkaarten: bij 3 spelers: alle kaarten behalve de 2
    goudzoekers (= 6 kaarten); bij 4 spelers: alle kaarten behalve één goudzoeker (= 7
    kaarten); bij 5 spelers: alle 8 rollenkaarten"; 2 players: "7 rollen (allemaal behalve
    1 goudzoeker)".

    The six roles are always on offer, plus 0/1/2 prospectors for 3/4/5 players and
    one prospector for 2; none carries a doubloon at the start.
    """
    s = GAME.new_game(n, {}, 3)
    offered = [a["role"] for a in GAME.legal_actions(s, GAME.to_move(s))]
    assert len(offered) == count
    assert {"settler", "mayor", "builder", "craftsman", "trader", "captain"} <= set(offered)
    assert sum(r.startswith("prospector") for r in offered) == prospectors
    assert set(GAME.view(s, None)["roles"].values()) == {0}


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_setup_face_up_plantations_one_more_than_players(n):
    """000_5b629d4347a4e22c.txt: "4, 5 of 6 plantagekaartjes (één meer dan aantal spelers)
    worden van de dichte stapels genomen en open naast de steengroevenkaartjes gelegd";
    2 players: "3 plantages opendraaien".

    Players + 1 plantations (never quarries) lie face up; the rest are face down.
    """
    v = GAME.view(GAME.new_game(n, {}, 5), None)
    assert len(v["face_up"]) == n + 1
    assert "quarry" not in v["face_up"]
    assert v["discard"] == []


@pytest.mark.parametrize("n, quarries", [(2, 5), (3, 8), (4, 8), (5, 8)])
def test_setup_quarries(n, quarries):
    """000_5b629d4347a4e22c.txt: "alle 8 steengroevenkaartjes (open)"; 2 players:
    "Steengroeven: 3 steengroeven uit het spel verwijderen".

    All 8 quarries are in play; 5 with two players.
    """
    assert GAME.view(GAME.new_game(n, {}, 5), None)["quarries"] == quarries


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_setup_plantation_tiles(n):
    """000_5b629d4347a4e22c.txt: "58 eilandkaartjes: 8 steengroeve- en 50 plantagekaartjes;
    8 x koffie; 9 x tabak; 10 x maïs; 11 x suiker en 12 x indigo"; "alle resterende
    plantagekaartjes (goed geschud met beeldzijde naar beneden)"; 2 players: "Plantages: 3
    per soort uit het spel verwijderen (in de doos leggen)".

    Every plantation is on a board, face up or in the face-down stack; with two
    players 3 of each kind go back into the box.
    """
    s = GAME.new_game(n, {}, 5)
    removed = 3 if n == 2 else 0
    full = {CORN: 10, INDIGO: 12, SUGAR: 11, TOBACCO: 9, COFFEE: 8}
    for kind, total in full.items():
        on_boards = sum(p.tiles[kind] for p in s.players)
        assert s.stack.count(kind) + s.face_up.count(kind) + on_boards == total - removed


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_setup_goods(n):
    """000_5b629d4347a4e22c.txt: "50 goederenstenen (9 x koffie en 9 x tabak; 10 x maïs; 11
    x suiker en 11 x indigo)"; 2 players: "Goederenstenen: 2 per soort uit het spel
    verwijderen".

    The goods supply: 10 corn, 11 indigo, 11 sugar, 9 tobacco, 9 coffee; two of
    each fewer with two players.
    """
    removed = 2 if n == 2 else 0
    v = GAME.view(GAME.new_game(n, {}, 5), None)
    assert v["goods_supply"] == {
        "corn": 10 - removed,
        "indigo": 11 - removed,
        "sugar": 11 - removed,
        "tobacco": 9 - removed,
        "coffee": 9 - removed,
    }
    assert v["trading_house"] == []


@pytest.mark.parametrize("n", [3, 4, 5])
def test_setup_buildings_three_to_five_players(n):
    """003_d47d98a651436bc3.txt: "Buildings: 4x small Indigo plant and small Sugar mill,3x
    Large Indigo plant, Large sugar mill, tobacco storage and coffee roaster, 1 each
    CityHall, Customs House, Fortress, Residence, GuildHall. All other buildings have 2 of
    each."  000_5b629d4347a4e22c.txt: "De 12 kleinere gebouwen komen elk 2 keer voor. De
    grote slechts eenmaal."

    The building supply for 3-5 players.
    """
    left = GAME.view(GAME.new_game(n, {}, 5), None)["buildings_left"]
    want = {
        name: (
            1
            if b.large
            else 4
            if name in ("small_indigo_plant", "small_sugar_mill")
            else 3
            if b.produces is not None
            else 2
        )
        for name, b in BUILDINGS.items()
    }
    assert left == want
    assert sum(c for name, c in left.items() if BUILDINGS[name].produces is not None) == 20


def test_setup_buildings_two_players():
    """000_5b629d4347a4e22c.txt (2-player variant): "Gebouwen: productiegebouwen: 2 per
    soort; paarse gebouwen: 1 per soort".

    With two players there are 2 of each production building and 1 of each violet
    building.  (The sentence that follows in the rulebook, "in totaal 16
    productiegebouwen", does not match "2 per soort" for six production buildings,
    which gives 12; the test follows "2 per soort".)
    """
    left = GAME.view(GAME.new_game(2, {}, 5), None)["buildings_left"]
    want = {name: (2 if b.produces is not None else 1) for name, b in BUILDINGS.items()}
    assert left == want


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_setup_bank(n):
    """000_5b629d4347a4e22c.txt: "54 dubloenen: 46 x 1 en 8 x 5"; "De dubloenen worden naar
    soort gestapeld op de daartoe bestemde plaats (= bank)".

    The bank holds the 86 doubloons less what the players were given.
    """
    v = GAME.view(GAME.new_game(n, {}, 5), None)
    assert v["bank"] + sum(p["doubloons"] for p in v["players"]) == 46 + 8 * 5


# =============================================================================
# Choosing roles, the end of a round ("SPELVERLOOP", "DE ROLLEN", "Een nieuwe ronde")
# =============================================================================


def _quiet_table(n: int, governor: int):
    """Nobody owns anything: craftsman, trader, captain, mayor and prospector
    need no decision from anybody, so only role choices are asked."""
    s = table(n, governor)
    for seat in range(n):
        setp(s, seat, doubloons=0)
    return s


QUIET_ROLES = ("craftsman", "trader", "captain", "mayor", "prospector", "prospector2")


def test_the_governor_chooses_the_first_role():
    """000_5b629d4347a4e22c.txt: "de speler met de gouverneurkaart begint. Hij neemt één van
    de rollenkaarten".

    The governor is the first to move in a round, and chooses a role.
    """
    for seed in range(6):
        s = GAME.new_game(4, {}, seed)
        assert GAME.to_move(s) == GAME.view(s, None)["governor"]
        assert {a["type"] for a in legal(s)} == {"role"}


def test_roles_are_chosen_clockwise_from_the_governor():
    """000_5b629d4347a4e22c.txt: "Nu komt de linkerbuurman van de gouverneur aan beurt: hij
    neemt één van de overgebleven rollen ... Hebben alle spelers een rol gekozen en de
    daaraan verbonden actie uitgevoerd, eindigt een ronde."

    Each player chooses one role per round, clockwise from the governor.
    """
    s = _quiet_table(4, governor=2)
    order = []
    for r in ("craftsman", "trader", "captain", "mayor"):
        order.append(GAME.to_move(s))
        s = act(s, role(r))
    assert order == [2, 3, 0, 1]
    assert GAME.view(s, None)["round"] == 2


def test_a_chosen_role_cannot_be_chosen_again_in_the_round():
    """000_5b629d4347a4e22c.txt: "Een rollenkaart blijft tot het einde van de ronde voor de
    betrokken speler liggen. Ze kan in die periode niet door een andere speler gekozen
    worden."

    A role taken this round is no longer on offer.
    """
    s = act(_quiet_table(4, governor=0), role("trader"))
    assert role("trader") not in legal(s)
    with pytest.raises(IllegalMove):
        GAME.apply(s, 1, role("trader"))


def test_a_player_may_not_refuse_to_choose_a_role():
    """000_5b629d4347a4e22c.txt: "Een speler mag niet weigeren een rol te kiezen, wanneer hij
    aan de beurt komt. Hij mag echter wel een rol kiezen, die hij vervolgens helemaal niet
    kan of wil gebruiken."

    There is no pass when choosing a role, and a role nobody can use may be chosen.
    """
    s = _quiet_table(3, governor=1)
    assert PASS not in legal(s) and {a["type"] for a in legal(s)} == {"role"}
    with pytest.raises(IllegalMove):
        GAME.apply(s, 1, PASS)
    s = act(s, role("captain"))  # nobody has goods: allowed all the same
    assert GAME.to_move(s) == 2 and GAME.view(s, None)["phase"] == "role"


def test_a_doubloon_is_put_on_each_role_nobody_chose():
    """000_5b629d4347a4e22c.txt: "Nu wordt uit de bank op de drie niet-gekozen rollen elk
    één dubloon gelegd. Daarbij speelt het geen rol of er al dubloenen op die kaart liggen
    of niet."

    At the end of the round each of the three roles nobody took gets one doubloon
    from the bank, on top of any already there; the taken roles come back empty.
    """
    s = _quiet_table(4, governor=0)
    s.roles["builder"] = 2
    bank = s.bank
    for r in ("craftsman", "trader", "captain", "mayor"):
        s = act(s, role(r))
    v = GAME.view(s, None)
    assert v["roles"] == {
        "settler": 1,
        "mayor": 0,
        "builder": 3,
        "craftsman": 0,
        "trader": 0,
        "captain": 0,
        "prospector": 1,
    }
    assert v["bank"] == bank - 3


def test_the_doubloons_on_a_role_go_to_whoever_takes_it():
    """000_5b629d4347a4e22c.txt: "Liggen er één of meerdere dubloenen op een rollenkaart, dan
    ontvangt de speler die deze kaart genomen heeft die dubloenen in elk geval."

    The coins on a role are paid to the chooser, even if the role is of no use to him.
    """
    s = _quiet_table(3, governor=0)
    s.roles["trader"] = 2
    s = act(s, role("trader"))
    assert s.players[0].doubloons == 2
    assert GAME.view(s, None)["roles"].get("trader") is None


def test_the_prospector_takes_one_doubloon_and_nobody_acts():
    """000_5b629d4347a4e22c.txt: "Kiest een speler de rol van goudzoeker, dan is daaraan geen
    speciale actie verbonden. Hij ontvangt als privilege 1 dubloon uit de bank."

    The prospector: one doubloon from the bank, no action for anyone; the next
    player chooses a role.
    """
    s = _quiet_table(4, governor=1)
    bank = s.bank
    s = act(s, role("prospector"))
    assert [p.doubloons for p in s.players] == [0, 1, 0, 0]
    assert s.bank == bank - 1
    assert GAME.to_move(s) == 2 and GAME.view(s, None)["phase"] == "role"


def test_the_governor_card_passes_to_the_left_at_the_end_of_the_round():
    """000_5b629d4347a4e22c.txt: "De gouverneurkaart gaat naar de linkerbuurman van de
    huidige gouverneur. De nieuwe gouverneur begint met een nieuwe ronde door een rol te
    kiezen".

    After the round the next player clockwise is governor and chooses first; all
    roles are on offer again.
    """
    s = _quiet_table(3, governor=2)
    for r in ("craftsman", "trader", "captain"):
        s = act(s, role(r))
    v = GAME.view(s, None)
    assert (v["governor"], GAME.to_move(s), v["round"]) == (0, 0, 2)
    assert len(legal(s)) == 6


def test_two_players_alternate_until_each_has_chosen_three_roles():
    """000_5b629d4347a4e22c.txt (2-player variant): "De gouverneur begint en kiest een rol.
    Het kiezen van de rollen en het uitvoeren van de acties die voortkomen uit de rollen gaat
    nu om beurten door, totdat de beide spelers ieder drie rollen hebben gekozen. Op de
    overgebleven rol wordt 1 dubloon gelegd. De tweede speler wordt nu gouverneur en mag een
    rol kiezen (uit de 7 rollen)".

    Two players: governor, other, governor, other, governor, other; the one role
    left gets a doubloon; the other player becomes governor with all 7 roles.
    """
    s = _quiet_table(2, governor=1)
    s.face_up, s.quarries = [], 0  # the settler offers nothing either
    order = []
    for r in ("craftsman", "trader", "captain", "mayor", "prospector", "settler"):
        order.append(GAME.to_move(s))
        s = act(s, role(r))
    assert order == [1, 0, 1, 0, 1, 0]
    v = GAME.view(s, None)
    assert v["roles"] == {
        "settler": 0,
        "mayor": 0,
        "builder": 1,
        "craftsman": 0,
        "trader": 0,
        "captain": 0,
        "prospector": 0,
    }
    assert (v["governor"], GAME.to_move(s), v["round"]) == (0, 0, 2)
    assert len(legal(s)) == 7


def test_the_role_action_starts_with_the_chooser_and_goes_clockwise():
    """000_5b629d4347a4e22c.txt: "Met het uitvoeren van de actie begint steeds de speler die
    de rollenkaart heeft genomen en worden de acties verder door elke speler met de klok mee
    uitgevoerd." and "Beginnend bij hem (en niet bij de gouverneur!)".

    The second player's role is carried out first by him, then clockwise.
    """
    s = table(3, governor=0)
    s.face_up = [CORN, INDIGO, SUGAR, COFFEE]
    s, _ = choose(s, 1, "settler")
    seen = []
    for kind in ("coffee", "sugar", "indigo"):
        seen.append(GAME.to_move(s))
        s = act(s, plantation(kind))
    assert seen == [1, 2, 0]
    assert [p.tiles[:5] for p in s.players] == [[0, 1, 0, 0, 0], [0, 0, 0, 0, 1], [0, 0, 1, 0, 0]]


# =============================================================================
# Settler ("DE LANDBOUWER")
# =============================================================================


def _settler_table(n: int = 3):
    s = table(n, governor=0)
    s.face_up = [CORN, INDIGO, SUGAR, COFFEE][: n + 1]
    s.stack = [TOBACCO, TOBACCO, SUGAR, CORN, INDIGO, COFFEE]  # drawn from the end
    s.discard = []
    return s


def test_settler_privilege_a_quarry_instead_of_a_plantation():
    """000_5b629d4347a4e22c.txt: "Wie deze rol kiest, neemt aansluitend ófwel een
    steengroevenkaartje (als zijn privilege), óf één van de openliggende plantagekaartjes".

    The settler may take a quarry.
    """
    s, _ = choose(_settler_table(), 0, "settler")
    assert QUARRY in legal(s)
    s = act(s, QUARRY)
    assert s.players[0].tiles == [0, 0, 0, 0, 0, 1]
    assert GAME.view(s, None)["quarries"] == 7


def test_settler_the_other_players_may_not_take_a_quarry():
    """000_5b629d4347a4e22c.txt: "Aansluitend pakken alle spelers met de klok mee één van
    resterende open plantagekaartjes (géén steengroevenkaartje, uitzondering: bouwhut)".

    Only plantations for the players after the settler.
    """
    s, _ = choose(_settler_table(), 0, "settler")
    s = act(s, plantation("corn"))
    assert GAME.to_move(s) == 1
    assert QUARRY not in legal(s)
    with pytest.raises(IllegalMove):
        GAME.apply(s, 1, QUARRY)


def test_settler_an_occupied_construction_hut_allows_a_quarry():
    """000_5b629d4347a4e22c.txt: "Komt de eigenaar van een bouwhut tijdens de landbouwfase aan
    de beurt, dan kan hij in plaats van één van de openliggende plantagekaartjes, ook een
    steengroevenkaartje pakken."

    A player with an occupied construction hut may take a quarry.
    """
    s = _settler_table()
    setp(s, 1, buildings={"construction_hut": 1})
    s, _ = choose(s, 0, "settler")
    s = act(s, plantation("corn"))
    assert QUARRY in legal(s)
    s = act(s, QUARRY)
    assert s.players[1].tiles[5] == 1


def test_settler_an_unoccupied_construction_hut_does_nothing():
    """000_5b629d4347a4e22c.txt: "Alleen bezette kaartjes vervullen hun functie, onbezette
    kaartjes werken nooit!"

    Without a colonist on it the construction hut gives no quarry.
    """
    s = _settler_table()
    setp(s, 1, buildings={"construction_hut": 0})
    s, _ = choose(s, 0, "settler")
    s = act(s, plantation("corn"))
    assert QUARRY not in legal(s)


def test_settler_with_a_construction_hut_still_takes_one_quarry_only():
    """000_5b629d4347a4e22c.txt: "Aanwijzing: Bezit de kolonist een bouwhut, dan mag hij toch
    slechts één steengroevenkaartje pakken."

    The settler who owns a construction hut takes a single tile all the same.
    """
    s = _settler_table()
    setp(s, 0, buildings={"construction_hut": 1})
    s, _ = choose(s, 0, "settler")
    s = act(s, QUARRY)
    assert s.players[0].tiles == [0, 0, 0, 0, 0, 1]
    assert GAME.to_move(s) == 1


def test_settler_no_quarry_when_none_are_left():
    """000_5b629d4347a4e22c.txt: "Liggen er geen steengroeven meer in voorraad, dan kan de
    kolonist zijn privilege en de eigenaar van de bouwhut zijn eigenschap niet meer
    benutten."

    With no quarries left neither the settler nor a construction hut gets one.
    """
    s = _settler_table()
    s.quarries = 0
    setp(s, 1, buildings={"construction_hut": 1})
    s, _ = choose(s, 0, "settler")
    assert QUARRY not in legal(s)
    s = act(s, plantation("corn"))
    assert QUARRY not in legal(s)


def test_settler_each_player_takes_at_most_one_plantation_clockwise():
    """000_5b629d4347a4e22c.txt: "Aansluitend pakken alle spelers met de klok mee één van
    resterende open plantagekaartjes ... en plaatsen deze op hun eiland."

    Each player takes one of the remaining face-up plantations, in turn.
    """
    s, _ = choose(_settler_table(), 0, "settler")
    s = act(s, plantation("coffee"))
    assert plantation("coffee") not in legal(s)  # taken: no longer face up
    s = act(s, plantation("corn"))
    assert GAME.to_move(s) == 2
    s = act(s, plantation("sugar"))
    assert [p.tiles[:5] for p in s.players] == [[0, 0, 0, 0, 1], [1, 0, 0, 0, 0], [0, 0, 1, 0, 0]]
    assert GAME.view(s, None)["phase"] == "role"


def test_settler_taking_a_plantation_is_optional():
    """000_5b629d4347a4e22c.txt: "Een speler mag kiezen of hij de aan de rol gekoppelde actie
    al dan niet wil uitvoeren (uitzondering: kapitein)."

    A player may take no plantation.
    """
    s, _ = choose(_settler_table(), 0, "settler")
    assert PASS in legal(s)
    s = act(s, PASS)
    assert s.players[0].island_tiles() == 0 and GAME.to_move(s) == 1


def test_settler_a_full_island_takes_no_tile():
    """000_5b629d4347a4e22c.txt: "Zijn alle 12 eilandvelden van een speler vol, dan kan deze
    in de kolonistenfase géén kaartje meer nemen."

    A player whose 12 island spaces are filled is passed over.
    """
    s = _settler_table()
    setp(s, 1, tiles={"corn": 6, "quarry": 6})
    s, _ = choose(s, 0, "settler")
    s = act(s, plantation("corn"))
    assert GAME.to_move(s) == 2
    assert GAME.legal_actions(s, 1) == []


def test_settler_hacienda_draws_an_extra_face_down_tile_first():
    """000_5b629d4347a4e22c.txt: "Komt de eigenaar van een haciënda tijdens de landbouwfase
    aan de beurt, kan hij vóór hij één van de openliggende plantagekaartjes neemt, een extra
    kaartje van de dichte stapel nemen en op één van zijn vrije eilandvelden leggen."

    With an occupied hacienda the player first takes the top face-down tile, then
    one face-up plantation as usual.
    """
    s = _settler_table()
    setp(s, 1, buildings={"hacienda": 1})
    s, _ = choose(s, 0, "settler")
    s = act(s, plantation("corn"))
    assert HACIENDA in legal(s)
    stack = len(s.stack)
    s = act(s, HACIENDA)
    assert GAME.to_move(s) == 1  # still his turn
    assert HACIENDA not in legal(s)  # once only
    assert len(s.stack) == stack - 1
    assert s.players[1].tiles[:5] == [0, 0, 0, 0, 1]  # the top tile: coffee
    s = act(s, plantation("sugar"))
    assert s.players[1].tiles[:5] == [0, 0, 1, 0, 1]
    assert GAME.to_move(s) == 2


def test_settler_hacienda_is_not_offered_after_taking_a_face_up_tile():
    """000_5b629d4347a4e22c.txt: "kan hij vóór hij één van de openliggende plantagekaartjes
    neemt, een extra kaartje van de dichte stapel nemen".

    The hacienda draw comes before the face-up tile: once a face-up plantation is
    taken, the turn is over.
    """
    s = _settler_table()
    setp(s, 0, buildings={"hacienda": 1})
    s, _ = choose(s, 0, "settler")
    s = act(s, plantation("indigo"))
    assert GAME.to_move(s) == 1
    assert s.players[0].island_tiles() == 1


def test_settler_hacienda_draws_from_the_reshuffled_discard_pile():
    """000_5b629d4347a4e22c.txt: "Heeft de landbouwer onvoldoende kaartjes in de dichte
    stapel, dan schudt hij de aflegstapel en wordt deze als nieuwe dichte stapel gebruikt."

    With the face-down stack empty the hacienda draws from the shuffled discard pile;
    with no tile anywhere it is not offered.
    """
    s = _settler_table()
    s.stack, s.discard = [], [TOBACCO]
    setp(s, 0, buildings={"hacienda": 1})
    s, _ = choose(s, 0, "settler")
    s = act(s, HACIENDA)
    assert s.players[0].tiles[TOBACCO] == 1
    s = _settler_table()
    s.stack, s.discard = [], []
    setp(s, 0, buildings={"hacienda": 1})
    s, _ = choose(s, 0, "settler")
    assert HACIENDA not in legal(s)


def test_settler_hacienda_tile_on_the_last_free_space_ends_the_turn():
    """000_5b629d4347a4e22c.txt: "een extra kaartje van de dichte stapel nemen en op één van
    zijn vrije eilandvelden leggen" and "Zijn alle 12 eilandvelden van een speler vol, dan
    kan deze ... géén kaartje meer nemen."

    Eleven tiles: the hacienda fills the twelfth space and no face-up tile follows.
    """
    s = _settler_table()
    setp(s, 0, tiles={"corn": 11}, buildings={"hacienda": 1})
    s, _ = choose(s, 0, "settler")
    s = act(s, HACIENDA)
    assert s.players[0].island_tiles() == 12
    assert GAME.to_move(s) == 1


def test_settler_the_hacienda_tile_gets_no_hospice_colonist():
    """000_5b629d4347a4e22c.txt (Hospitium): "Aanwijzingen: Pakt de speler als eigenaar van
    een haciënda ook een dicht kaartje, dan krijgt hij daarvoor géén kolonist."

    Hacienda and hospice: the face-down tile stays empty, the face-up one is
    occupied.
    """
    s = _settler_table()
    setp(s, 0, buildings={"hacienda": 1, "hospice": 1})
    s, _ = choose(s, 0, "settler")
    s = act(s, HACIENDA)
    s = act(s, plantation("indigo"))
    p = s.players[0]
    assert p.tiles[:5] == [0, 1, 0, 0, 1]
    assert p.worked[:5] == [0, 1, 0, 0, 0]


def test_settler_hospice_puts_a_colonist_from_the_supply_on_the_new_tile():
    """000_5b629d4347a4e22c.txt: "Pakt de eigenaar van een hospitium tijdens de landbouwfase
    een eilandkaartje (plantage of steengroeve) dan mag hij direct een kolonist uit de
    algemene voorraad pakken en die op dit kaartje plaatsen."

    The new tile, plantation or quarry, is occupied by a colonist from the supply.
    """
    s = _settler_table()
    setp(s, 0, buildings={"hospice": 1})
    setp(s, 1, buildings={"hospice": 1})
    supply_before, ship = s.colonist_supply, s.colonist_ship
    s, _ = choose(s, 0, "settler")
    s = act(s, QUARRY)
    s = act(s, plantation("sugar"))
    assert s.players[0].worked[5] == 1
    assert s.players[1].worked[SUGAR] == 1
    assert (s.colonist_supply, s.colonist_ship) == (supply_before - 2, ship)


def test_settler_hospice_takes_from_the_ship_when_the_supply_is_empty():
    """000_5b629d4347a4e22c.txt: "Ligt er géén kolonistensteentje meer in de algemene
    voorraad (tegen het einde van het spel is dat mogelijk) dan mag hij er één van het
    kolonistenschip pakken. Zijn er daar ook geen kolonisten meer, dan krijgt hij niets."

    Supply empty: the colonist comes from the ship; both empty: none.
    """
    s = _settler_table()
    setp(s, 0, buildings={"hospice": 1})
    setp(s, 1, buildings={"hospice": 1})
    s.colonist_supply, s.colonist_ship = 0, 1
    s, _ = choose(s, 0, "settler")
    s = act(s, plantation("corn"))
    assert s.players[0].worked[CORN] == 1
    assert (s.colonist_supply, s.colonist_ship) == (0, 0)
    s = act(s, plantation("sugar"))
    assert s.players[1].tiles[SUGAR] == 1 and s.players[1].worked[SUGAR] == 0


def test_settler_the_hospice_colonist_is_optional():
    """000_5b629d4347a4e22c.txt (Hospitium): "Pakt de eigenaar van een hospitium tijdens de
    landbouwfase een eilandkaartje (plantage of steengroeve) dan mag hij direct een kolonist
    uit de algemene voorraad pakken" and (De paarse gebouwen) "Een speler is echter niet
    verplicht zijn paarse gebouwen te gebruiken, wanneer hij dat niet wil".
    004_800c979a45a72a97.txt: "il peut prendre un colon de la réserve" and "Un joueur n'est
    jamais obligé d'utiliser ses bâtiments occupés."

    The hospice owner may take the corn tile with a colonist, or without one (say,
    to keep the last colonists of the supply and the game going).
    """
    s = _settler_table()
    setp(s, 1, buildings={"hospice": 1})
    s, _ = choose(s, 0, "settler")
    s = act(s, plantation("sugar"))
    ends = [n for n in turn_outcomes(s, 1) if n.players[1].tiles[CORN] == 1]
    assert {n.players[1].worked[CORN] for n in ends} == {0, 1}


def test_settler_the_face_up_row_is_discarded_and_refilled_to_players_plus_one():
    """000_5b629d4347a4e22c.txt: "Hierna legt de landbouwer de niet-gekozen plantagekaartjes
    op een open aflegstapel en neemt zoveel plantagekaartjes van de dichte stapel dat hij er
    één meer openlegt dan er spelers zijn."

    After the phase the untaken plantations go to the discard pile and players + 1
    new ones are turned up.
    """
    s, _ = choose(_settler_table(), 0, "settler")
    s = act(s, plantation("corn"))
    s = act(s, PASS)
    s = act(s, plantation("sugar"))
    v = GAME.view(s, None)
    assert sorted(v["discard"]) == ["coffee", "indigo"]
    assert sorted(v["face_up"]) == ["coffee", "corn", "indigo", "sugar"]  # the top four
    assert v["stack_size"] == 2


def test_settler_the_discard_pile_is_shuffled_when_the_stack_runs_out():
    """000_5b629d4347a4e22c.txt: "Heeft de landbouwer onvoldoende kaartjes in de dichte
    stapel, dan schudt hij de aflegstapel en wordt deze als nieuwe dichte stapel gebruikt."
    004_800c979a45a72a97.txt: "on commence par placer les jetons restant, puis on mélange
    les jetons défaussés".

    The last face-down tiles are turned up first, then the shuffled discard pile
    (with the tiles just discarded) becomes the new stack.
    """
    s = _settler_table()
    s.stack = [TOBACCO, TOBACCO]
    s.discard = [CORN, CORN, CORN, INDIGO, INDIGO]
    s, _ = choose(s, 0, "settler")
    s = act(s, plantation("coffee"))
    s = act(s, plantation("sugar"))
    s = act(s, plantation("indigo"))
    v = GAME.view(s, None)
    assert len(v["face_up"]) == 4
    assert v["face_up"].count("tobacco") == 2
    assert v["discard"] == []
    assert v["stack_size"] == 5 + 1 - 2  # old discard + corn left over
    assert sorted(s.stack + s.face_up) == sorted([CORN] * 4 + [INDIGO] * 2 + [TOBACCO] * 2)


def test_settler_turns_up_fewer_when_no_tiles_are_left():
    """000_5b629d4347a4e22c.txt: "Zijn er dan nog steeds niet genoeg plantagekaartjes, dan
    krijgen de betrokken spelers niets."

    When stack and discard pile are exhausted, fewer tiles are turned up.
    """
    s = _settler_table()
    s.stack, s.discard = [], []
    s, _ = choose(s, 0, "settler")
    for kind in ("coffee", "sugar", "indigo"):
        s = act(s, plantation(kind))
    v = GAME.view(s, None)
    assert v["face_up"] == ["corn"] and v["stack_size"] == 0 and v["discard"] == []


# =============================================================================
# Mayor ("DE BURGEMEESTER")
# =============================================================================


def _mayor_table(n: int = 3, mayor: int = 0, ship: int | None = None, supply_: int = 40):
    s = table(n, governor=mayor)
    s.colonist_ship = n if ship is None else ship
    s.colonist_supply = supply_
    return s


def test_mayor_privilege_one_colonist_from_the_supply_not_the_ship():
    """000_5b629d4347a4e22c.txt: "Wie de burgemeesterrol kiest, neemt als privilege een
    kolonist uit de algemene voorraad (niét uit het kolonistenschap!)".

    The mayor gets one colonist from the supply, on top of his share of the ship.
    """
    s = _mayor_table(3, ship=3, supply_=40)
    s, _ = choose(s, 0, "mayor")  # nobody has circles: all go to San Juan
    assert [p.san_juan for p in s.players] == [2, 1, 1]
    assert s.colonist_supply == 40 - 1 - 3  # privilege, then the ship refilled with 3


def test_mayor_privilege_lapses_when_the_supply_is_empty():
    """000_5b629d4347a4e22c.txt: "Zijn er geen kolonisten meer aanwezig in de algemene
    voorraad, dan kan de burgemeester zijn privilege niet meer benutten."

    No colonist left in the supply: no extra colonist for the mayor.
    """
    s = _mayor_table(3, ship=3, supply_=0)
    s, _ = choose(s, 0, "mayor")
    assert [p.san_juan for p in s.players] == [1, 1, 1]


def test_mayor_the_ship_is_dealt_one_by_one_from_the_mayor():
    """000_5b629d4347a4e22c.txt: "Daarna neemt hij de kolonisten van het kolonistenschap en
    verdeelt die beginnend bij zichzelf, met de klok mee, totdat het schip leeg is."

    Five colonists, three players, mayor in seat 1: seats 1, 2, 0, 1, 2.
    """
    s = _mayor_table(3, mayor=1, ship=5)
    s, _ = choose(s, 1, "mayor")
    assert [p.san_juan for p in s.players] == [1, 1 + 2, 2]


def test_mayor_players_may_rearrange_all_their_colonists():
    """000_5b629d4347a4e22c.txt: "Elke speler kan nu deze nieuwe kolonisten, samen met alle
    kolonisten uit eerdere rondes, zoals hij dat zelf wil verdelen over zijn bord."

    A colonist already on a plantation may be moved elsewhere.
    """
    s = _mayor_table(3, ship=3)
    setp(
        s,
        0,
        tiles={"corn": 1, "indigo": 1, "sugar": 1},
        worked={"corn": 1},
        buildings={"small_indigo_plant": 0},
    )
    s, _ = choose(s, 0, "mayor")  # 1 old + 1 privilege + 1 from the ship
    assert GAME.to_move(s) == 0
    assert GAME.view(s, 0)["mayor_pool"] == 3
    for target in ("indigo", "small_indigo_plant", "sugar"):
        s = act(s, place(target))
    p = s.players[0]
    assert p.worked[:3] == [0, 1, 1] and p.buildings == {"small_indigo_plant": 1}
    assert p.san_juan == 0


def test_mayor_no_colonist_may_stay_in_san_juan_while_a_circle_is_empty():
    """000_5b629d4347a4e22c.txt: "Ter verduidelijking: geen enkele speler mag vrijwillig
    kolonisten in San Juan (tussenopslag) plaatsen. Zolang hij kan, moet hij vrije velden
    bezetten."

    While colonists are left to place there is no way to stop: only placements.
    """
    s = _mayor_table(3, ship=3)
    setp(s, 0, tiles={"corn": 2, "indigo": 2}, buildings={"indigo_plant": 0})
    s, _ = choose(s, 0, "mayor")  # 2 colonists, 7 circles
    while GAME.to_move(s) == 0 and GAME.view(s, None)["phase"] == "mayor":
        options = legal(s)
        assert PASS not in options
        assert {a["type"] for a in options} <= {"place", "auto_place"}
        s = act(s, [a for a in options if a["type"] == "place"][0])
    p = s.players[0]
    assert p.san_juan == 0 and p.colonists() == 2


def test_mayor_colonists_without_a_circle_go_to_san_juan():
    """000_5b629d4347a4e22c.txt: "Kan een speler niet al zijn kolonisten onderbrengen, dan
    kan hij de resterende steentjes op het vakje van 'San Juan' plaatsen (opslag)."

    More colonists than circles: every circle filled, the rest in San Juan.
    """
    s = _mayor_table(3, ship=3)
    setp(s, 1, tiles={"corn": 1}, san_juan=2)
    s, _ = choose(s, 0, "mayor")
    p = s.players[1]
    assert p.worked[CORN] == 1 and p.san_juan == 2


def test_mayor_san_juan_colonists_are_placed_in_a_later_mayor_phase():
    """000_5b629d4347a4e22c.txt: "Daar blijven ze zolang liggen, tot ze in een volgende
    burgemeesterfase op vrije rondjes verdeeld kunnen worden."

    Colonists waiting in San Juan fill new circles in the next mayor phase.
    """
    s = _mayor_table(3, ship=3)
    setp(s, 1, tiles={"corn": 3}, worked={"corn": 1}, san_juan=1)
    s, _ = choose(s, 0, "mayor")  # seat 1: 1 + 1 + 1 new = 3 for 3 circles
    p = s.players[1]
    assert p.worked[CORN] == 3 and p.san_juan == 0


def test_mayor_ship_refilled_with_one_colonist_per_empty_building_circle():
    """000_5b629d4347a4e22c.txt: "Ten slotte stelt de burgemeester nog de behoefte vast aan
    nieuwe kolonisten. Voor elk niet-bezet veld op de gebouwen van elke speler (die van de
    plantages en steengroeven tellen niet mee!) wordt een kolonist uit de voorraad op het
    kolonistenschap gelegd."

    Five empty building circles in all (3 players): five colonists on the ship.
    """
    s = _mayor_table(3, ship=3, supply_=40)
    setp(s, 1, tiles={"corn": 1}, buildings={"tobacco_storage": 0, "coffee_roaster": 0})
    setp(s, 2, buildings={"small_market": 0})
    s, _ = choose(s, 0, "mayor")  # seat 1 has 1 colonist for 6 circles
    s = act(s, place("corn"))  # seat 2's one colonist fills the market
    v = GAME.view(s, None)
    assert s.players[2].buildings == {"small_market": 1}
    assert v["colonist_ship"] == 5
    assert v["colonist_supply"] == 40 - 1 - 5


def test_mayor_ship_refilled_with_at_least_one_colonist_per_player():
    """000_5b629d4347a4e22c.txt: "Opgelet! Er worden steeds minstens zoveel kolonisten op het
    schip geplaatst als er spelers zijn."

    No empty building circle (empty plantations do not count): n colonists.
    """
    s = _mayor_table(4, ship=4, supply_=40)
    setp(s, 2, tiles={"corn": 5, "quarry": 3})  # 8 empty island circles
    s, _ = choose(s, 0, "mayor")
    s = act(s, place("corn"), seat=2)  # his one colonist
    v = GAME.view(s, None)
    assert v["phase"] == "role" and s.players[2].worked[CORN] == 1
    assert v["colonist_ship"] == 4
    assert v["colonist_supply"] == 40 - 1 - 4


def test_mayor_game_ends_after_the_round_when_the_ship_cannot_be_filled():
    """000_5b629d4347a4e22c.txt: "Het spel eindigt aan het einde van de ronde waarin aan
    minstens één van de volgende drie voorwaarden voldaan wordt: Aan het einde van de
    burgemeesterfase kunnen niet meer zoveel kolonisten als nodig op het kolonistenschip
    gelegd worden."

    3 players, 3 colonists left: the privilege takes one, the ship needs three;
    the round is played out, then the game is over.
    """
    s = _quiet_table(3, governor=0)
    s.colonist_supply, s.colonist_ship = 3, 3
    s = act(s, role("mayor"))
    v = GAME.view(s, None)
    assert v["colonist_ship"] == 2 and v["colonist_supply"] == 0
    assert not GAME.is_over(s) and GAME.to_move(s) == 1
    s = act(s, role("trader"))
    assert not GAME.is_over(s)
    s = act(s, role("captain"))
    assert GAME.is_over(s)
    assert GAME.outcome(s) is not None


def test_mayor_a_ship_filled_exactly_does_not_end_the_game():
    """000_5b629d4347a4e22c.txt: "Aan het einde van de burgemeesterfase kunnen niet meer
    zoveel kolonisten als nodig op het kolonistenschip gelegd worden."

    Exactly enough colonists for the ship: the condition is not met.
    """
    s = _quiet_table(3, governor=0)
    s.colonist_supply, s.colonist_ship = 4, 3
    for r in ("mayor", "trader", "captain"):
        s = act(s, role(r))
    v = GAME.view(s, None)
    assert not GAME.is_over(s) and v["round"] == 2
    assert (v["colonist_ship"], v["colonist_supply"]) == (3, 0)


# =============================================================================
# Builder ("DE BOUWMEESTER", "Steengroeve")
# =============================================================================


def _builder_table(n: int = 3):
    s = table(n, governor=0)
    for seat in range(n):
        setp(s, seat, doubloons=0)
    return s


def _cost_paid(s, seat: int, name: str) -> int:
    before = s.players[seat].doubloons
    while GAME.to_move(s) != seat:
        s = act(s, PASS)
    s = act(s, build(name))
    assert name in s.players[seat].buildings
    return before - s.players[seat].doubloons


def test_builder_privilege_one_doubloon_less():
    """000_5b629d4347a4e22c.txt: "Wie deze rol kiest, kan direct één gebouw bouwen, wanneer
    hij over de nodige dubloenen verminderd met één (= zijn privilege) beschikt en deze aan
    de bank betaalt."

    The builder pays the cost less one: the small warehouse (3) costs him 2.
    """
    s = _builder_table()
    setp(s, 0, doubloons=2)
    s, _ = choose(s, 0, "builder")
    assert build("small_warehouse") in legal(s)
    assert _cost_paid(s, 0, "small_warehouse") == 2


def test_builder_the_other_players_pay_the_full_cost():
    """000_5b629d4347a4e22c.txt: "Daarna kunnen ook de andere spelers met de klok mee om
    beurt een gebouw bouwen."  004_800c979a45a72a97.txt: "Les autres joueurs peuvent ensuite
    ... construire un bâtiment en payant le prix normal".

    Without the privilege the small warehouse costs 3, and 2 doubloons are not enough.
    """
    s = _builder_table()
    setp(s, 1, doubloons=2)
    setp(s, 2, doubloons=3)
    s, _ = choose(s, 0, "builder")
    s = act(s, PASS)
    assert build("small_warehouse") not in legal(s)
    s = act(s, PASS)
    assert _cost_paid(s, 2, "small_warehouse") == 3


@pytest.mark.parametrize(
    "name, paid",
    [("hacienda", 2 - 1), ("large_market", 5 - 2), ("factory", 7 - 3), ("residence", 10 - 4)],
)
def test_builder_occupied_quarries_capped_by_the_column(name, paid):
    """000_5b629d4347a4e22c.txt: "Elke bezette steengroeve die in het bezit is van een speler,
    vermindert de bouwkosten met 1 dubloen. Een speler kan echter bij de gebouwen uit de
    eerste kolom van de overzichtskaart slechts één bezette steengroeve als vermindering
    laten gelden; bij de tweede kolom maximaal twee; bij de derde maximaal drie en bij de
    vierde maximaal vier."

    Four occupied quarries take 1, 2, 3, 4 off buildings of columns 1 to 4.
    """
    s = _builder_table()
    setp(s, 1, doubloons=paid, tiles={"quarry": 4}, worked={"quarry": 4})
    s, _ = choose(s, 0, "builder")
    assert _cost_paid(s, 1, name) == paid


def test_builder_unoccupied_quarries_give_no_discount():
    """000_5b629d4347a4e22c.txt: "Elke bezette steengroeve ... vermindert de bouwkosten met 1
    dubloen." and "Alleen bezette kaartjes vervullen hun functie".

    Three quarries of which one is occupied take 1 off, not 2: the large market
    (5, column 2) costs 4, too much for 3 doubloons; the hospice (4) costs 3.
    """
    s = _builder_table()
    setp(s, 1, doubloons=3, tiles={"quarry": 3}, worked={"quarry": 1})
    s, _ = choose(s, 0, "builder")
    s = act(s, PASS)
    assert build("large_market") not in legal(s)
    assert _cost_paid(s, 1, "hospice") == 4 - 1


def test_builder_privilege_and_quarries_add_up():
    """004_800c979a45a72a97.txt: "Le privilège du maçon s'ajoute aux réductions de prix dues
    aux carrières".

    The builder with two occupied quarries pays 8 - 1 - 2 = 5 for the harbor.
    """
    s = _builder_table()
    setp(s, 0, doubloons=5, tiles={"quarry": 2}, worked={"quarry": 2})
    s, _ = choose(s, 0, "builder")
    assert _cost_paid(s, 0, "harbor") == 5


def test_builder_cost_never_below_zero():
    """004_800c979a45a72a97.txt: "mais le coût de construction d'un immeuble ne peut en aucun
    cas être inférieur à 0."

    The builder with an occupied quarry builds the small market (1) for 0, not -1:
    he gets nothing back, and he may build it without a doubloon.
    """
    s = _builder_table()
    setp(s, 0, doubloons=0, tiles={"quarry": 1}, worked={"quarry": 1})
    bank = s.bank
    s, _ = choose(s, 0, "builder")
    assert build("small_market") in legal(s)
    s = act(s, build("small_market"))
    assert s.players[0].doubloons == 0 and s.bank == bank


def test_builder_needs_the_doubloons():
    """000_5b629d4347a4e22c.txt: "kan direct één gebouw bouwen, wanneer hij over de nodige
    dubloenen ... beschikt en deze aan de bank betaalt."

    With one doubloon only the buildings costing 1 are on offer to a non-builder.
    """
    s = _builder_table()
    setp(s, 1, doubloons=1)
    s, _ = choose(s, 0, "builder")
    s = act(s, PASS)
    assert sorted(a["building"] for a in legal(s) if a["type"] == "build") == [
        "small_indigo_plant",
        "small_market",
    ]


def test_builder_no_player_builds_the_same_building_twice():
    """000_5b629d4347a4e22c.txt: "Opgelet: geen enkele speler mag hetzelfde gebouw meer dan
    één keer bouwen."

    A building the player owns is not on offer to him again.
    """
    s = _builder_table()
    setp(s, 1, doubloons=10, buildings={"small_market": 1})
    s, _ = choose(s, 0, "builder")
    s = act(s, PASS)
    assert build("small_market") not in legal(s)
    with pytest.raises(IllegalMove):
        GAME.apply(s, 1, build("small_market"))


def test_builder_small_and_large_versions_are_different_buildings():
    """004_800c979a45a72a97.txt: "En revanche, un joueur peut avoir, par exemple, une petite
    raffinerie de sucre et une raffinerie de sucre, ou un petit entrepôt et un grand
    entrepôt, puisque ces bâtiments ne sont pas strictement identiques."

    Owning the small sugar mill does not stop a player building the sugar mill.
    """
    s = _builder_table()
    setp(s, 1, doubloons=10, buildings={"small_sugar_mill": 1, "small_warehouse": 1})
    s, _ = choose(s, 0, "builder")
    s = act(s, PASS)
    assert build("sugar_mill") in legal(s) and build("large_warehouse") in legal(s)


def test_builder_a_large_building_needs_two_free_city_spaces():
    """000_5b629d4347a4e22c.txt: "Het is niet mogelijk meer dan 12 stadsvelden te bebouwen.
    Wie nog slechts 1 vrij veld over heeft kan geen groot gebouw meer bouwen."

    With 11 spaces built the large buildings are not on offer; with 10 they are.
    """
    eleven = {name: 0 for name in list(BUILDINGS)[:11]}
    s = _builder_table()
    setp(s, 1, doubloons=20, buildings=eleven)
    s, _ = choose(s, 0, "builder")
    s = act(s, PASS)
    offered = {a["building"] for a in legal(s) if a["type"] == "build"}
    assert offered and not any(BUILDINGS[b].large for b in offered)
    ten = {name: 0 for name in list(BUILDINGS)[:10]}
    s = _builder_table()
    setp(s, 1, doubloons=20, buildings=ten)
    s, _ = choose(s, 0, "builder")
    s = act(s, PASS)
    assert build("city_hall") in legal(s)


def test_builder_a_sold_out_building_cannot_be_built():
    """000_5b629d4347a4e22c.txt: "De 12 kleinere gebouwen komen elk 2 keer voor. De grote
    slechts eenmaal."

    When every copy of a building is taken, nobody can build it.
    """
    s = _builder_table()
    s.buildings_left["harbor"] = 0
    setp(s, 1, doubloons=20)
    s, _ = choose(s, 0, "builder")
    s = act(s, PASS)
    assert build("harbor") not in legal(s) and build("wharf") in legal(s)


def test_builder_building_is_optional_and_one_per_player():
    """004_800c979a45a72a97.txt: "Aucun joueur ne peut construire plusieurs bâtiments."
    000_5b629d4347a4e22c.txt: "Een speler mag kiezen of hij de aan de rol gekoppelde actie
    al dan niet wil uitvoeren".

    Each player may build one building or pass; after building his turn is over.
    """
    s = _builder_table()
    setp(s, 0, doubloons=10)
    setp(s, 1, doubloons=10)
    s, _ = choose(s, 0, "builder")
    assert PASS in legal(s)
    s = act(s, build("small_market"))
    assert GAME.to_move(s) == 1
    s = act(s, PASS)
    assert GAME.view(s, None)["phase"] == "role"
    assert list(s.players[0].buildings) == ["small_market"] and s.players[1].buildings == {}


def test_builder_a_new_building_is_unoccupied():
    """000_5b629d4347a4e22c.txt: "Zodra minstens 1 kolonist op een gebouw ligt, geldt het als
    bezet. Alleen bezette gebouwen hebben een uitwerking".

    Without a university the new building has no colonist.
    """
    s = _builder_table()
    setp(s, 0, doubloons=10)
    s, _ = choose(s, 0, "builder")
    s = act(s, build("harbor"))
    assert s.players[0].buildings == {"harbor": 0}


def test_builder_university_puts_one_colonist_on_the_new_building():
    """000_5b629d4347a4e22c.txt: "Bouwt de eigenaar van de universiteit tijdens de
    bouwmeesterfase een gebouw, dan kan hij direct een kolonist uit de algemene voorraad
    pakken en deze op dat gebouw plaatsen. Aanwijzingen: Bouwt hij een gebouw met meerdere
    velden, krijgt hij ook slechts één kolonist."

    One colonist from the supply, even on a three-circle building.
    """
    s = _builder_table()
    setp(s, 0, doubloons=10, buildings={"university": 1})
    before = s.colonist_supply
    s, _ = choose(s, 0, "builder")
    s = act(s, build("tobacco_storage"))
    assert s.players[0].buildings["tobacco_storage"] == 1
    assert s.colonist_supply == before - 1


def test_builder_university_takes_from_the_ship_when_the_supply_is_empty():
    """000_5b629d4347a4e22c.txt: "Zijn er geen kolonistensteentjes meer in de voorraad (tegen
    het einde van het spel is dit mogelijk) dan mag hij er een van het kolonistenschip
    nemen. Ligger er daar ook geen meer, dan heeft hij pech."

    Supply empty: from the ship; ship empty too: no colonist.
    """
    s = _builder_table()
    setp(s, 0, doubloons=10, buildings={"university": 1})
    setp(s, 1, doubloons=10, buildings={"university": 1})
    s.colonist_supply, s.colonist_ship = 0, 1
    s, _ = choose(s, 0, "builder")
    s = act(s, build("harbor"))
    assert s.players[0].buildings["harbor"] == 1 and s.colonist_ship == 0
    s = act(s, build("harbor"))
    assert s.players[1].buildings["harbor"] == 0


def test_builder_the_university_colonist_is_optional():
    """000_5b629d4347a4e22c.txt (Universiteit): "Bouwt de eigenaar van de universiteit
    tijdens de bouwmeesterfase een gebouw, dan kan hij direct een kolonist uit de algemene
    voorraad pakken en deze op dat gebouw plaatsen." and "Een speler is echter niet verplicht
    zijn paarse gebouwen te gebruiken, wanneer hij dat niet wil".
    004_800c979a45a72a97.txt: "il peut prendre un colon de la réserve et le placer sur ce
    bâtiment" and "Un joueur n'est jamais obligé d'utiliser ses bâtiments occupés."

    The university owner may build the harbor with a colonist on it, or without.
    """
    s = _builder_table()
    setp(s, 0, doubloons=10, buildings={"university": 1})
    s, _ = choose(s, 0, "builder")
    ends = [n for n in turn_outcomes(s, 0) if "harbor" in n.players[0].buildings]
    assert {n.players[0].buildings["harbor"] for n in ends} == {0, 1}


def test_builder_an_unoccupied_university_gives_no_colonist():
    """000_5b629d4347a4e22c.txt: "Alleen bezette gebouwen hebben een uitwerking (met
    uitzondering van de punten)."

    An empty university does nothing.
    """
    s = _builder_table()
    setp(s, 0, doubloons=10, buildings={"university": 0})
    s, _ = choose(s, 0, "builder")
    s = act(s, build("harbor"))
    assert s.players[0].buildings["harbor"] == 0


@pytest.mark.parametrize("last", ["small_market", "city_hall"])
def test_builder_the_twelfth_city_space_ends_the_game_after_the_round(last):
    """000_5b629d4347a4e22c.txt: "Het spel eindigt aan het einde van de ronde waarin aan
    minstens één van de volgende drie voorwaarden voldaan wordt: ... Tijdens de
    bouwmeesterfase bouwt minstens één speler op zijn twaalfde stadsveld."

    Filling the 12th space (with a small or a large building) ends the game once the
    round is over, not at once.
    """
    s = _quiet_table(3, governor=0)
    have = 11 if last == "small_market" else 10
    small = [n for n, b in BUILDINGS.items() if not b.large and n != last]
    setp(s, 0, doubloons=20, buildings={n: 0 for n in small[:have]})
    s = act(s, role("builder"))
    s = act(s, build(last))
    assert GAME.view(s, None)["players"][0]["city_spaces"] == 12
    assert not GAME.is_over(s) and GAME.to_move(s) == 1
    s = act(s, role("trader"))
    s = act(s, role("captain"))
    assert GAME.is_over(s)


# =============================================================================
# Craftsman ("DE OPZICHTER", "De productiegebouwen")
# =============================================================================


def _craftsman(s, seat: int = 0):
    return choose(s, seat, "craftsman")[0]


def test_craftsman_corn_needs_no_production_building():
    """000_5b629d4347a4e22c.txt: "Opgelet! Voor de maïsplanten wordt geen productiegebouw
    gebruikt. ... elke bezette maïsplantage levert in een opzichterfase direct een gele
    goederensteen op."

    Each occupied corn plantation yields one corn; unoccupied ones nothing.
    """
    s = table(3)
    setp(s, 1, tiles={"corn": 3}, worked={"corn": 2})
    s = _craftsman(s)
    assert goods_of(s, 1) == {"corn": 2}


@pytest.mark.parametrize("plantations, circles, made", [(3, 2, 2), (1, 3, 1), (2, 0, 0), (0, 3, 0)])
def test_craftsman_production_needs_occupied_plantations_and_circles(plantations, circles, made):
    """000_5b629d4347a4e22c.txt: "De cirkels op een productiegebouw geven aan hoeveel goederen
    hier maximaal geproduceerd kunnen worden, wanneer die met kolonisten bezet zijn. Daartoe
    heeft de speler ook net zoveel bezette plantages nodig."

    Indigo made = the smaller of occupied indigo plantations and occupied circles.
    """
    s = table(3)
    setp(
        s,
        1,
        tiles={"indigo": 3},
        worked={"indigo": plantations},
        buildings={"indigo_plant": circles},
    )
    s = _craftsman(s)
    assert goods_of(s, 1) == ({"indigo": made} if made else {})


def test_craftsman_small_and_large_production_buildings_add_up():
    """000_5b629d4347a4e22c.txt: "De cirkels op een productiegebouw geven aan hoeveel goederen
    hier maximaal geproduceerd kunnen worden".

    Small sugar mill (1) + sugar mill (3), four occupied sugar plantations: 4 sugar.
    """
    s = table(3)
    setp(
        s,
        1,
        tiles={"sugar": 4},
        worked={"sugar": 4},
        buildings={"small_sugar_mill": 1, "sugar_mill": 3},
    )
    s = _craftsman(s)
    assert goods_of(s, 1) == {"sugar": 4}


def test_craftsman_supply_runs_out_in_order_from_the_craftsman():
    """000_5b629d4347a4e22c.txt: "Wie deze rol kiest, neemt ... goederen uit de algemene
    voorraad ... Vervolgens pakken de andere spelers met de klok mee ook hun goederen." and
    "Is een bepaalde goederensoort niet meer voorradig, dan krijgen de betreffende spelers
    niets."

    Three sugar left and three players able to make two each, craftsman in seat 1:
    seat 1 gets 2, seat 2 gets 1, seat 0 none.
    """
    s = table(3)
    for seat in range(3):
        setp(s, seat, tiles={"sugar": 2}, worked={"sugar": 2}, buildings={"sugar_mill": 2})
    set_supply(s, sugar=3)
    s = _craftsman(s, seat=1)
    assert [p.goods[SUGAR] for p in s.players] == [0, 2, 1]
    assert supply(s, "sugar") == 0


def test_craftsman_extra_barrel_of_a_kind_he_produced():
    """000_5b629d4347a4e22c.txt: "Als laatste handeling van de opzichterfase pakt de
    opzichter (als zijn privilege) uit de algemene voorraad nóg één steen van één van de
    goederen die hij zojuist geproduceerd heeft."

    The craftsman chooses his extra barrel among the kinds he produced only.
    """
    s = table(3)
    setp(
        s,
        0,
        goods={"coffee": 2},
        tiles={"corn": 1, "indigo": 1},
        worked={"corn": 1, "indigo": 1},
        buildings={"small_indigo_plant": 1},
    )
    s = _craftsman(s)
    assert GAME.to_move(s) == 0
    assert sorted(legal(s), key=str) == sorted([bonus("corn"), bonus("indigo")], key=str)
    with pytest.raises(IllegalMove):
        GAME.apply(s, 0, bonus("coffee"))
    s = act(s, bonus("indigo"))
    assert goods_of(s, 0) == {"corn": 1, "indigo": 2, "coffee": 2}
    assert GAME.view(s, None)["phase"] == "role"


def test_craftsman_no_extra_barrel_when_he_produced_nothing():
    """000_5b629d4347a4e22c.txt: "Heeft de opzichter niets geproduceerd, dan kan hij ook geen
    extra steen krijgen."

    A craftsman who produces nothing gets nothing; the others still produce.
    """
    s = table(3)
    setp(s, 1, tiles={"corn": 1}, worked={"corn": 1})
    s = _craftsman(s)
    assert goods_of(s, 0) == {} and goods_of(s, 1) == {"corn": 1}
    assert GAME.view(s, None)["phase"] == "role"


def test_craftsman_extra_barrel_comes_after_everyone_produced():
    """000_5b629d4347a4e22c.txt: "Als laatste handeling van de opzichterfase pakt de
    opzichter (als zijn privilege) uit de algemene voorraad nóg één steen" and "Is een
    bepaalde goederensoort niet meer voorradig, dan krijgen de betreffende spelers niets."

    The last corn goes to the next player's production first; then there is none
    left for the craftsman's extra barrel.
    """
    s = table(3)
    setp(s, 0, tiles={"corn": 1}, worked={"corn": 1})
    setp(s, 1, tiles={"corn": 2}, worked={"corn": 2})
    set_supply(s, corn=3)
    s = _craftsman(s)
    assert goods_of(s, 0) == {"corn": 1} and goods_of(s, 1) == {"corn": 2}
    assert supply(s, "corn") == 0


@pytest.mark.parametrize("kinds, pay", [(1, 0), (2, 1), (3, 2), (4, 3), (5, 5)])
def test_craftsman_factory_pays_by_kinds_produced(kinds, pay):
    """000_5b629d4347a4e22c.txt: "Produceert de eigenaar van een fabriek tijdens de
    opzichterfase meer dan één goederensoort, dan krijgt hij daarvoor geld van de bank: voor
    twee soorten goederen krijgt hij 1 dubloon, voor drie soorten krijgt hij 2 dubloenen,
    voor vier soorten krijgt hij 3 dubloenen en voor alle vijf de soorten krijgt hij 5
    dubloenen."

    The factory pays 0/1/2/3/5 for 1/2/3/4/5 kinds.
    """
    names = ["corn", "indigo", "sugar", "tobacco", "coffee"][:kinds]
    plants = {
        "indigo": "small_indigo_plant",
        "sugar": "small_sugar_mill",
        "tobacco": "tobacco_storage",
        "coffee": "coffee_roaster",
    }
    s = table(3)
    setp(
        s,
        1,
        doubloons=0,
        tiles=dict.fromkeys(names, 1),
        worked=dict.fromkeys(names, 1),
        buildings={"factory": 1, **{plants[k]: 1 for k in names if k in plants}},
    )
    s = _craftsman(s)
    assert len(goods_of(s, 1)) == kinds
    assert s.players[1].doubloons == pay


def test_craftsman_factory_counts_kinds_not_barrels():
    """000_5b629d4347a4e22c.txt: "Het aantal geproduceerde goederen speelt daarbij geen rol."

    Three corn and three indigo are two kinds: one doubloon.
    """
    s = table(3)
    setp(
        s,
        1,
        doubloons=0,
        tiles={"corn": 3, "indigo": 3},
        worked={"corn": 3, "indigo": 3},
        buildings={"factory": 1, "indigo_plant": 3},
    )
    s = _craftsman(s)
    assert s.players[1].doubloons == 1


def test_craftsman_an_unoccupied_factory_pays_nothing():
    """000_5b629d4347a4e22c.txt: "Alleen bezette gebouwen hebben een uitwerking".

    An empty factory pays nothing.
    """
    s = table(3)
    setp(
        s,
        1,
        doubloons=0,
        tiles={"corn": 1, "indigo": 1},
        worked={"corn": 1, "indigo": 1},
        buildings={"factory": 0, "small_indigo_plant": 1},
    )
    s = _craftsman(s)
    assert goods_of(s, 1) == {"corn": 1, "indigo": 1} and s.players[1].doubloons == 0


# =============================================================================
# Trader ("DE HANDELAAR")
# =============================================================================


def _trader_table(n: int = 3, house=()):
    s = table(n, governor=0)
    for seat in range(n):
        setp(s, seat, doubloons=0)
    s.house = list(house)
    return s


@pytest.mark.parametrize(
    "kind, price", [("corn", 0), ("indigo", 1), ("sugar", 2), ("tobacco", 3), ("coffee", 4)]
)
def test_trader_sells_one_barrel_for_the_price_plus_one(kind, price):
    """000_5b629d4347a4e22c.txt: "Wie deze rol kiest, mag exact één goederensteen aan het
    handelshuis verkopen. Hij krijgt daarvoor de daar aangegeven prijs (0-4 dubloenen) plus 1
    extra dubloen (als zijn privilege)."  003_d47d98a651436bc3.txt: "Corn 0, Indigo 1, Sugar
    2, Tobacco 3, Coffee 4".

    The trader sells one barrel for its price + 1.
    """
    s = _trader_table()
    setp(s, 0, goods={kind: 2})
    s, _ = choose(s, 0, "trader")
    s = act(s, sell(kind))
    assert s.players[0].doubloons == price + 1 and s.players[0].goods == [
        1 if g == kind else 0 for g in ("corn", "indigo", "sugar", "tobacco", "coffee")
    ]
    assert GAME.view(s, None)["trading_house"] == [kind]


@pytest.mark.parametrize(
    "kind, price", [("corn", 0), ("indigo", 1), ("sugar", 2), ("tobacco", 3), ("coffee", 4)]
)
def test_trader_the_other_players_sell_at_the_price(kind, price):
    """000_5b629d4347a4e22c.txt: "Daarna kunnen de andere spelers met de klok mee maximaal één
    goederensteen verkopen voor de aangegeven prijs."

    A player after the trader gets the plain price.
    """
    s = _trader_table()
    setp(s, 1, goods={kind: 1})
    s, _ = choose(s, 0, "trader")
    assert GAME.to_move(s) == 1
    s = act(s, sell(kind))
    assert s.players[1].doubloons == price


def test_trader_no_extra_doubloon_without_selling():
    """000_5b629d4347a4e22c.txt: "Verkoopt de handelaar niets, dan krijgt hij ook niet de
    extra dubloen (privilege)."

    A trader who sells nothing gets nothing.
    """
    s = _trader_table()
    setp(s, 0, goods={"coffee": 1})
    s, _ = choose(s, 0, "trader")
    assert PASS in legal(s)
    s = act(s, PASS)
    assert s.players[0].doubloons == 0 and s.players[0].goods[COFFEE] == 1


def test_trader_only_one_barrel_per_player():
    """000_5b629d4347a4e22c.txt: "Daarna kunnen de andere spelers met de klok mee maximaal één
    goederensteen verkopen".

    After one sale it is the next player's turn.
    """
    s = _trader_table()
    setp(s, 0, goods={"coffee": 2, "sugar": 2})
    setp(s, 1, goods={"corn": 1})
    s, _ = choose(s, 0, "trader")
    s = act(s, sell("coffee"))
    assert GAME.to_move(s) == 1


def test_trader_the_trading_house_takes_only_different_kinds():
    """000_5b629d4347a4e22c.txt: "Het handelshuis neemt alleen goederen van verschillende
    soorten op (uitzondering: magazijn)."

    A kind already in the trading house cannot be sold; a player with only that
    kind is passed over.
    """
    s = _trader_table(house=[TOBACCO])
    setp(s, 0, goods={"tobacco": 1, "corn": 1})
    setp(s, 1, goods={"tobacco": 3})
    setp(s, 2, goods={"sugar": 1})
    s, _ = choose(s, 0, "trader")
    assert sell("tobacco") not in legal(s) and sell("corn") in legal(s)
    s = act(s, sell("corn"))
    assert GAME.to_move(s) == 2
    s = act(s, sell("sugar"))
    assert GAME.view(s, None)["trading_house"] == ["tobacco", "corn", "sugar"]


def test_trader_office_sells_a_kind_already_in_the_house():
    """000_5b629d4347a4e22c.txt (Magazijn = office): "Verkoopt de eigenaar van een magazijn
    tijdens de handelaarfase een goederensteen, dan mag die ook van een soort zijn die al in
    het handelshuis ligt."

    With an occupied office a duplicate kind may be sold.
    """
    s = _trader_table(house=[TOBACCO])
    setp(s, 1, goods={"tobacco": 1}, buildings={"office": 1})
    s, _ = choose(s, 0, "trader")
    s = act(s, sell("tobacco"))
    assert s.players[1].doubloons == 3
    assert GAME.view(s, None)["trading_house"] == ["tobacco", "tobacco"]


def test_trader_an_unoccupied_office_does_nothing():
    """000_5b629d4347a4e22c.txt: "Alleen bezette gebouwen hebben een uitwerking".

    Without a colonist the office allows no duplicate.
    """
    s = _trader_table(house=[TOBACCO])
    setp(s, 1, goods={"tobacco": 1, "corn": 1}, buildings={"office": 0})
    s, _ = choose(s, 0, "trader")
    assert sell("tobacco") not in legal(s)


def test_trader_the_house_holds_four_barrels_then_the_phase_ends():
    """000_5b629d4347a4e22c.txt: "Het handelshuis neemt maximaal 4 goederen op; als het
    eenmaal vol is, kunnen de volgende spelers geen goederen meer verkopen." and "De
    handelaarfase eindigt wanneer elke speler 1 keer aan de beurt was, respectievelijk
    wanneer het handelshuis vol zit."

    Five players: after the fourth sale the fifth player may not sell.
    """
    s = _trader_table(5)
    for seat, kind in enumerate(("corn", "indigo", "sugar", "tobacco", "coffee")):
        setp(s, seat, goods={kind: 1})
    s, _ = choose(s, 0, "trader")
    for kind in ("corn", "indigo", "sugar", "tobacco"):
        s = act(s, sell(kind))
    assert GAME.view(s, None)["phase"] == "role"
    assert s.players[4].goods[COFFEE] == 1 and s.players[4].doubloons == 0


def test_trader_office_has_no_effect_when_the_house_is_full():
    """000_5b629d4347a4e22c.txt: "Is het handelshuis al vol, dan heeft het magazijn geen
    werking."

    A full house takes nothing, office or not.
    """
    s = _trader_table(house=[CORN, INDIGO, SUGAR])
    setp(s, 0, goods={"coffee": 1})
    setp(s, 1, goods={"tobacco": 1, "coffee": 1}, buildings={"office": 1})
    s, _ = choose(s, 0, "trader")
    s = act(s, sell("coffee"))
    assert GAME.view(s, None)["phase"] == "role"
    assert s.players[1].doubloons == 0 and goods_of(s, 1) == {"tobacco": 1, "coffee": 1}


def test_trader_a_full_house_is_emptied_at_the_end_of_the_phase():
    """000_5b629d4347a4e22c.txt: "Als laatste handeling leegt de handelaar het handelshuis, als
    daar vier stenen liggen. Deze legt hij, gesorteerd, terug in de algemene voorraad."

    Four barrels: they go back to the supply.
    """
    s = _trader_table(house=[CORN, INDIGO, SUGAR])
    setp(s, 2, goods={"coffee": 1})
    before = supply(s, "coffee"), supply(s, "corn")
    s, _ = choose(s, 0, "trader")
    s = act(s, sell("coffee"))
    assert GAME.view(s, None)["trading_house"] == []
    assert (supply(s, "coffee"), supply(s, "corn")) == (before[0] + 1, before[1] + 1)


def test_trader_a_house_not_full_keeps_its_barrels():
    """000_5b629d4347a4e22c.txt: "Liggen er echter maar drie of minder stenen in het
    handelshuis, dan blijven deze er liggen."

    Three barrels stay in the house for the next trader phase.
    """
    s = _trader_table(house=[CORN, INDIGO])
    setp(s, 1, goods={"coffee": 1})
    s, _ = choose(s, 0, "trader")
    s = act(s, sell("coffee"))
    assert GAME.view(s, None)["trading_house"] == ["corn", "indigo", "coffee"]


@pytest.mark.parametrize(
    "markets, extra",
    [
        ({"small_market": 1}, 1),
        ({"large_market": 1}, 2),
        ({"small_market": 1, "large_market": 1}, 3),
        ({"small_market": 0, "large_market": 0}, 0),
    ],
)
def test_trader_markets_add_to_the_price(markets, extra):
    """000_5b629d4347a4e22c.txt: "Verkoopt de eigenaar van een kleine markthal in de
    handelaarfase een goederensteen, dan krijgt hij daarvoor 1 dubloen extra uit de bank.";
    "Verkoopt de eigenaar van een grote markthal ... dan krijgt hij 2 dubloenen meer van de
    bank. Aanwijzing: Bezit een speler een grote en een kleine markthal, dan krijgt hij bij
    verkoop natuurlijk 3 dubloenen meer."

    Small market +1, large market +2, both +3; unoccupied ones nothing.
    """
    s = _trader_table()
    setp(s, 1, goods={"sugar": 1}, buildings=markets)
    s, _ = choose(s, 0, "trader")
    s = act(s, sell("sugar"))
    assert s.players[1].doubloons == 2 + extra


def test_trader_markets_and_privilege_add_up():
    """000_5b629d4347a4e22c.txt: "plus 1 extra dubloen (als zijn privilege)" and "Bezit een
    speler een grote en een kleine markthal, dan krijgt hij bij verkoop natuurlijk 3
    dubloenen meer."

    The trader with both markets sells coffee for 4 + 1 + 3 = 8.
    """
    s = _trader_table()
    setp(s, 0, goods={"coffee": 1}, buildings={"small_market": 1, "large_market": 1})
    s, _ = choose(s, 0, "trader")
    s = act(s, sell("coffee"))
    assert s.players[0].doubloons == 8


def test_trader_corn_may_be_sold_for_nothing():
    """000_5b629d4347a4e22c.txt: "Het is toegestaan om mais aan het handelshuis te verkopen,
    ook wanneer dit zelfs helemaal niets opbrengt."

    Corn sells for 0 and takes a place in the trading house.
    """
    s = _trader_table()
    setp(s, 1, goods={"corn": 1})
    s, _ = choose(s, 0, "trader")
    s = act(s, sell("corn"))
    assert s.players[1].doubloons == 0 and GAME.view(s, None)["trading_house"] == ["corn"]


# =============================================================================
# Captain ("DE KAPITEIN", "Leveringsvoorwaarden", "Opslaan van goederen")
# =============================================================================


def _captain_table(n: int = 3):
    s = table(n, governor=0)
    return s


def test_captain_loading_is_compulsory():
    """000_5b629d4347a4e22c.txt: "Wie aan de beurt is moét leveren, voor zover hij kan."

    A player who can load has no pass.
    """
    s = _captain_table()
    setp(s, 0, goods={"corn": 1, "indigo": 1})
    s, _ = choose(s, 0, "captain")
    assert PASS not in legal(s) and {a["type"] for a in legal(s)} == {"load"}
    with pytest.raises(IllegalMove):
        GAME.apply(s, 0, PASS)


def test_captain_one_kind_per_turn_as_many_as_fit():
    """000_5b629d4347a4e22c.txt: "Daarbij kan hij slechts goederen van één soort leveren." and
    "Wie een goederensoort levert, moét hiervan zoveel mogelijk goederen leveren. Men mag dus
    geen goederensteentjes achterhouden, wanneer er nog plaats is op het schip."

    One kind per turn, every barrel that fits: 3 corn into a 4-ship holding 2 corn
    loads 2 and leaves 1.
    """
    s = _captain_table()
    set_ships(s, (4, "corn", 2), (5, None, 0), (6, None, 0))
    setp(s, 1, goods={"corn": 3, "indigo": 1})
    s, _ = choose(s, 0, "captain")
    s = act(s, load("corn", 0))
    assert ship_view(s)[0] == (4, "corn", 4)
    assert goods_of(s, 1) == {"corn": 1, "indigo": 1}
    assert s.players[1].vp == 2


def test_captain_a_ship_takes_only_one_kind():
    """000_5b629d4347a4e22c.txt: "Elk schip accepteert slechts één soort goederen."

    Indigo cannot go on a ship that carries corn.
    """
    s = _captain_table()
    set_ships(s, (4, "corn", 1), (5, "sugar", 1), (6, None, 0))
    setp(s, 0, goods={"indigo": 2, "corn": 1})
    s, _ = choose(s, 0, "captain")
    assert [a for a in legal(s) if a["kind"] == "indigo"] == [load("indigo", 2)]
    with pytest.raises(IllegalMove):
        GAME.apply(s, 0, load("indigo", 0))


def test_captain_a_kind_sails_on_one_ship_only_even_when_that_ship_is_full():
    """000_5b629d4347a4e22c.txt: "Geen enkel schip neemt goederen aan die al door een ander
    schip zijn opgenomen."  004_800c979a45a72a97.txt: "S'il y a déjà un navire, même plein,
    transportant un type de marchandise, on ne peut pas charger de marchandises du même type
    sur un autre navire."

    Corn on the full 4-ship: no corn on the empty 5- or 6-ship.
    """
    s = _captain_table()
    set_ships(s, (4, "corn", 4), (5, None, 0), (6, None, 0))
    setp(s, 0, goods={"corn": 3, "indigo": 1, "sugar": 1})
    s, _ = choose(s, 0, "captain")
    assert not [a for a in legal(s) if a["kind"] == "corn"]


def test_captain_a_kind_afloat_must_go_on_its_ship():
    """000_5b629d4347a4e22c.txt: "Geen enkel schip neemt goederen aan die al door een ander
    schip zijn opgenomen."

    Corn already on the 4-ship with room: corn goes there, not on an empty ship.
    """
    s = _captain_table()
    set_ships(s, (4, "corn", 1), (5, None, 0), (6, None, 0))
    setp(s, 0, goods={"corn": 3, "indigo": 1})
    s, _ = choose(s, 0, "captain")
    assert [a for a in legal(s) if a["kind"] == "corn"] == [load("corn", 0)]


def test_captain_a_full_ship_takes_nothing_more():
    """000_5b629d4347a4e22c.txt: "Een vol schip neemt geen goederen meer aan."

    Nothing can be loaded when every ship carrying one's kinds is full.
    """
    s = _captain_table()
    set_ships(s, (4, "corn", 4), (5, "indigo", 5), (6, "sugar", 2))
    setp(s, 1, goods={"corn": 2})
    s, _ = choose(s, 0, "captain")
    assert GAME.view(s, None)["phase"] == "role"  # nobody could load
    assert s.players[1].vp == 0
    assert goods_of(s, 1) == {"corn": 1}  # one barrel kept (see storage)


def test_captain_the_ship_that_takes_the_most_barrels_must_be_used():
    """000_5b629d4347a4e22c.txt: "Dus als een speler bijvoorbeeld 6 indigosteentjes heeft en
    hij kan kiezen of hij die indigosteentjes aan het lege 5-schip of aan het lege 6-schip
    levert, dan moet hij zijn indigosteentjes aan het 6-schip leveren."

    6 indigo, empty 5- and 6-ship: only the 6-ship.
    """
    s = _captain_table(4)
    set_ships(s, (5, None, 0), (6, None, 0), (7, "corn", 1))
    setp(s, 0, goods={"indigo": 6, "sugar": 1})
    s, _ = choose(s, 0, "captain")
    assert [a for a in legal(s) if a["kind"] == "indigo"] == [load("indigo", 1)]
    with pytest.raises(IllegalMove):
        GAME.apply(s, 0, load("indigo", 0))


def test_captain_ships_that_take_as_many_barrels_are_a_free_choice():
    """004_800c979a45a72a97.txt: "Si un joueur a un type de marchandises qu'il peut charger à
    bord de plusieurs navires, tous vides, il doit choisir le navire sur lequel il peut
    charger le plus grand nombre de tonneaux, et en charger le maximum possible."

    3 indigo fit wholly on the empty 5- and 6-ship: either may be chosen.
    """
    s = _captain_table(4)
    set_ships(s, (5, None, 0), (6, None, 0), (7, "corn", 1))
    setp(s, 0, goods={"indigo": 3, "sugar": 1})
    s, _ = choose(s, 0, "captain")
    assert load("indigo", 0) in legal(s) and load("indigo", 1) in legal(s)


def test_captain_the_player_chooses_freely_which_kind_to_load():
    """000_5b629d4347a4e22c.txt: "Beschikt een speler over meerdere leverbare goederensoorten,
    dan heeft hij de vrije keuze, welke soort hij levert. (Hij hoeft dan dus niet de soort te
    kiezen waarvan hij er het meeste kan leveren.)"

    1 corn may be shipped instead of 5 sugar.
    """
    s = _captain_table()
    setp(s, 0, goods={"corn": 1, "sugar": 5})
    s, _ = choose(s, 0, "captain")
    assert load("corn", 0) in legal(s)
    s = act(s, load("corn", 0))
    assert ship_view(s)[0] == (4, "corn", 1)


def test_captain_phase_goes_round_until_nobody_can_load():
    """000_5b629d4347a4e22c.txt: "Opgelet: In de kapiteinsfase kunnen de spelers ook meer dan
    één keer aan bod komen. ... De kapiteinsfase gaat zo verder door tot niemand meer kan
    leveren."

    The captain loads corn; round the table he must load his sugar too.
    """
    s = _captain_table()
    setp(s, 0, goods={"corn": 2, "sugar": 3})
    s, _ = choose(s, 0, "captain")
    s = act(s, load("corn", 0))  # then sugar: the 5- or 6-ship, his choice
    assert GAME.to_move(s) == 0 and {a["kind"] for a in legal(s)} == {"sugar"}
    s = act(s, load("sugar", 2))
    assert goods_of(s, 0) == {} and GAME.view(s, None)["phase"] == "role"
    assert ship_view(s) == [(4, "corn", 2), (5, None, 0), (6, "sugar", 3)]


def test_captain_one_victory_point_per_barrel():
    """000_5b629d4347a4e22c.txt: "Voor elke goederensteen die een speler levert, ontvangt hij
    één punt (1 P) ... (Bij het leveren zijn alle goederen dus evenveel waard".

    4 coffee shipped by a non-captain: 4 VP.
    """
    s = _captain_table()
    setp(s, 2, goods={"coffee": 4})
    s, _ = choose(s, 0, "captain")
    s = act(s, load("coffee", 0), seat=2)
    assert s.players[2].vp == 4 and GAME.view(s, None)["vp_supply"] == 75 - 4


def test_captain_privilege_one_extra_point_on_the_first_load_only():
    """000_5b629d4347a4e22c.txt: "De kapitein krijgt (als zijn 'privilege') één punt meer bij
    de eerste levering." and "De kapitein heeft slechts recht op een extra punt, ook al kan
    hij meer soorten goederen leveren."

    2 corn then 3 sugar: 3 + 3 = 6 VP.
    """
    s = _captain_table()
    setp(s, 0, goods={"corn": 2, "sugar": 3})
    s, _ = choose(s, 0, "captain")
    s = act(s, load("corn", 0))
    s = act(s, load("sugar", 1))
    assert s.players[0].vp == 6


def test_captain_no_privilege_without_loading():
    """000_5b629d4347a4e22c.txt: "Levert hij niets, dan krijgt hij ook geen extra punt."

    A captain without goods gets nothing; the others ship without the bonus.
    """
    s = _captain_table()
    setp(s, 1, goods={"corn": 2})
    s, _ = choose(s, 0, "captain")
    s = act(s, load("corn", 2), seat=1)
    assert s.players[0].vp == 0 and s.players[1].vp == 2


def test_captain_harbor_one_extra_point_per_load():
    """000_5b629d4347a4e22c.txt: "Telkens als de eigenaar van de haven tijdens de
    kapiteinsfase goederen levert, krijgt hij daarvoor één punt meer."

    Two loads with an occupied harbor: 2 extra points.
    """
    s = _captain_table()
    setp(s, 1, goods={"corn": 2, "sugar": 3}, buildings={"harbor": 1})
    s, _ = choose(s, 0, "captain")
    s = act(s, load("corn", 0))
    s = act(s, load("sugar", 1))
    assert s.players[1].vp == 2 + 1 + 3 + 1


def test_captain_an_unoccupied_harbor_gives_nothing():
    """000_5b629d4347a4e22c.txt: "Alleen bezette gebouwen hebben een uitwerking".

    No colonist on the harbor: no extra point.
    """
    s = _captain_table()
    setp(s, 1, goods={"corn": 2}, buildings={"harbor": 0})
    s, _ = choose(s, 0, "captain")
    s = act(s, load("corn", 0), seat=1)
    assert s.players[1].vp == 2


def test_captain_wharf_ships_all_barrels_of_one_kind():
    """000_5b629d4347a4e22c.txt: "in plaats van op één van de 3 schepen te laden, legt hij
    alle eigen goederensteentjes van één willekeurige soort in de algemene voorraad terug en
    krijgt de daarbij behorende punten."

    The wharf takes all 7 sugar, however small the ships, for 7 VP, back to the supply.
    """
    s = _captain_table()
    setp(s, 1, goods={"sugar": 7, "corn": 1}, buildings={"wharf": 1})
    before = supply(s, "sugar")
    s, _ = choose(s, 0, "captain")
    assert wharf("sugar") in legal(s) and wharf("corn") in legal(s)
    s = act(s, wharf("sugar"))
    assert s.players[1].vp >= 7 and supply(s, "sugar") == before + 7
    assert s.players[1].goods[SUGAR] == 0


def test_captain_wharf_takes_a_kind_already_afloat():
    """000_5b629d4347a4e22c.txt: "Het eigen 'werfship' neemt ook - in tegenstelling tot de
    drie schepen - een goederensoort op, die al op één van de schepen aanwezig is".

    Sugar is on the full 6-ship; the wharf still ships sugar.
    """
    s = _captain_table()
    set_ships(s, (4, None, 0), (5, None, 0), (6, "sugar", 6))
    setp(s, 1, goods={"sugar": 3}, buildings={"wharf": 1})
    s, _ = choose(s, 0, "captain")
    assert wharf("sugar") in legal(s)
    s = act(s, wharf("sugar"))
    assert s.players[1].vp == 3 and goods_of(s, 1) == {}


def test_captain_wharf_only_once_per_phase():
    """000_5b629d4347a4e22c.txt: "De werf kan door zijn eigenaar slechts één keer per fase
    gebruikt worden. Het tijdstip waarop mag de speler zelf bepalen."

    After using the wharf, his next turn offers only the ships.
    """
    s = _captain_table()
    set_ships(s, (4, None, 0), (5, None, 0), (6, "sugar", 6))
    setp(s, 1, goods={"sugar": 3, "corn": 1, "coffee": 2}, buildings={"wharf": 1})
    s, _ = choose(s, 0, "captain")
    assert wharf("corn") in legal(s)
    s = act(s, wharf("sugar"))
    assert GAME.to_move(s) == 1
    assert legal(s) and all(a["type"] == "load" for a in legal(s))
    s = act(s, load("coffee", 1))  # then the corn on the 4-ship, played at once
    assert s.players[1].vp == 3 + 2 + 1 and goods_of(s, 1) == {}


def test_captain_wharf_is_optional():
    """000_5b629d4347a4e22c.txt: "Een speler is echter niet verplicht zijn paarse gebouwen te
    gebruiken, wanneer hij dat niet wil (is vooral bij de werf van betekenis, zie verder.)"

    With nothing to load on the ships, the wharf owner may decline.
    """
    s = _captain_table()
    set_ships(s, (4, "corn", 4), (5, None, 0), (6, None, 0))
    setp(s, 1, goods={"corn": 3}, buildings={"wharf": 1, "small_warehouse": 1})
    s, _ = choose(s, 0, "captain")
    assert sorted(legal(s), key=str) == sorted([wharf("corn"), PASS], key=str)
    s = act(s, PASS)
    assert s.players[1].vp == 0 and goods_of(s, 1) == {"corn": 3}


def test_captain_wharf_is_an_alternative_to_loading_not_a_pass():
    """004_800c979a45a72a97.txt: "Lorsque vient son tour durant la phase d'expédition, le
    joueur doit obligatoirement soit charger des marchandises à bord d'un navire, soit
    utiliser son quai."

    When a load is possible the wharf owner must load or use the wharf.
    """
    s = _captain_table()
    setp(s, 1, goods={"corn": 3, "coffee": 2}, buildings={"wharf": 1})
    s, _ = choose(s, 0, "captain")
    assert PASS not in legal(s)
    assert wharf("coffee") in legal(s) and load("corn", 0) in legal(s)


def test_storage_each_player_keeps_one_barrel():
    """000_5b629d4347a4e22c.txt: "In principe kan elke speler één goederensteen opslaan. Voor
    elke volgende goederensteen moet de speler over bezette pakhuizen beschikken. Is dit niet
    het geval, dan moet hij alle goederen die hij niet kan opslaan bij de algemene
    goederenvoorraad terugleggen." and "Kan een speler niet al zijn goederen opslaan, dan mag
    hij kiezen welke hij opslaat".

    The player chooses which one barrel he keeps; the rest return to the supply.
    """
    s = _captain_table()
    set_ships(s, (4, "corn", 4), (5, "indigo", 5), (6, "sugar", 6))
    setp(s, 1, goods={"corn": 3, "indigo": 2})
    corn = supply(s, "corn")
    s, _ = choose(s, 0, "captain")
    assert GAME.view(s, None)["phase"] == "storage" and GAME.to_move(s) == 1
    assert sorted(legal(s), key=str) == sorted([store([], "corn"), store([], "indigo")], key=str)
    s = act(s, store([], "indigo"))
    assert goods_of(s, 1) == {"indigo": 1}
    assert supply(s, "corn") == corn + 3 + 4  # his 3, and the full ship's 4


@pytest.mark.parametrize(
    "buildings, kept",
    [
        ({"small_warehouse": 1}, {"corn": 3, "indigo": 1}),
        ({"large_warehouse": 1}, {"corn": 3, "indigo": 2, "sugar": 1}),
        (
            {"small_warehouse": 1, "large_warehouse": 1},
            {"corn": 3, "indigo": 2, "sugar": 4, "tobacco": 1},
        ),
        ({"small_warehouse": 0, "large_warehouse": 0}, {"corn": 1}),
    ],
)
def test_storage_warehouses_keep_whole_kinds(buildings, kept):
    """000_5b629d4347a4e22c.txt: "De eigenaar van een klein pakhuis mag aan het einde van een
    kapiteinsfase - naast de ene goederensteen die elke speler mag opslaan - nog een
    onbeperkt aantal stenen van één andere soort opslaan."; "De eigenaar van een groot
    pakhuis mag ... nog een onbeperkte hoeveelheid stenen van twee andere soorten opslaan.
    Aanwijzing: Bezit een speler een groot en een klein pakhuis, kan hij tot 3
    goederensoorten in gewenste hoeveelheid plus een goederensteen van een vierde soort
    opslaan."

    Small warehouse: 1 kind + 1 barrel; large: 2 kinds + 1; both: 3 kinds + 1;
    unoccupied: just 1 barrel.
    """
    s = _captain_table()
    set_ships(s, (4, "corn", 4), (5, "indigo", 5), (6, "sugar", 6))
    setp(
        s,
        1,
        goods={"corn": 3, "indigo": 2, "sugar": 4, "tobacco": 2, "coffee": 2},
        buildings=buildings,
    )
    s, _ = choose(s, 0, "captain")
    stored = [k for k, n in kept.items() if n > 1]
    single = [k for k, n in kept.items() if n == 1][0]
    assert store(stored, single) in legal(s)
    s = act(s, store(stored, single))
    assert goods_of(s, 1) == kept


def test_storage_a_warehouse_does_not_excuse_from_loading():
    """000_5b629d4347a4e22c.txt: "Het opslaan beschermt de speler niet tegen de dwang om
    goederen te leveren, maar beschermt alleen na het leveren tegen het terugleggen in de
    algemene voorraad."

    An occupied warehouse owner must still load what he can.
    """
    s = _captain_table()
    setp(s, 1, goods={"coffee": 3}, buildings={"large_warehouse": 1})
    s, _ = choose(s, 0, "captain")
    assert PASS not in legal(s)
    s = act(s, load("coffee", 1), seat=1)
    assert goods_of(s, 1) == {} and s.players[1].vp == 3


def test_captain_full_ships_are_unloaded_partly_loaded_ships_keep_their_cargo():
    """000_5b629d4347a4e22c.txt: "Als laatste in de kapiteinsfase lost de kapitein alle volle
    schepen en sorteert de goederen weer in de algemene voorraad. Schepen die niet volledig
    gevuld zijn, worden echter niet gelost."

    The filled 4-ship goes back to the supply; the 5-ship keeps its 2 sugar.
    """
    s = _captain_table()
    set_ships(s, (4, "corn", 1), (5, "sugar", 1), (6, None, 0))
    setp(s, 1, goods={"corn": 3})
    setp(s, 2, goods={"sugar": 1})
    corn = supply(s, "corn")
    s, _ = choose(s, 0, "captain")
    assert ship_view(s) == [(4, None, 0), (5, "sugar", 2), (6, None, 0)]
    assert supply(s, "corn") == corn + 4


def test_captain_storage_is_checked_only_at_the_end_of_the_captain_phase():
    """000_5b629d4347a4e22c.txt: "Ter verduidelijking: niet aan het einde van elke fase, maar
    alleen aan het einde van de kapiteinsfase wordt gecontroleerd of de spelers de
    mogelijkheid hebben om goederen op te slaan."

    Other phases leave any number of barrels with a player.
    """
    s = table(3)
    setp(s, 1, goods={"corn": 4, "indigo": 3}, tiles={"corn": 2}, worked={"corn": 2})
    s = act(choose(s, 0, "craftsman")[0], role("trader"), seat=1)
    s = act(s, PASS)
    assert goods_of(s, 1) == {"corn": 6, "indigo": 3}


def test_captain_chips_run_out_players_keep_scoring_and_the_round_ends_the_game():
    """000_5b629d4347a4e22c.txt: "Tijdens de kapiteinsfase worden alle puntfiches gebruikt.
    (Zijn de fiches op, vóór alle spelers in deze kapiteinsfase hun punten hebben gekregen,
    dan noteren de betrokken spelers hun opbrengst op een blad papier.)"
    004_800c979a45a72a97.txt: "Dans ce cas, les autres points de victoire gagnés jusqu'à la
    fin du tour doivent être notés par écrit."

    3 chips left: the captain's 5 and the next player's 3 are all scored; the rest of
    the round is played, then the game is over.
    """
    s = _quiet_table(3, governor=0)
    s.vp_supply = 3
    set_ships(s, (4, None, 0), (5, None, 0), (6, "coffee", 1))
    setp(s, 0, goods={"corn": 4})
    setp(s, 1, goods={"sugar": 3})
    s = act(s, role("captain"))
    s = act(s, load("corn", 0))  # then seat 1's sugar: the 5-ship, played at once
    assert [p.vp for p in s.players] == [5, 3, 0]
    assert not GAME.is_over(s) and GAME.to_move(s) == 1
    s = act(s, role("trader"))  # nobody has goods left: nothing to do
    assert not GAME.is_over(s)
    s = act(s, role("craftsman"))  # nobody has plantations
    assert GAME.is_over(s)
    assert [sc.breakdown[0] for sc in GAME.outcome(s).scores] == [
        ("chips", 5),
        ("chips", 3),
        ("chips", 0),
    ]


def test_captain_the_last_chip_taken_exactly_ends_the_game_after_the_round():
    """000_5b629d4347a4e22c.txt: "Tijdens de kapiteinsfase worden alle puntfiches gebruikt."

    Exactly the last chips taken: the game ends after the round.
    """
    s = _quiet_table(3, governor=0)
    s.vp_supply = 4
    setp(s, 1, goods={"corn": 4})
    s = act(s, role("captain"))
    s = act(s, load("corn", 0), seat=1)
    assert GAME.view(s, None)["vp_supply"] == 0 and not GAME.is_over(s)
    s = act(s, role("trader"))
    s = act(s, role("craftsman"))
    assert GAME.is_over(s)


def test_end_two_players_play_all_six_role_choices_of_the_last_round():
    """000_5b629d4347a4e22c.txt: "Het spel eindigt aan het einde van de ronde waarin aan
    minstens één van de volgende drie voorwaarden voldaan wordt" and (2-player variant)
    "totdat de beide spelers ieder drie rollen hebben gekozen".

    Two players: a game end met at the first choice leaves five more choices.
    """
    s = _quiet_table(2, governor=0)
    s.face_up, s.quarries = [], 0
    small = [n for n, b in BUILDINGS.items() if not b.large and n != "small_market"]
    setp(s, 0, doubloons=5, buildings={n: 0 for n in small[:11]})
    s = act(s, role("builder"))
    s = act(s, build("small_market"))
    for r in ("craftsman", "trader", "captain", "prospector"):
        assert not GAME.is_over(s)
        s = act(s, role(r))
    assert not GAME.is_over(s) and GAME.to_move(s) == 1
    s = act(s, role("settler"))
    assert GAME.is_over(s) and GAME.legal_actions(s, 0) == GAME.legal_actions(s, 1) == []


# =============================================================================
# End of the game and final scoring ("EINDE VAN HET SPEL")
# =============================================================================


def test_score_is_chips_plus_building_points_plus_occupied_large_bonuses():
    """000_5b629d4347a4e22c.txt: "Elke speler telt op: de waarde van zijn puntfiches + de
    punten van zijn gebouwen (roodbruin getal bovenaan rechts) + de extra punten van zijn
    bezette grote gebouwen".

    12 chips + harbor 3 + small market 1 + fortress 4 + fortress bonus (7 colonists
    // 3 = 2) = 22.
    """
    s = table(3)
    setp(
        s,
        0,
        vp=12,
        tiles={"corn": 3},
        worked={"corn": 3},
        san_juan=1,
        buildings={"harbor": 1, "small_market": 1, "fortress": 1},
    )
    out = game_over_now(s)
    assert out.scores[0].total == 12 + 3 + 1 + 4 + 2


def test_score_buildings_count_even_when_unoccupied_large_bonus_only_when_occupied():
    """000_5b629d4347a4e22c.txt: "Opgelet! De punten van een gebouw tellen ook wanneer het
    niet bezet is. (Zo brengen bijvoorbeeld 5 grote gebouwen elk 4 punten op, ook wanneer ze
    niet bezet zijn.) De extra punten van de 5 grote gebouwen worden alleen toegekend
    wanneer ze bezet zijn!"

    Five empty large buildings: 5 x 4 = 20 points and no bonus.
    """
    s = table(3)
    large = {n: 0 for n, b in BUILDINGS.items() if b.large}
    setp(s, 0, vp=20, tiles={"corn": 12}, buildings={**large, "small_market": 1})
    out = game_over_now(s)
    assert out.scores[0].total == 20 + 5 * 4 + 1


def test_score_customs_house_counts_points_scored_after_the_chips_ran_out():
    """004_800c979a45a72a97.txt (Douane): "Le joueur ne compte pour cela que ses points de
    victoire en jetons (et éventuellement ceux marqués après épuisement du stock de jetons
    mais avant la fin du dernier tour)".

    6 chips, then 5 more points "on paper" in the last captain phase: 11 // 4 = 2.
    """
    s = _quiet_table(3, governor=0)
    s.vp_supply = 2
    set_ships(s, (4, None, 0), (5, "sugar", 1), (6, "coffee", 1))
    setp(s, 0, vp=6, goods={"corn": 4}, buildings={"customs_house": 1})
    s = act(s, role("captain"))  # 4 corn: only the 4-ship is empty
    s = act(s, role("trader"))
    s = act(s, role("craftsman"))
    assert GAME.is_over(s)
    score = GAME.outcome(s).scores[0]
    assert ("chips", 11) in score.breakdown and ("Customs house", 2) in score.breakdown


def test_score_most_points_wins():
    """000_5b629d4347a4e22c.txt: "De speler met de meeste punten wint het spel."

    The highest total wins alone.
    """
    s = table(3)
    setp(s, 0, vp=10)
    setp(s, 1, vp=11)
    setp(s, 2, vp=3, buildings={"harbor": 0})
    out = game_over_now(s)
    assert [sc.total for sc in out.scores] == [10, 11, 6]
    assert out.winners == (1,)


def test_score_tie_broken_by_doubloons_plus_goods():
    """000_5b629d4347a4e22c.txt: "Bij gelijke stand wint de speler die nog de meeste
    dubloenen en goederen heeft (1 goederensteen-tje = 1 dubloon)."

    Equal points: 3 doubloons + 2 barrels beat 4 doubloons.
    """
    s = table(3)
    setp(s, 0, vp=10, doubloons=4, goods={})
    setp(s, 1, vp=10, doubloons=3, goods={"corn": 1, "coffee": 1})
    setp(s, 2, vp=9, doubloons=30)
    out = game_over_now(s)
    assert out.winners == (1,)
    assert [sc.tiebreak for sc in out.scores] == [4, 5, 30]


def test_score_still_tied_players_share_the_win():
    """000_5b629d4347a4e22c.txt: "De speler met de meeste punten wint het spel. Bij gelijke
    stand wint de speler die nog de meeste dubloenen en goederen heeft".  The rules name no
    further tie-break, so players equal on both share the victory.
    """
    s = table(3)
    setp(s, 0, vp=10, doubloons=2, goods={"corn": 1})
    setp(s, 1, vp=9)
    setp(s, 2, vp=10, doubloons=3)
    assert game_over_now(s).winners == (0, 2)


def test_view_shows_a_player_only_his_own_chips():
    """000_5b629d4347a4e22c.txt: "De punten mag men - in tegenstelling tot het geld en de
    goederen - wél verborgen houden voor de medespelers, door ze met de rugzijde naar boven
    op de windroos te leggen."

    Each seat sees its own chips; the others' are hidden (doubloons and goods are not).
    """
    s = table(3)
    for seat, vp in enumerate((4, 7, 9)):
        setp(s, seat, vp=vp, doubloons=seat, goods={"corn": seat})
    for viewer in range(3):
        players = GAME.view(s, viewer)["players"]
        assert [p["vp"] for p in players] == [
            vp if i == viewer else None for i, vp in enumerate((4, 7, 9))
        ]
        assert [p["doubloons"] for p in players] == [0, 1, 2]
        assert [p["goods"]["corn"] for p in players] == [0, 1, 2]
    assert [p["vp"] for p in GAME.view(s, None)["players"]] == [None] * 3
    assert "stack" not in GAME.view(s, 0)  # nor the order of the face-down tiles


# =============================================================================
# What a timed-out seat plays (GAME.default_action, documented in game.py)
# =============================================================================


def _assert_default(s, want: dict) -> None:
    got = GAME.default_action(s)
    assert got in legal(s)
    assert got == want


def test_default_role_is_the_prospector_when_on_offer():
    """game.py: "Prospector when on offer (nobody else acts: the closest to a pass)"."""
    s = table(4)
    s.roles["builder"] = 3
    _assert_default(s, role("prospector"))


def test_default_role_without_prospector_is_the_richest_role_first_in_table_order():
    """game.py: "otherwise the role with the most doubloons, first in table order." """
    s = table(3)
    s.roles.update(mayor=2, trader=2, settler=1)
    _assert_default(s, role("mayor"))
    s = table(3)
    _assert_default(s, role("settler"))


def test_default_settler_builder_trader_pass():
    """game.py: "What a timed-out seat plays: a pass where allowed" (interface.py)."""
    s = _settler_table()
    _assert_default(choose(s, 0, "settler")[0], PASS)
    s = _builder_table()
    setp(s, 0, doubloons=10)
    _assert_default(choose(s, 0, "builder")[0], PASS)
    s = _trader_table()
    setp(s, 0, goods={"coffee": 1})
    _assert_default(choose(s, 0, "trader")[0], PASS)


def test_default_mayor_restores_the_last_arrangement_then_fills_buildings_first():
    """mayor.py: ""auto": the previous arrangement, then the new colonists on empty
    circles in the order of AUTO_ORDER" (buildings first, then coffee ... corn, quarry).
    """
    s = _mayor_table(3, ship=3)
    setp(
        s,
        0,
        tiles={"corn": 2, "coffee": 1, "quarry": 1},
        worked={"corn": 1, "quarry": 1},
        buildings={"coffee_roaster": 0, "small_market": 1},
    )
    s, _ = choose(s, 0, "mayor")  # 3 old + 2 new = 5 colonists for 7 circles
    _assert_default(s, AUTO)
    s = act(s, AUTO)
    p = s.players[0]
    assert p.worked == [1, 0, 0, 0, 0, 1]
    assert p.buildings == {"coffee_roaster": 2, "small_market": 1}


def test_default_craftsman_extra_barrel_is_the_most_valuable():
    """game.py: craftsman: "max(opts, key=lambda a: PRICE[...])" - the dearest kind."""
    s = table(3)
    setp(
        s,
        0,
        tiles={"corn": 1, "tobacco": 1, "indigo": 1},
        worked={"corn": 1, "tobacco": 1, "indigo": 1},
        buildings={"tobacco_storage": 1, "small_indigo_plant": 1},
    )
    s = _craftsman(s)
    _assert_default(s, bonus("tobacco"))


def test_default_captain_loads_the_most_barrels():
    """game.py: "else the load that ships the most barrels, first in list order on a tie." """
    s = _captain_table()
    setp(s, 0, goods={"corn": 2, "sugar": 4, "coffee": 4})
    s, _ = choose(s, 0, "captain")
    _assert_default(s, load("sugar", 0))  # 4 sugar and 4 coffee: sugar comes first


def test_default_captain_passes_when_only_the_wharf_is_left():
    """game.py: "Passing where allowed (only the wharf is left)"."""
    s = _captain_table()
    set_ships(s, (4, "corn", 4), (5, None, 0), (6, None, 0))
    setp(s, 1, goods={"corn": 3}, buildings={"wharf": 1})
    s, _ = choose(s, 0, "captain")
    _assert_default(s, PASS)


def test_default_storage_keeps_the_most_barrels_then_the_most_valuable():
    """storage.py: "The default: keep the most barrels, then the most valuable ones." """
    s = _captain_table()
    set_ships(s, (4, "corn", 4), (5, "indigo", 5), (6, "sugar", 6))
    setp(s, 1, goods={"corn": 3, "indigo": 3, "coffee": 1}, buildings={"small_warehouse": 1})
    s, _ = choose(s, 0, "captain")
    _assert_default(s, store(["indigo"], "coffee"))


def test_default_action_is_legal_in_every_kind_of_decision():
    """interface.py: "What a timed-out seat plays: a pass where allowed, else a fixed
    choice." - whatever the decision, the default is one of the legal actions (random
    games, the default checked at every step).
    """
    rnd = random.Random(5)
    seen = set()
    for n in (2, 3, 4, 5):
        for seed in range(3):
            s = GAME.new_game(n, {}, 100 * n + seed)
            while not GAME.is_over(s):
                a = GAME.default_action(s)
                assert a in legal(s)
                seen.add(GAME.view(s, None)["phase"])
                s, _ = GAME.apply(s, GAME.to_move(s), rnd.choice(legal(s)))
    assert seen == {
        "role",
        "settler",
        "mayor",
        "builder",
        "craftsman",
        "trader",
        "captain",
        "storage",
    }
