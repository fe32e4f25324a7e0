"""Components and setup tables, from the rulebooks in shared/rules.

Sources: Dutch rules 000_… ("VOORBEREIDING VAN HET SPEL", "VARIANT VOOR 2
SPELERS"), the component table of the server manual 003_…, and the building
overview card (cost, points, column, circles).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.words import N_

CORN, INDIGO, SUGAR, TOBACCO, COFFEE, QUARRY = range(6)
# The names are also the goods' ids; N_ puts them in the catalogs.
GOODS = (N_("corn"), N_("indigo"), N_("sugar"), N_("tobacco"), N_("coffee"))
TILES = GOODS + (N_("quarry"),)
KIND_INDEX = {name: i for i, name in enumerate(TILES)}
PRICE = (0, 1, 2, 3, 4)  # trading house: corn 0 … coffee 4
GOODS_SUPPLY = (10, 11, 11, 9, 9)
PLANTATION_TILES = (10, 12, 11, 9, 8)  # corn, indigo, sugar, tobacco, coffee
QUARRY_TILES = 8
DOUBLOONS_TOTAL = 46 + 8 * 5
ISLAND_SPACES = 12
CITY_SPACES = 12
TRADING_HOUSE_SIZE = 4
FACTORY_BONUS = (0, 0, 1, 2, 3, 5)  # by number of kinds produced


@dataclass(frozen=True)
class Setup:
    doubloons: int
    start_tiles: tuple[int, ...]  # by seat counted from the first governor
    vp_chips: int
    colonists: int  # in the supply; the ship starts with one per player
    ships: tuple[int, ...]
    roles: tuple[str, ...]
    roles_per_player: int = 1
    removed_plantations: int = 0  # of each kind (2-player variant)
    removed_quarries: int = 0
    removed_goods: int = 0
    small_purple: int = 2  # copies of each small violet building
    production_small: int = 4  # copies of small indigo plant / small sugar mill
    production_large: int = 3  # copies of the four large production buildings


BASE_ROLES = ("settler", "mayor", "builder", "craftsman", "trader", "captain")
SETUPS = {
    2: Setup(
        3,
        (INDIGO, CORN),
        65,
        40,
        (4, 6),
        BASE_ROLES + ("prospector",),
        roles_per_player=3,
        removed_plantations=3,
        removed_quarries=3,
        removed_goods=2,
        small_purple=1,
        production_small=2,
        production_large=2,
    ),
    3: Setup(2, (INDIGO, INDIGO, CORN), 75, 55, (4, 5, 6), BASE_ROLES),
    4: Setup(3, (INDIGO, INDIGO, CORN, CORN), 100, 75, (5, 6, 7), BASE_ROLES + ("prospector",)),
    5: Setup(
        4,
        (INDIGO, INDIGO, INDIGO, CORN, CORN),
        122,
        95,
        (6, 7, 8),
        BASE_ROLES + ("prospector", "prospector2"),
    ),
}


@dataclass(frozen=True)
class Building:
    """One building card.  ``effects`` names the hooks the phases look up;
    ``text`` is the short effect text a page or an email shows."""

    name: str
    title: str
    cost: int
    vp: int
    column: int  # caps the occupied quarries that lower the cost
    circles: int
    produces: int | None = None  # a production building's good
    large: bool = False  # the 2-space buildings
    effects: tuple[str, ...] = ()
    text: str = ""
    expansion: bool = False  # from section 7 of 003_… (the expansion set)
    src: str = ""  # where an expansion value comes from

    @property
    def size(self) -> int:
        return 2 if self.large else 1

    @property
    def violet(self) -> bool:
        return self.produces is None


def _b(name, title, cost, vp, column, circles, produces=None, large=False, effects=(), text=""):
    return Building(name, title, cost, vp, column, circles, produces, large, tuple(effects), text)


# Expansion rows (003_d47d98a651436bc3.txt section 7, lines 328-374): cost and
# points as printed there.  What 003 leaves open comes from the published
# "Puerto Rico: Expansion I - New Buildings" (alea 2004; the 2011 edition's
# "All buildings in detail" sheet), each noted in ``src``:
#   column   published expansion: the building board puts each building in the
#            column of the base buildings of the same cost (1-3: column 1,
#            4-6: 2, 7-9: 3, large: 4), which is also 002_… line 107's rule
#            "bei den ersten sechs Gebäuden … ein Steinbruch … usw."
#   copies   published expansion: small violet buildings come in pairs and
#            large ones singly, like the base set (003_… lines 248-250), one
#            copy each in the 2-player variant (small_purple)
#   circles  published expansion: one circle each, except the Guest house (2)
#            and the Statue (none: 003_… line 368)
def _x(name, title, cost, vp, circles, effects, text, src, large=False):
    column = 4 if large else (cost + 2) // 3
    return Building(
        name, title, cost, vp, column, circles, None, large, tuple(effects), text, True, src
    )


CARDS: dict[str, Building] = {
    b.name: b
    for b in (
        _b(
            "small_indigo_plant",
            N_("Small indigo plant"),
            1,
            1,
            1,
            1,
            INDIGO,
            text=N_("Makes 1 indigo with an occupied indigo plantation."),
        ),
        _b(
            "small_sugar_mill",
            N_("Small sugar mill"),
            2,
            1,
            1,
            1,
            SUGAR,
            text=N_("Makes 1 sugar with an occupied sugar plantation."),
        ),
        _b(
            "small_market",
            N_("Small market"),
            1,
            1,
            1,
            1,
            effects=["trade_bonus_1"],
            text=N_("Trader: +1 doubloon when you sell."),
        ),
        _x(
            "aqueduct",
            N_("Aqueduct"),
            1,
            1,
            1,
            ["aqueduct"],
            N_("Craftsman: +1 indigo and +1 sugar when your indigo plant or sugar mill produces."),
            "003_… line 328-330; 'at least one barrel' from the published expansion sheet",
        ),
        _b(
            "hacienda",
            N_("Hacienda"),
            2,
            1,
            1,
            1,
            effects=["extra_plantation"],
            text=N_("Settler: first draw an extra face-down plantation."),
        ),
        _b(
            "construction_hut",
            N_("Construction hut"),
            2,
            1,
            1,
            1,
            effects=["quarry_choice"],
            text=N_("Settler: you may take a quarry instead of a plantation."),
        ),
        _x(
            "forest_house",
            N_("Forest house"),
            2,
            1,
            1,
            ["forest"],
            N_(
                "Settler: you may take a forest (a face-down tile) instead of a plantation; "
                "builder: -1 doubloon per 2 forests."
            ),
            "003_… lines 331-334; the forest is the top tile of the face-down stack placed face "
            "down, no quarry-column limit on the discount, a Hacienda draw may be turned into a "
            "forest, a Hospice colonist goes to San Juan: published expansion sheet",
        ),
        _x(
            "black_market",
            N_("Black market"),
            2,
            1,
            1,
            ["black_market"],
            N_(
                "Builder: pay up to 3 doubloons of a price you cannot pay with 1 good, "
                "1 colonist and/or 1 victory point."
            ),
            "003_… lines 335-337; used only to make up a shortfall, never below 0, the "
            "colonist may come from San Juan or any place: published expansion sheet",
        ),
        _b(
            "small_warehouse",
            N_("Small warehouse"),
            3,
            1,
            1,
            1,
            effects=["store_kind_1"],
            text=N_("Captain: keep all barrels of one kind."),
        ),
        _x(
            "storehouse",
            N_("Storehouse"),
            3,
            1,
            1,
            ["store_barrels_3"],
            N_("Captain: keep 3 more barrels of any kinds."),
            "003_… lines 338-339; 'in addition to the one barrel' from the published sheet",
        ),
        _b(
            "indigo_plant",
            N_("Indigo plant"),
            3,
            2,
            2,
            3,
            INDIGO,
            text=N_("Makes up to 3 indigo with occupied indigo plantations."),
        ),
        _b(
            "sugar_mill",
            N_("Sugar mill"),
            4,
            2,
            2,
            3,
            SUGAR,
            text=N_("Makes up to 3 sugar with occupied sugar plantations."),
        ),
        _b(
            "hospice",
            N_("Hospice"),
            4,
            2,
            2,
            1,
            effects=["settler_colonist"],
            text=N_("Settler: a colonist on the tile you take."),
        ),
        _x(
            "guest_house",
            N_("Guest house"),
            4,
            2,
            2,
            ["guests"],
            N_(
                "Mayor: park up to 2 colonists here; move them to an empty circle whenever you "
                "decide later."
            ),
            "003_… lines 340-343; 2 circles, guests are not a function of the house: "
            "published expansion",
        ),
        _b(
            "office",
            N_("Office"),
            5,
            2,
            2,
            1,
            effects=["sell_duplicate"],
            text=N_("Trader: you may sell a kind already in the trading house."),
        ),
        _b(
            "large_market",
            N_("Large market"),
            5,
            2,
            2,
            1,
            effects=["trade_bonus_2"],
            text=N_("Trader: +2 doubloons when you sell."),
        ),
        _x(
            "trading_post",
            N_("Trading post"),
            5,
            2,
            1,
            ["trading_post"],
            N_(
                "Trader: sell to your own trading post instead, at full price plus the trader's "
                "bonus, no market bonus, even when the house is full."
            ),
            "003_… lines 344-349",
        ),
        _x(
            "church",
            N_("Church"),
            5,
            2,
            1,
            ["church"],
            N_("Builder: +1 VP when you build a 2- or 3-VP building, +2 VP for a large one."),
            "003_… lines 350-352; chips from the supply as in shipping: published expansion",
        ),
        _b(
            "large_warehouse",
            N_("Large warehouse"),
            6,
            2,
            2,
            1,
            effects=["store_kind_2"],
            text=N_("Captain: keep all barrels of two kinds."),
        ),
        _x(
            "small_wharf",
            N_("Small wharf"),
            6,
            2,
            1,
            ["small_wharf"],
            N_(
                "Captain: once per phase ship all barrels of any kinds on your own ship, "
                "1 VP per 2 barrels."
            ),
            "003_… lines 353-355; once per captain phase, a shipment like the Wharf's "
            "(Harbor and the captain's privilege count): published expansion",
        ),
        _b(
            "tobacco_storage",
            N_("Tobacco storage"),
            5,
            3,
            3,
            3,
            TOBACCO,
            text=N_("Makes up to 3 tobacco with occupied tobacco plantations."),
        ),
        _b(
            "coffee_roaster",
            N_("Coffee roaster"),
            6,
            3,
            3,
            2,
            COFFEE,
            text=N_("Makes up to 2 coffee with occupied coffee plantations."),
        ),
        _b(
            "factory",
            N_("Factory"),
            7,
            3,
            3,
            1,
            effects=["factory"],
            text=N_("Craftsman: 1/2/3/5 doubloons for producing 2/3/4/5 kinds."),
        ),
        _x(
            "lighthouse",
            N_("Lighthouse"),
            7,
            3,
            1,
            ["lighthouse"],
            N_("Captain: +1 doubloon per shipment; the captain gets +1 more once."),
            "003_… lines 356-358",
        ),
        _b(
            "university",
            N_("University"),
            8,
            3,
            3,
            1,
            effects=["builder_colonist"],
            text=N_("Builder: a colonist on the building you build."),
        ),
        _b(
            "harbor",
            N_("Harbor"),
            8,
            3,
            3,
            1,
            effects=["ship_bonus"],
            text=N_("Captain: +1 VP per shipment."),
        ),
        _x(
            "specialty_factory",
            N_("Specialty factory"),
            8,
            3,
            1,
            ["specialty_factory"],
            N_("Craftsman: doubloons = your largest production of one kind (not corn) minus 1."),
            "003_… lines 359-362",
        ),
        _x(
            "library",
            N_("Library"),
            8,
            3,
            1,
            ["library"],
            N_("Your role privileges count twice."),
            "003_… lines 363-364; what doubled means per role: published expansion sheet "
            "(see phases and tests)",
        ),
        _x(
            "union_hall",
            N_("Union hall"),
            8,
            3,
            1,
            ["union_hall"],
            N_("Captain: before shipping, 1 VP per 2 barrels you have."),
            "003_… lines 365-366 (cost 8 as printed there)",
        ),
        _b(
            "wharf",
            N_("Wharf"),
            9,
            3,
            3,
            1,
            effects=["wharf"],
            text=N_("Captain: once per phase ship all barrels of one kind on your own ship."),
        ),
        _b(
            "guild_hall",
            N_("Guild hall"),
            10,
            4,
            4,
            1,
            large=True,
            effects=["score_guild_hall"],
            text=N_("End: 1 VP per small, 2 per large production building."),
        ),
        _b(
            "residence",
            N_("Residence"),
            10,
            4,
            4,
            1,
            large=True,
            effects=["score_residence"],
            text=N_("End: 4/5/6/7 VP for up to 9/10/11/12 island tiles."),
        ),
        _b(
            "fortress",
            N_("Fortress"),
            10,
            4,
            4,
            1,
            large=True,
            effects=["score_fortress"],
            text=N_("End: 1 VP per 3 colonists."),
        ),
        _b(
            "customs_house",
            N_("Customs house"),
            10,
            4,
            4,
            1,
            large=True,
            effects=["score_customs_house"],
            text=N_("End: 1 VP per 4 VP chips."),
        ),
        _b(
            "city_hall",
            N_("City hall"),
            10,
            4,
            4,
            1,
            large=True,
            effects=["score_city_hall"],
            text=N_("End: 1 VP per violet building."),
        ),
        _x(
            "statue",
            N_("Statue"),
            10,
            8,
            0,
            [],
            N_("8 VP; takes no colonist."),
            "003_… lines 367-368",
            large=True,
        ),
        _x(
            "cloister",
            N_("Cloister"),
            10,
            4,
            1,
            ["score_cloister"],
            N_("End: 1/3/6/10 VP for 1/2/3/4 sets of 3 like plantations or quarries."),
            "003_… lines 369-374; needs a colonist like the other large buildings "
            "(003_… lines 287-288)",
            large=True,
        ),
    )
}
# Every building card, base and expansion, in the order of the overview card
# (by cost, each expansion building after the base ones of its cost).
# ``BUILDINGS`` keeps its old meaning, the base game's cards.
BUILDINGS: dict[str, Building] = {n: b for n, b in CARDS.items() if not b.expansion}
BUILDING_ORDER = tuple(CARDS)

# Which buildings carry each effect: the phases ask "does this player have an
# occupied building with effect X", so a new building is one line of data.
EFFECT_BUILDINGS: dict[str, tuple[str, ...]] = {}
for _b_ in CARDS.values():
    for _e in _b_.effects:
        EFFECT_BUILDINGS.setdefault(_e, ())
        EFFECT_BUILDINGS[_e] += (_b_.name,)
PRODUCTION_BUILDINGS: tuple[tuple[str, ...], ...] = tuple(
    tuple(b.name for b in CARDS.values() if b.produces == g) for g in range(5)
)


BASE_SET = tuple(BUILDINGS)
VIOLET_SLOTS: dict[int, int] = {}  # base violet building types per cost: the "fit"
for _b_ in BUILDINGS.values():
    if _b_.violet:
        VIOLET_SLOTS[_b_.cost] = VIOLET_SLOTS.get(_b_.cost, 0) + 1


def building_supply(setup: Setup, names: tuple[str, ...] = BASE_SET) -> dict[str, int]:
    """How many copies of each building in ``names`` are on the overview card."""
    supply = {}
    for name in names:
        b = CARDS[name]
        if b.large:
            supply[b.name] = 1
        elif b.produces is None:
            supply[b.name] = setup.small_purple
        elif b.name.startswith("small_"):
            supply[b.name] = setup.production_small
        else:
            supply[b.name] = setup.production_large
    return supply
