"""A league's arithmetic, without the database: how many players sit at
each table, who meets whom in a round, in which seat order, and what a
place at a table is worth in the standings.

Everything is deterministic: the same players, history and seed give the
same tables, so a round can be recomputed and checked.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

# Local search: this many fresh starts per round, each improved by swapping
# two players of different tables while that lowers the cost.
RESTARTS = 40
# A repeat meeting costs more than any spread of points within a table:
# Swiss pairs players of like standing only where that repeats nobody.
REPEAT_COST = 10_000
# League points for the places at a table of n: from 12 for the first to 0
# for the last, in equal steps (12 divides by 1, 2, 3 and 4: untied places
# of tables of 2 to 5 earn whole points).
TOP_POINTS = 12


def table_sizes(players: int, smallest: int, largest: int) -> list[int] | None:
    """The fewest tables within [smallest, largest] seating everyone, as
    even as they can be, smaller first (13 players, 4-5: [4, 4, 5]); None
    when no split exists (7 players, 4-5)."""
    if players < smallest or smallest > largest or smallest < 1:
        return None
    tables = math.ceil(players / largest)
    while tables * smallest <= players:
        base, extra = divmod(players, tables)
        if base >= smallest and base + (1 if extra else 0) <= largest:
            return [base] * (tables - extra) + [base + 1] * extra
        tables += 1
    return None


def pair_key(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


@dataclass
class History:
    """What earlier rounds did: how often two players met, how often each
    sat in each seat."""

    met: dict[tuple[int, int], int] = field(default_factory=dict)
    seats: dict[int, dict[int, int]] = field(default_factory=dict)

    def add_table(self, seated: Sequence[int]) -> None:
        for a, b in itertools.combinations(seated, 2):
            key = pair_key(a, b)
            self.met[key] = self.met.get(key, 0) + 1
        for index, player in enumerate(seated):
            counts = self.seats.setdefault(player, {})
            counts[index] = counts.get(index, 0) + 1

    def times_met(self, a: int, b: int) -> int:
        return self.met.get(pair_key(a, b), 0)


def _table_cost(table: Sequence[int], history: History, points: Mapping[int, float]) -> float:
    repeats = sum(history.times_met(a, b) for a, b in itertools.combinations(table, 2))
    spread = max(points.get(p, 0) for p in table) - min(points.get(p, 0) for p in table)
    # Somebody at the table should have moved first less often than the rest.
    first = min(history.seats.get(p, {}).get(0, 0) for p in table)
    return repeats * REPEAT_COST + spread + first


def _improve(tables: list[list[int]], history: History, points: Mapping[int, float]) -> float:
    """Swap players between tables while a swap lowers the cost; the cost."""
    costs = [_table_cost(t, history, points) for t in tables]
    better = True
    while better:
        better = False
        for i, j in itertools.combinations(range(len(tables)), 2):
            for a, b in itertools.product(range(len(tables[i])), range(len(tables[j]))):
                left, right = list(tables[i]), list(tables[j])
                left[a], right[b] = right[b], left[a]
                new_left = _table_cost(left, history, points)
                new_right = _table_cost(right, history, points)
                if new_left + new_right < costs[i] + costs[j]:
                    tables[i], tables[j] = left, right
                    costs[i], costs[j] = new_left, new_right
                    better = True
    return sum(costs)


def pair_round(
    players: Iterable[int],
    sizes: Sequence[int],
    history: History,
    seed: int,
    points: Mapping[int, float] | None = None,
) -> list[list[int]]:
    """Split ``players`` into tables of ``sizes``, meeting as few earlier
    table-mates as the numbers allow.  ``points``: Swiss, players of like
    standing together (None: round-robin, anyone with anyone).  Each table
    is returned in its seat order (``seat_order``)."""
    ordered = sorted(players)
    if sum(sizes) != len(ordered):
        raise ValueError(f"{len(ordered)} players do not fill tables of {list(sizes)}")
    rng = random.Random(seed)
    weights = points or {}
    best: tuple[float, list[list[int]]] | None = None
    for attempt in range(RESTARTS):
        line = list(ordered)
        rng.shuffle(line)
        if points is not None and attempt == 0:
            # The classic Swiss start: the standings cut into tables.
            line.sort(key=lambda p: -weights.get(p, 0))
        tables, at = [], 0
        for size in sizes:
            tables.append(line[at : at + size])
            at += size
        cost = _improve(tables, history, weights)
        if best is None or cost < best[0]:
            best = (cost, tables)
        if cost == 0:
            break
    assert best is not None
    return [seat_order(sorted(t), history, rng.getrandbits(32)) for t in best[1]]


def seat_order(table: Sequence[int], history: History, seed: int) -> list[int]:
    """The table's players in the seat order that evens out who sat where
    before: first seats weigh most (the first player moves first), then
    each seat by how often its player sat there; ties by ``seed``."""
    rng = random.Random(seed)
    orders: list[tuple[int, ...]] = list(itertools.permutations(table))
    rng.shuffle(orders)

    def cost(order: tuple[int, ...]) -> tuple[int, int]:
        counts = [history.seats.get(p, {}).get(i, 0) for i, p in enumerate(order)]
        return counts[0], sum(c * c for c in counts)

    best = min(orders, key=cost)
    return list(best)


# -- points and standings ---------------------------------------------------------
def placement_points(size: int, beaten: int, tied: int) -> float:
    """League points for a place at a table of ``size``: TOP_POINTS for
    beating everyone, 0 for beating nobody, in equal steps; a tie shares
    the places it spans (half a step for each player tied with)."""
    if size < 2:
        return 0.0
    return TOP_POINTS * (beaten + tied / 2) / (size - 1)


def points_for_ranks(ranks: Mapping[int, int]) -> dict[int, float]:
    """player -> league points, from player -> rank at one table (1: first;
    equal ranks: a tie)."""
    size = len(ranks)
    return {
        player: placement_points(
            size,
            sum(1 for r in ranks.values() if r > rank),
            sum(1 for other, r in ranks.items() if r == rank and other != player),
        )
        for player, rank in ranks.items()
    }


@dataclass
class Line:
    """One player's line in the standings."""

    player: int
    points: float = 0.0
    wins: float = 0.0  # first places; a shared first place counts its share
    opponents: float = 0.0  # the points of every table-mate, once per meeting
    played: int = 0
    dropped: bool = False
    place: int = 0


def standings(
    tables: Iterable[Mapping[int, int]],
    players: Iterable[int],
    dropped: Iterable[int] = (),
    seed: int = 0,
) -> list[Line]:
    """The standings from the finished tables (each player -> rank): by
    points, then wins, then opponents' points, then by lot (``seed``: the
    same lot every time).  Equal on all three: the same place."""
    tables = [dict(t) for t in tables]
    gone = set(dropped)
    lines = {p: Line(p, dropped=p in gone) for p in players}
    for ranks in tables:
        earned = points_for_ranks(ranks)
        firsts = [p for p, r in ranks.items() if r == 1]
        for player, got in earned.items():
            line = lines.setdefault(player, Line(player, dropped=player in gone))
            line.points += got
            line.played += 1
            if player in firsts:
                line.wins += 1 / len(firsts)
    for ranks in tables:
        for player in ranks:
            lines[player].opponents += sum(lines[o].points for o in ranks if o != player)
    lot = random.Random(seed)
    draw = {p: lot.random() for p in sorted(lines)}

    def merit(line: Line) -> tuple[float, float, float]:
        return (round(line.points, 6), round(line.wins, 6), round(line.opponents, 6))

    ordered = sorted(lines.values(), key=lambda ln: (merit(ln), -draw[ln.player]), reverse=True)
    for number, line in enumerate(ordered, start=1):
        previous = ordered[number - 2] if number > 1 else None
        same = previous is not None and merit(previous) == merit(line)
        line.place = previous.place if same and previous else number
    return ordered
