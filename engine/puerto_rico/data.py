"""Components and setup tables, from the rulebooks in shared/rules.

Sources: Dutch rules 000_… ("VOORBEREIDING VAN HET SPEL", "VARIANT VOOR 2
SPELERS"), the component table of the server manual 003_…, and the building
overview card (cost, points, column, circles).
"""
from __future__ import annotations

from dataclasses import dataclass

CORN, INDIGO, SUGAR, TOBACCO, COFFEE, QUARRY = range(6)
GOODS = ("corn", "indigo", "sugar", "tobacco", "coffee")
TILES = GOODS + ("quarry",)
KIND_INDEX = {name: i for i, name in enumerate(TILES)}
PRICE = (0, 1, 2, 3, 4)          # trading house: corn 0 … coffee 4
GOODS_SUPPLY = (10, 11, 11, 9, 9)
PLANTATION_TILES = (10, 12, 11, 9, 8)   # corn, indigo, sugar, tobacco, coffee
QUARRY_TILES = 8
DOUBLOONS_TOTAL = 46 + 8 * 5
ISLAND_SPACES = 12
CITY_SPACES = 12
TRADING_HOUSE_SIZE = 4
FACTORY_BONUS = (0, 0, 1, 2, 3, 5)      # by number of kinds produced


@dataclass(frozen=True)
class Setup:
    doubloons: int
    start_tiles: tuple[int, ...]        # by seat counted from the first governor
    vp_chips: int
    colonists: int                      # in the supply; the ship starts with one per player
    ships: tuple[int, ...]
    roles: tuple[str, ...]
    roles_per_player: int = 1
    removed_plantations: int = 0        # of each kind (2-player variant)
    removed_quarries: int = 0
    removed_goods: int = 0
    small_purple: int = 2               # copies of each small violet building
    production_small: int = 4           # copies of small indigo plant / small sugar mill
    production_large: int = 3           # copies of the four large production buildings


BASE_ROLES = ("settler", "mayor", "builder", "craftsman", "trader", "captain")
SETUPS = {
    2: Setup(3, (INDIGO, CORN), 65, 40, (4, 6), BASE_ROLES + ("prospector",),
             roles_per_player=3, removed_plantations=3, removed_quarries=3,
             removed_goods=2, small_purple=1, production_small=2, production_large=2),
    3: Setup(2, (INDIGO, INDIGO, CORN), 75, 55, (4, 5, 6), BASE_ROLES),
    4: Setup(3, (INDIGO, INDIGO, CORN, CORN), 100, 75, (5, 6, 7),
             BASE_ROLES + ("prospector",)),
    5: Setup(4, (INDIGO, INDIGO, INDIGO, CORN, CORN), 122, 95, (6, 7, 8),
             BASE_ROLES + ("prospector", "prospector2")),
}


@dataclass(frozen=True)
class Building:
    """One building card.  ``effects`` names the hooks the phases look up."""

    name: str
    title: str
    cost: int
    vp: int
    column: int                 # caps the occupied quarries that lower the cost
    circles: int
    produces: int | None = None  # a production building's good
    large: bool = False          # the five 2-space buildings
    effects: tuple[str, ...] = ()

    @property
    def size(self) -> int:
        return 2 if self.large else 1

    @property
    def violet(self) -> bool:
        return self.produces is None


def _b(name, title, cost, vp, column, circles, produces=None, large=False, effects=()):
    return Building(name, title, cost, vp, column, circles, produces, large, tuple(effects))


BUILDINGS: dict[str, Building] = {b.name: b for b in (
    _b("small_indigo_plant", "Small indigo plant", 1, 1, 1, 1, INDIGO),
    _b("small_sugar_mill", "Small sugar mill", 2, 1, 1, 1, SUGAR),
    _b("small_market", "Small market", 1, 1, 1, 1, effects=["trade_bonus_1"]),
    _b("hacienda", "Hacienda", 2, 1, 1, 1, effects=["extra_plantation"]),
    _b("construction_hut", "Construction hut", 2, 1, 1, 1, effects=["quarry_choice"]),
    _b("small_warehouse", "Small warehouse", 3, 1, 1, 1, effects=["store_kind_1"]),
    _b("indigo_plant", "Indigo plant", 3, 2, 2, 3, INDIGO),
    _b("sugar_mill", "Sugar mill", 4, 2, 2, 3, SUGAR),
    _b("hospice", "Hospice", 4, 2, 2, 1, effects=["settler_colonist"]),
    _b("office", "Office", 5, 2, 2, 1, effects=["sell_duplicate"]),
    _b("large_market", "Large market", 5, 2, 2, 1, effects=["trade_bonus_2"]),
    _b("large_warehouse", "Large warehouse", 6, 2, 2, 1, effects=["store_kind_2"]),
    _b("tobacco_storage", "Tobacco storage", 5, 3, 3, 3, TOBACCO),
    _b("coffee_roaster", "Coffee roaster", 6, 3, 3, 2, COFFEE),
    _b("factory", "Factory", 7, 3, 3, 1, effects=["factory"]),
    _b("university", "University", 8, 3, 3, 1, effects=["builder_colonist"]),
    _b("harbor", "Harbor", 8, 3, 3, 1, effects=["ship_bonus"]),
    _b("wharf", "Wharf", 9, 3, 3, 1, effects=["wharf"]),
    _b("guild_hall", "Guild hall", 10, 4, 4, 1, large=True, effects=["score_guild_hall"]),
    _b("residence", "Residence", 10, 4, 4, 1, large=True, effects=["score_residence"]),
    _b("fortress", "Fortress", 10, 4, 4, 1, large=True, effects=["score_fortress"]),
    _b("customs_house", "Customs house", 10, 4, 4, 1, large=True,
       effects=["score_customs_house"]),
    _b("city_hall", "City hall", 10, 4, 4, 1, large=True, effects=["score_city_hall"]),
)}
BUILDING_ORDER = tuple(BUILDINGS)

# Which buildings carry each effect: the phases ask "does this player have an
# occupied building with effect X", so a new building is one line of data.
EFFECT_BUILDINGS: dict[str, tuple[str, ...]] = {}
for _b_ in BUILDINGS.values():
    for _e in _b_.effects:
        EFFECT_BUILDINGS.setdefault(_e, ())
        EFFECT_BUILDINGS[_e] += (_b_.name,)
PRODUCTION_BUILDINGS: tuple[tuple[str, ...], ...] = tuple(
    tuple(b.name for b in BUILDINGS.values() if b.produces == g) for g in range(5))


def building_supply(setup: Setup) -> dict[str, int]:
    """How many copies of each building are on the overview card."""
    supply = {}
    for b in BUILDINGS.values():
        if b.large:
            supply[b.name] = 1
        elif b.produces is None:
            supply[b.name] = setup.small_purple
        elif b.name.startswith("small_"):
            supply[b.name] = setup.production_small
        else:
            supply[b.name] = setup.production_large
    return supply
