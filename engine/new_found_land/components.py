"""Every component of Race to the New Found Land and every printed value.

THE ONE DATA FILE.  Plain literals only; ``data.py`` validates it on import
(counts, ranges, goods that exist, shapes that exist on the board) and raises
``ComponentError`` naming the bad entry.  A player who owns the game can
correct any value here and nothing else.

Provenance: every entry has ``"src"``:
  ``rulebook: …``       stated in, or following from, the Dutch rules
                        (shared/rules/001_…); the section is named.
  ``reconstructed: …``  our choice: the rulebook does not print it (it is on a
                        tile or board we have not seen); chosen to fit the
                        examples and to keep the game balanced.

Abstractions (documented once here):
  * Goods are ranked by value wood < cloth < iron < gold ("een minder
    waardevol product", Laden: iron may be swapped for the cheaper cloth).
  * Every ship (small, large, charter) shows a sailing value and a number on
    each of the three symbols: crate (1 or more), person (1 or 2) and
    spyglass (1 or more).  The rules read each action's number off any ship
    planned for it ("Bij Laden is het cijfer op de kist bepalend, bij
    Vestigen het cijfer op de personen, …") and describe person values 1
    and 2 only; planning puts no condition on which ship goes where, and a
    crate 0 would have no line in the Load table.  So no symbol is absent.
  * The board's islands are lists of named spaces.  Each space has a shape
    (square, bar, corner, tee) and the orientation printed on the board; a
    tile fits a space when its shape is the space's shape.  Tiles may be
    turned ("Het is toegestaan om een eilandtegel te draaien"), so the
    orientation never blocks a fit: it is kept for the board only.  Which
    space of an island a tile takes has no effect on the rules ("Het is niet
    van belang op welke positie de tegel op het eiland wordt gelegd"), so the
    engine lets players choose the island and takes that island's first free
    fitting space.
  * A bonus is a dict of goods and/or "points".

Each table's annotation (``dict[str, Any]``) only tells type checkers that
its values are of many kinds; correcting a value never touches it.
"""

from typing import Any

R = "rulebook"
X = "reconstructed"

GOODS: dict[str, Any] = {
    "order": ["wood", "cloth", "iron", "gold"],
    "supply": {"wood": 15, "cloth": 15, "iron": 12, "gold": 12},
    "src": "rulebook: Speelmateriaal (15 hout, 15 doek, 12 ijzer, 12 goud); the order by value "
    "follows Laden (ijzer → minder waardevol doek) and gold being the wild good "
    "(Schepen bouwen); goods are unlimited (Nog een laatste opmerking)",
}

MARKERS_PER_PLAYER: dict[str, Any] = {
    "value": 25,
    "src": "rulebook: Speelmateriaal (25 per spelerskleur); unlimited (Nog een laatste opmerking)",
}
ROUNDS: dict[str, Any] = {"value": 4, "src": "rulebook: Algemeen spelverloop (4 ronden)"}
OFFER: dict[str, Any] = {
    "small": 4,
    "large": 4,
    "contracts": 9,
    "src": "rulebook: Voorbereiding 3, 4, 7 and Schepen bouwen (aanbod van 8 schepen)",
}
START_IRON: dict[str, Any] = {
    "value": 1,
    "src": "rulebook: Voorbereiding 10 (iedere speler krijgt 1 ijzer)",
}
INCOME: dict[str, Any] = {
    "goods": {"wood": 1, "cloth": 1},
    "src": "rulebook: Landfase (1 hout en 1 doek)",
}
BASE_SHIPYARDS: dict[str, Any] = {
    "value": 3,
    "src": "rulebook: Portugal's extension gives 'maximaal 5 schepen "
    "in plaats van 4' with the extra shipyard, so 3 to start",
}
EXTRA_SHIPYARD: dict[str, Any] = {
    "cost": {"cloth": 1, "iron": 1},
    "src": "rulebook: Haven uitbreiden (nieuwe werf, 1 doek en 1 ijzer)",
}
SMALL_SHIP_COST: dict[str, Any] = {
    "cost": {"wood": 1, "cloth": 1},
    "src": "rulebook: Schepen bouwen (klein schip kost altijd 1 hout en 1 doek)",
}
LARGE_SHIP_POINTS: dict[str, Any] = {
    "value": 3,
    "src": "rulebook: Schepen bouwen example (krijgt hij ook 3 punten)",
}
LOAD_MAX_SHIPS: dict[str, Any] = {"value": 1, "src": "rulebook: Planningsfase (Laden: 1 schip)"}
GOAL_EXTRA_COST: dict[str, Any] = {
    "goods": 2,
    "src": "rulebook: Doelkaarten spelen (2 goederen naar keuze)",
}
FINAL_CARD_POINTS: dict[str, Any] = {
    "value": 2,
    "src": "rulebook: Eindtelling (2 punten per 1x- en doelkaart)",
}
FRAME_STEP_BACK: dict[str, Any] = {
    "value": 3,
    "src": "rulebook: Doelkaarten en speciale velden (3 velden achteruit)",
}

# -- nations (player boards) ---------------------------------------------------
# load: the good taken for crate value 1, 2, 3, … (index 0 = crate 1); it must
# cover the highest crate value of any ship plus Da Gama's 3.
# max: most ships per action for Settle / Deliver / Explore (Load is always 1).
NATIONS: list[dict[str, Any]] = [
    {
        "name": "Portugal",
        "number": 1,
        "load": ["wood", "cloth", "iron", "gold", "gold", "gold", "gold"],
        "max": {"settle": 2, "deliver": 3, "explore": 3},
        "extension": {
            "id": "portuguese_shipyard",
            "title": "shipyard",
            "cost": {"wood": 1, "iron": 1},
        },
        "src": "rulebook: name and the extension's effect (Bijlage: Portugal, werf); "
        "reconstructed: number, load table, maxima, extension cost",
    },
    {
        "name": "Spain",
        "number": 2,
        "load": ["wood", "cloth", "iron", "iron", "gold", "gold", "gold"],
        "max": {"settle": 3, "deliver": 2, "explore": 2},
        "extension": {
            "id": "colonial_oversight",
            "title": "colonial oversight",
            "cost": {"cloth": 1, "iron": 2},
        },
        "src": "rulebook: name and effect (Bijlage: Spanje, koloniale toezicht), 3 ships on Settle "
        "(Actiefase example, rood); reconstructed: number, load table, other maxima, cost",
    },
    {
        "name": "England",
        "number": 3,
        "load": ["wood", "wood", "iron", "gold", "gold", "gold", "gold"],
        "max": {"settle": 3, "deliver": 3, "explore": 2},
        "extension": {
            "id": "colonial_harbour",
            "title": "colonial harbour",
            "cost": {"cloth": 2, "iron": 1},
        },
        "src": "rulebook: name and effect (Bijlage: Engeland, koloniale haven), crate 3 = iron "
        "(Laden example); reconstructed: number, rest of the table, maxima, cost",
    },
    {
        "name": "France",
        "number": 4,
        "load": ["wood", "cloth", "cloth", "iron", "gold", "gold", "gold"],
        "max": {"settle": 2, "deliver": 3, "explore": 2},
        "extension": {
            "id": "toll_house",
            "title": "toll house",
            "cost": {"wood": 1, "cloth": 1, "iron": 1},
        },
        "src": "rulebook: name and effect (Bijlage: Frankrijk, tolhuis); reconstructed: number, "
        "load table, maxima, cost",
    },
    {
        "name": "Netherlands",
        "number": 5,
        "load": ["cloth", "cloth", "iron", "iron", "gold", "gold", "gold"],
        "max": {"settle": 2, "deliver": 2, "explore": 3},
        "extension": {"id": "naval_base", "title": "naval base", "cost": {"wood": 2, "iron": 1}},
        "src": "rulebook: name and effect (Bijlage: Nederland, marinebasis, +2 zeilwaarde); "
        "reconstructed: number, load table, maxima, cost",
    },
]

# -- ships ---------------------------------------------------------------------
# sail: sailing value; crate / person / spyglass: every ship shows all three.
# Small ships cost SMALL_SHIP_COST; large ships print their cost.
_SMALL = [
    # id, nation flag (start ships), sail, crate, person, spyglass
    ("s01", "Portugal", 2, 2, 1, 1),
    ("s02", "Spain", 2, 1, 1, 2),
    ("s03", "England", 2, 2, 1, 1),
    ("s04", "France", 2, 2, 1, 1),
    ("s05", "Netherlands", 2, 1, 1, 2),
    ("s06", None, 1, 3, 1, 1),
    ("s07", None, 1, 3, 1, 1),
    ("s08", None, 2, 2, 1, 1),
    ("s09", None, 2, 1, 1, 2),
    ("s10", None, 3, 1, 1, 1),
    ("s11", None, 3, 2, 1, 1),
    ("s12", None, 1, 1, 2, 1),
    ("s13", None, 2, 1, 1, 3),
    ("s14", None, 4, 1, 1, 1),
    ("s15", None, 3, 1, 1, 2),
    ("s16", None, 2, 2, 1, 2),
    ("s17", None, 4, 1, 1, 1),
]
SMALL_SHIPS: list[dict[str, Any]] = [
    {
        "id": i,
        "start": flag,
        "sail": a,
        "crate": c,
        "person": p,
        "spyglass": g,
        "src": (
            X
            + ": values; rulebook: 17 small ships, 5 start ships with a flag (Voorbereiding 3)"
            + (
                "; a small ship with crate 3 exists (Planningsfase example, blauw)"
                if i == "s07"
                else ""
            )
        ),
    }
    for i, flag, a, c, p, g in _SMALL
]

_LARGE = [
    # id, sail, crate, person, spyglass, cost
    ("L01", 5, 3, 2, 1, {"wood": 1, "cloth": 1, "iron": 1}),
    ("L02", 4, 4, 1, 1, {"wood": 2, "iron": 1}),
    ("L03", 6, 2, 1, 2, {"cloth": 2, "iron": 1}),
    ("L04", 3, 3, 2, 2, {"wood": 1, "cloth": 1, "iron": 2}),
    ("L05", 5, 2, 2, 2, {"wood": 1, "cloth": 2, "iron": 1}),
    ("L06", 4, 3, 1, 3, {"wood": 2, "cloth": 1, "iron": 1}),
    ("L07", 6, 4, 1, 1, {"wood": 1, "iron": 2}),
    ("L08", 3, 2, 2, 3, {"cloth": 1, "iron": 2}),
    ("L09", 5, 3, 1, 3, {"wood": 2, "cloth": 1}),
    ("L10", 4, 4, 2, 1, {"wood": 1, "cloth": 1, "iron": 2}),
    ("L11", 7, 2, 1, 2, {"wood": 1, "cloth": 1, "iron": 1}),
]
LARGE_SHIPS: list[dict[str, Any]] = [
    {
        "id": i,
        "sail": a,
        "crate": c,
        "person": p,
        "spyglass": g,
        "cost": cost,
        "src": X + ": values and costs; rulebook: 11 large ships, cost printed on the back, "
        "+3 points when built (Schepen bouwen)",
    }
    for i, a, c, p, g, cost in _LARGE
]

# -- one-time cards --------------------------------------------------------------
ONE_TIME_CARDS: list[dict[str, Any]] = (
    [
        {
            "id": "K0%d" % (i + 1),
            "kind": "start",
            "nation": nat,
            "gain": gain,
            "src": X + ": contents; rulebook: 5 start cards with a flag (Voorbereiding 5)",
        }
        for i, (nat, gain) in enumerate(
            [
                ("Portugal", {"wood": 1, "iron": 1}),
                ("Spain", {"cloth": 1, "iron": 1}),
                ("England", {"wood": 1, "cloth": 1, "points": 1}),
                ("France", {"cloth": 1, "points": 2}),
                ("Netherlands", {"gold": 1}),
            ]
        )
    ]
    + [
        {
            "id": cid,
            "kind": "charter",
            "sail": a,
            "crate": c,
            "person": p,
            "spyglass": g,
            "src": X + ": values; rulebook: 6 charter ships, one shows person 1 (Vestigen example)",
        }
        for cid, a, c, p, g in [
            ("K06", 2, 2, 1, 1),
            ("K07", 3, 1, 1, 2),
            ("K08", 1, 3, 1, 1),
            ("K09", 3, 2, 1, 1),
            ("K10", 2, 1, 2, 1),
            ("K11", 4, 1, 1, 1),
        ]
    ]
    + [
        {
            "id": "K%02d" % (12 + i),
            "kind": "goods",
            "gain": gain,
            "src": X + ": contents; rulebook: 10 goods cards giving goods and/or points (Laden)",
        }
        for i, gain in enumerate(
            [
                {"wood": 2},
                {"cloth": 2},
                {"iron": 1},
                {"gold": 1},
                {"wood": 1, "cloth": 1},
                {"points": 3},
                {"wood": 1, "points": 2},
                {"cloth": 1, "iron": 1},
                {"points": 4},
                {"gold": 1, "points": 1},
            ]
        )
    ]
)

# -- goal cards ------------------------------------------------------------------
# kind / param; "lower" and "upper": [threshold, points]; goods goals have one goal.
#   goods       param = good: at least N of it in store (gold is not wild)
#   symbol      param = sail/crate/person/spyglass: sum of that value on own small
#               and large ships (charters, captains, extensions don't count)
#   city_markers    markers in cities in total
#   full_cities     number of completed cities with >= 1 own marker each
#   ships       param = small/large: number of such ships
#   one_island  most own markers on one island
#   full_islands    number of completed islands with >= 6 own markers each
#   island_markers  own markers on islands in total
GOAL_CARDS: list[dict[str, Any]] = [
    {"id": "G01", "kind": "goods", "param": "wood", "lower": [3, 4], "src": X},
    {"id": "G02", "kind": "goods", "param": "cloth", "lower": [3, 5], "src": X},
    {
        "id": "G03",
        "kind": "goods",
        "param": "iron",
        "lower": [2, 5],
        "src": R + ": Doelkaarten spelen example (2 ijzer → 5 punten)",
    },
    {
        "id": "G04",
        "kind": "goods",
        "param": "gold",
        "lower": [2, 6],
        "src": X + ": value; rulebook: one goods goal per good, gold not wild (Bijlage)",
    },
    {"id": "G05", "kind": "symbol", "param": "sail", "lower": [10, 4], "upper": [15, 8], "src": X},
    {"id": "G06", "kind": "symbol", "param": "crate", "lower": [6, 4], "upper": [9, 8], "src": X},
    {"id": "G07", "kind": "symbol", "param": "person", "lower": [3, 4], "upper": [5, 8], "src": X},
    {
        "id": "G08",
        "kind": "symbol",
        "param": "spyglass",
        "lower": [4, 4],
        "upper": [6, 8],
        "src": X,
    },
    {
        "id": "G09",
        "kind": "city_markers",
        "param": "",
        "lower": [3, 5],
        "upper": [4, 8],
        "src": R + ": thresholds 3 or 4 (Bijlage); " + X + ": points",
    },
    {
        "id": "G10",
        "kind": "full_cities",
        "param": "",
        "lower": [1, 5],
        "upper": [2, 10],
        "src": R + ": 1 or 2 completed cities (Bijlage); " + X + ": points",
    },
    {
        "id": "G11",
        "kind": "ships",
        "param": "small",
        "lower": [2, 3],
        "upper": [3, 6],
        "src": R + ": one card for small ships (Bijlage); " + X + ": values",
    },
    {
        "id": "G12",
        "kind": "ships",
        "param": "large",
        "lower": [1, 3],
        "upper": [2, 7],
        "src": R + ": one card for large ships (Bijlage); " + X + ": values",
    },
    {
        "id": "G13",
        "kind": "one_island",
        "param": "",
        "lower": [6, 6],
        "upper": [9, 10],
        "src": R + ": 6 or 9 markers, 9 → 10 points (Doelkaarten spelen example); " + X + ": 6 → 6",
    },
    {
        "id": "G14",
        "kind": "full_islands",
        "param": "",
        "lower": [1, 6],
        "upper": [2, 13],
        "src": R
        + ": 1 or 2 completed islands with 6 markers, 2 → 13 points (Bijlage example); "
        + X
        + ": 1 → 6",
    },
    {
        "id": "G15",
        "kind": "island_markers",
        "param": "",
        "lower": [10, 6],
        "upper": [15, 10],
        "src": R + ": 10 or 15 markers (Bijlage); " + X + ": points",
    },
]
GOAL_PILES: dict[str, Any] = {
    "names": ["square", "circle", "star"],
    "size": 5,
    "src": "rulebook: Voorbereiding 8 (3 stapels van 5); " + X + ": the piles' symbols "
    "are the three frame tiles that give goal cards",
}

CAPTAINS: list[dict[str, Any]] = [
    {
        "id": "columbus",
        "title": "Columbus",
        "src": R + ": Bijlage (1 extra eilandtegel bij Ontdekken)",
    },
    {"id": "magellan", "title": "Magellan", "src": R + ": Bijlage (+7 zeilwaarde op 1 schip)"},
    {
        "id": "cortes",
        "title": "Cortés",
        "src": R + ": Bijlage (1 goud direct, +1 goud per Landfase)",
    },
    {"id": "da_gama", "title": "Da Gama", "src": R + ": Bijlage (+3 kisten bij Laden of Leveren)"},
    {"id": "drake", "title": "Drake", "src": R + ": Bijlage (1 extra werf)"},
]

# -- score track -----------------------------------------------------------------
# gives: a goal pile name, "captain" or "good" (from the goods field).
FRAME_TILES: list[dict[str, Any]] = [
    {
        "id": "square",
        "space": 7,
        "advanced_space": 7,
        "gives": "square",
        "src": R + ": moves back from 7 to 4 (Doelkaarten en speciale velden example)",
    },
    {
        "id": "pentagon",
        "space": 15,
        "advanced_space": 15,
        "gives": "captain",
        "src": R + ": second frame tile gives a captain",
    },
    {
        "id": "circle",
        "space": 20,
        "advanced_space": 20,
        "gives": "circle",
        "src": R + ": spaces 7/15/20/25/35 (Voorbereiding 11); " + X + ": its symbol",
    },
    {
        "id": "triangle",
        "space": 25,
        "advanced_space": 30,
        "gives": "good",
        "src": R + ": fourth frame tile gives a good; variant on 30",
    },
    {
        "id": "star",
        "space": 35,
        "advanced_space": 40,
        "gives": "star",
        "src": R + ": fifth on 35; variant on 40 (Variant)",
    },
]
GOODS_FIELD: dict[str, Any] = {
    "goods": ["wood", "cloth", "iron", "gold"],
    "src": R + ": Voorbereiding 10 (1 hout, 1 doek, 1 ijzer en 1 goud)",
}
FIFTY_CARDS: list[dict[str, Any]] = [
    {
        "fifty": 5,
        "hundred": 10,
        "src": R + ": 50-side 5 (Eindtelling example, blauw first); " + X + ": 100-side",
    },
    {"fifty": 3, "hundred": 7, "src": R + ": 50-side 3 (example, rood); " + X + ": 100-side"},
    {"fifty": 1, "hundred": 4, "src": R + ": 50-side 1 (example, geel); " + X + ": 100-side"},
    {"fifty": 0, "hundred": 2, "src": X + ": the fourth card"},
]

# -- the board -------------------------------------------------------------------
SHAPES: dict[str, Any] = {
    "square": ["-"],
    "bar": ["h", "v"],
    "corner": ["ne", "nw", "se", "sw"],
    "tee": ["n", "e", "s", "w"],
    "src": X + ": the rulebook shows shapes on tiles and board without naming them",
}


def _spaces(prefix, shapes):
    return [
        {"id": f"{prefix}{i + 1}", "shape": sh, "orientation": o}
        for i, (sh, o) in enumerate(shapes)
    ]


ISLANDS: list[dict[str, Any]] = [
    {
        "name": "Newfoundland",
        "first": 10,
        "second": 5,
        "spaces": _spaces(
            "NF",
            [
                ("square", "-"),
                ("square", "-"),
                ("square", "-"),
                ("bar", "h"),
                ("bar", "v"),
                ("corner", "ne"),
                ("corner", "sw"),
                ("tee", "n"),
                ("tee", "e"),
            ],
        ),
        "src": R + ": name (Bijlage example); " + X + ": spaces and bonus",
    },
    {
        "name": "Nova Scotia",
        "first": 8,
        "second": 4,
        "spaces": _spaces(
            "NS",
            [
                ("square", "-"),
                ("square", "-"),
                ("bar", "h"),
                ("bar", "h"),
                ("corner", "nw"),
                ("corner", "se"),
                ("tee", "s"),
            ],
        ),
        "src": R + ": name and bonus 8/4 (Eilandtelling example); " + X + ": spaces",
    },
    {
        "name": "Prince Edward Island",
        "first": 6,
        "second": 3,
        "spaces": _spaces(
            "PE", [("square", "-"), ("square", "-"), ("bar", "v"), ("corner", "ne"), ("tee", "w")]
        ),
        "src": R + ": name (Bijlage example); " + X + ": spaces and bonus",
    },
    {
        "name": "Cape Breton",
        "first": 7,
        "second": 3,
        "spaces": _spaces(
            "CB",
            [
                ("square", "-"),
                ("square", "-"),
                ("bar", "h"),
                ("bar", "v"),
                ("corner", "sw"),
                ("tee", "n"),
            ],
        ),
        "src": X + ": the fourth island's name, spaces and bonus (rulebook: 4 islands)",
    },
]

CARTOGRAPHY_TILES: dict[str, Any] = {
    "2": 3,
    "3": 2,
    "4": 1,
    "src": R + ": 3 players → 2 tiles (Cartografie example); " + X + ": 2 and 4",
}

COMPASS_TILES: list[dict[str, Any]] = [
    {
        "id": f"P{i + 1}",
        "island": isl,
        "src": X + ": two per island; rulebook: 8 compass tiles each showing an island",
    }
    for i, isl in enumerate(
        [
            "Newfoundland",
            "Newfoundland",
            "Nova Scotia",
            "Nova Scotia",
            "Prince Edward Island",
            "Prince Edward Island",
            "Cape Breton",
            "Cape Breton",
        ]
    )
]

CITIES: list[dict[str, Any]] = [
    {
        "name": "Hamburg",
        "fields": 4,
        "first": 6,
        "second": 3,
        "contract_fields": 3,
        "src": R + ": name (Leveren example); " + X + ": fields, bonus, contract fields",
    },
    {
        "name": "Stockholm",
        "fields": 5,
        "first": 8,
        "second": 4,
        "contract_fields": 3,
        "src": R
        + ": name, 5 fields (3+1+1 markers fill it) and 8/4 (Stadstelling example); "
        + X
        + ": contract fields",
    },
    {
        "name": "Danzig",
        "fields": 6,
        "first": 10,
        "second": 5,
        "contract_fields": 3,
        "src": X + ": the third city (rulebook: 3 cities)",
    },
]
ANTWERP: dict[str, Any] = {
    "points_per_good": 1,
    "src": R + ": Leveren (Antwerpen, 1 punt per product)",
}
NEW_ENGLAND: dict[str, Any] = {
    "points_per_marker": 1,
    "src": R + ": Vestigen (New England, 1 punt per markeersteen)",
}

# -- contracts -------------------------------------------------------------------
# Reconstructed rule of thumb: points = wood 1, cloth 2, iron 3 each, plus one
# per two goods (it gives both rulebook examples exactly).
CONTRACTS: list[dict[str, Any]] = [
    {"id": "C01", "goods": {"wood": 2}, "points": 3, "src": R + ": Leveren example (Hamburg)"},
    {
        "id": "C02",
        "goods": {"wood": 1, "cloth": 1, "iron": 2},
        "points": 11,
        "src": R + ": Leveren example (Stockholm)",
    },
] + [
    {"id": "C%02d" % (3 + i), "goods": g, "points": p, "src": X}
    for i, (g, p) in enumerate(
        [
            ({"cloth": 2}, 5),
            ({"wood": 1, "cloth": 1}, 4),
            ({"wood": 1, "iron": 1}, 5),
            ({"iron": 2}, 7),
            ({"wood": 3}, 4),
            ({"wood": 2, "cloth": 1}, 5),
            ({"wood": 1, "cloth": 2}, 6),
            ({"cloth": 3}, 7),
            ({"wood": 2, "iron": 1}, 6),
            ({"cloth": 1, "iron": 2}, 9),
            ({"wood": 2, "cloth": 2}, 8),
            ({"wood": 1, "cloth": 1, "iron": 1}, 7),
            ({"wood": 2, "cloth": 1, "iron": 1}, 9),
            ({"cloth": 2, "iron": 2}, 12),
            ({"wood": 2, "cloth": 2, "iron": 1}, 11),
            ({"wood": 1, "cloth": 2, "iron": 2}, 13),
        ]
    )
]

# -- island tiles ----------------------------------------------------------------
_W, _C, _I, _G = "wood", "cloth", "iron", "gold"


def _b(**kw):
    return kw


_TILES = [
    (
        "T01",
        "square",
        _b(wood=1, cloth=1),
        _b(points=3),
        R + ": Vestigen example (1 hout en 1 doek / 3 punten)",
    ),
    (
        "T02",
        "bar",
        _b(wood=1, cloth=1),
        _b(gold=1),
        R + ": Ontdekken example (with T03: 1 hout, 2 doek, 1 goud, 2 punten)",
    ),
    ("T03", "corner", _b(cloth=1), _b(points=2), R + ": Ontdekken example"),
    ("T04", "square", _b(iron=1), _b(points=2), X),
    ("T05", "square", _b(wood=2), _b(points=2), X),
    ("T06", "square", _b(cloth=2), _b(gold=1), X),
    ("T07", "square", _b(wood=1, iron=1), _b(points=3), X),
    ("T08", "square", _b(gold=1), _b(points=2), X),
    ("T09", "square", _b(cloth=1, iron=1), _b(points=3), X),
    ("T10", "square", _b(wood=1), _b(points=2), X),
    ("T11", "square", _b(iron=1), _b(wood=1, cloth=1), X),
    ("T12", "square", _b(gold=1), _b(wood=2), X),
    ("T13", "square", _b(points=3), _b(wood=1, cloth=1), X),
    ("T14", "bar", _b(wood=2), _b(iron=1), X),
    ("T15", "bar", _b(cloth=2), _b(points=3), X),
    ("T16", "bar", _b(gold=1), _b(points=3), X),
    ("T17", "bar", _b(wood=1, iron=1), _b(points=2), X),
    ("T18", "bar", _b(cloth=1), _b(points=2), X),
    ("T19", "bar", _b(wood=1, cloth=1), _b(iron=1), X),
    ("T20", "bar", _b(points=4), _b(gold=1), X),
    ("T21", "bar", _b(iron=1), _b(points=3), X),
    ("T22", "corner", _b(wood=1), _b(points=2), X),
    ("T23", "corner", _b(cloth=1, iron=1), _b(gold=1), X),
    ("T24", "corner", _b(wood=2), _b(cloth=2), X),
    ("T25", "corner", _b(iron=1), _b(points=2), X),
    ("T26", "corner", _b(gold=1), _b(points=3), X),
    ("T27", "corner", _b(wood=1, cloth=1), _b(points=3), X),
    ("T28", "corner", _b(iron=2), _b(points=4), X),
    ("T29", "tee", _b(wood=1, cloth=1), _b(points=3), X),
    ("T30", "tee", _b(iron=1), _b(gold=1), X),
    ("T31", "tee", _b(cloth=2), _b(points=3), X),
    ("T32", "tee", _b(wood=1, iron=1), _b(points=3), X),
    ("T33", "tee", _b(gold=1), _b(points=2), X),
    ("T34", "tee", _b(points=4), _b(wood=1, cloth=1), X),
]
ISLAND_TILES: list[dict[str, Any]] = [
    {
        "id": i,
        "shape": sh,
        "bonuses": [b1, b2],
        "src": src
        if src != X
        else X + ": shape and bonuses; rulebook: 34 island tiles, 2 fields, 2 bonuses",
    }
    for i, sh, b1, b2, src in _TILES
]

COUNTS: dict[str, Any] = {
    "small_ships": 17,
    "start_ships": 5,
    "large_ships": 11,
    "island_tiles": 34,
    "contracts": 18,
    "frame_tiles": 5,
    "compass_tiles": 8,
    "one_time_cards": 21,
    "start_cards": 5,
    "charter_cards": 6,
    "goods_cards": 10,
    "goal_cards": 15,
    "captains": 5,
    "fifty_cards": 4,
    "nations": 5,
    "islands": 4,
    "cities": 3,
    "src": R + ": Speelmateriaal and Voorbereiding",
}
