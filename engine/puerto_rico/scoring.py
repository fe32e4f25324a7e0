"""Final scoring: chips + building points + bonuses of occupied large buildings."""

from __future__ import annotations

from engine.interface import Outcome, SeatScore
from engine.puerto_rico.data import CARDS
from engine.puerto_rico.state import Player, State
from engine.words import N_, Words, listing, msg, term


def guild_hall(p: Player) -> int:
    """1 per small, 2 per large production building, occupied or not."""
    return sum(
        (1 if CARDS[n].circles == 1 else 2) for n in p.buildings if CARDS[n].produces is not None
    )


def residence(p: Player) -> int:
    """4 for up to 9 island tiles, 5 for 10, 6 for 11, 7 for 12 (forests are
    island tiles too: they fill its spaces)."""
    return max(4, p.island_tiles() - 5)


def fortress(p: Player) -> int:
    """1 per 3 colonists on the board, San Juan included."""
    return p.colonists() // 3


def customs_house(p: Player) -> int:
    """1 per 4 points of victory-point chips."""
    return p.vp // 4


def city_hall(p: Player) -> int:
    """1 per violet building, the city hall itself included."""
    return sum(1 for n in p.buildings if CARDS[n].violet)


CLOISTER_POINTS = (0, 1, 3, 6, 10)


def cloister(p: Player) -> int:
    """003_… lines 369-374: "Receive VPs for sets of 3 like plantations and/or
    quarries. - 1 set - 1 VP - 2 sets - 3 VP - 3 sets - 6 VP - 4 sets - 10 VP"
    (twelve island spaces make four sets at most; forests are no plantations)."""
    return CLOISTER_POINTS[sum(n // 3 for n in p.tiles)]


LARGE_BONUS = {
    "score_guild_hall": guild_hall,
    "score_residence": residence,
    "score_fortress": fortress,
    "score_customs_house": customs_house,
    "score_city_hall": city_hall,
    "score_cloister": cloister,
}


def score(p: Player) -> tuple[int, tuple[tuple[str, int], ...]]:
    buildings = sum(CARDS[n].vp for n in p.buildings)
    parts = [(N_("chips"), p.vp), (N_("buildings"), buildings)]
    for name, colonists in p.buildings.items():
        for effect in CARDS[name].effects:
            if effect in LARGE_BONUS:
                # The bonus counts only when the building is occupied.
                parts.append((CARDS[name].title, LARGE_BONUS[effect](p) if colonists else 0))
    return sum(v for _, v in parts), tuple(parts)


def outcome(s: State) -> Outcome:
    scores = []
    for seat, p in enumerate(s.players):
        total, parts = score(p)
        scores.append(SeatScore(seat, total, parts, p.doubloons + sum(p.goods)))
    best = max((sc.total, sc.tiebreak) for sc in scores)
    winners = tuple(sc.seat for sc in scores if (sc.total, sc.tiebreak) == best)
    reason = (
        end_sentence(s.end_triggered)
        if s.over
        else msg("It was stopped in round %(round)s; the scores are as they stood.", round=s.round)
    )
    return Outcome(tuple(scores), winners, reason)


# Why the game ended, in words: the end conditions trigger_end records.
END_WORDS = {
    "colonists": N_("the colonists ran out"),
    "vp chips": N_("the victory-point chips ran out"),
    "city": N_("a player filled all twelve city spaces"),
}


def end_sentence(triggered: str) -> Words:
    """ "colonists, city" -> "It ended because the colonists ran out and a
    player filled all twelve city spaces." """
    causes = [term(END_WORDS.get(t, t)) for t in filter(None, triggered.split(", "))]
    if not causes:
        return msg("It ended.")
    joined = (
        msg("%(first)s and %(last)s", first=listing(causes[:-1]), last=causes[-1])
        if len(causes) > 1
        else causes[0]
    )
    return msg("It ended because %(causes)s.", causes=joined)
