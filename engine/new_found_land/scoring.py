"""Island and city scoring, the final scoring and the outcome."""

from __future__ import annotations

from engine.interface import Event, Outcome, SeatScore
from engine.new_found_land import board
from engine.new_found_land.common import say, seat_ref
from engine.new_found_land.components import FINAL_CARD_POINTS
from engine.new_found_land.data import CITIES, ISLANDS
from engine.new_found_land.state import State
from engine.new_found_land.track import fifty_bonus
from engine.words import N_, msg


def majority(counts: dict[int, int], first: int, second: int) -> dict[int, int]:
    """1 point per marker, plus the bonuses.  Tied first: all take the second
    bonus and nobody is second.  Tied second: nobody takes it.  Markers of
    the neutral colour (2 players) count for the majorities only."""
    pts = {seat: k for seat, k in counts.items() if seat >= 0 and k > 0}
    ranked = sorted({k for k in counts.values() if k > 0}, reverse=True)
    if not ranked:
        return pts
    top = [seat for seat, k in counts.items() if k == ranked[0]]
    if len(top) > 1:
        for seat in top:
            if seat >= 0:
                pts[seat] += second
        return pts
    if top[0] >= 0:
        pts[top[0]] += first
    if len(ranked) > 1:
        runners = [seat for seat, k in counts.items() if k == ranked[1]]
        if len(runners) == 1 and runners[0] >= 0:
            pts[runners[0]] += second
    return pts


def due_scorings(s: State) -> list[tuple[str, str]]:
    """Complete, unscored islands and then cities, each group largest bonus first."""
    islands = sorted(
        (n for n in ISLANDS if n not in s.scored and board.island_full(s, n)),
        key=lambda n: -ISLANDS[n]["first"],
    )
    cities = sorted(
        (n for n in CITIES if n not in s.scored and board.city_full(s, n)),
        key=lambda n: -CITIES[n]["first"],
    )
    return [("island", n) for n in islands] + [("city", n) for n in cities]


def final_scoring(s: State, ev: list[Event]) -> None:
    """After round 4: markers on unscored islands and cities, the 50/100
    card's bonus, 2 points per unplayed one-time and goal card."""
    for seat, p in enumerate(s.players):
        markers = sum(board.island_markers(s, n).get(seat, 0) for n in ISLANDS if n not in s.scored)
        markers += sum(board.city_markers(s, n).get(seat, 0) for n in CITIES if n not in s.scored)
        cards = (len(p["hand"]) + len(p["goals"])) * FINAL_CARD_POINTS["value"]
        p["final"] = [
            [N_("markers on unscored islands and cities"), markers],
            [N_("50/100 card"), fifty_bonus(p)],
            [N_("unplayed cards"), cards],
        ]
        gain = sum(v for _, v in p["final"])
        p["score"] += gain
        say(
            ev,
            seat,
            msg(
                "%(who)s scores %(n)s in the final scoring (%(total)s).",
                who=seat_ref(seat),
                n=gain,
                total=p["score"],
            ),
        )


def goods_count(p: dict) -> int:
    return sum(p["goods"].values())


def outcome(s: State) -> Outcome:
    """Most points wins; tie: more goods; still tied: a shared win."""
    scores = tuple(
        SeatScore(
            i,
            p["score"],
            tuple((k, v) for k, v in p["final"])
            + ((N_("during the game"), p["score"] - sum(v for _, v in p["final"])),),
            goods_count(p),
        )
        for i, p in enumerate(s.players)
    )
    best = max((sc.total, sc.tiebreak) for sc in scores)
    winners = tuple(sc.seat for sc in scores if (sc.total, sc.tiebreak) == best)
    return Outcome(
        scores,
        winners,
        msg("It ended after the fourth round.")
        if s.over
        else msg("It was stopped before the end; the scores are as they stood."),
    )
