"""Small helpers shared by the phases: events, goods, piles, turn order."""

from __future__ import annotations

from typing import Any

from engine import rng
from engine.interface import Event
from engine.new_found_land.data import GOODS
from engine.new_found_land.state import State
from engine.words import Words, listing, msg, nmsg, term

DONE = {"type": "done"}


def seat_ref(seat: int) -> str:
    return "{s%d}" % seat


def say(ev: list[Event], seat: int | None, text: str) -> None:
    ev.append(Event(text, seat))


def whisper(ev: list[Event], seat: int, text: str, public: str) -> None:
    """An event only ``seat`` reads in full; the others read ``public``."""
    ev.append(Event(text, seat, private_to=seat, public_text=public))


def turn_order(s: State) -> list[int]:
    """Every seat clockwise, from the start player."""
    return [(s.start + i) % s.n for i in range(s.n)]


# Separators of lists, through the catalog: French spaces its ";".
SEMICOLON = msg("; ")


def bundle_text(bundle: dict) -> Words:
    parts = [msg("%(n)s %(good)s", n=bundle[g], good=term(g)) for g in GOODS if bundle.get(g)]
    if bundle.get("points"):
        parts.append(nmsg("%(n)s point", "%(n)s points", bundle["points"]))
    return listing(parts, " + ") or msg("nothing")


def payment(goods: dict, cost: dict, gold_for: list[str] | tuple = ()) -> dict | None:
    """What paying ``cost`` takes from ``goods``, or None if it cannot be paid.

    Gold may stand in for wood, cloth or iron, one for one, in any payment
    (Schepen bouwen: "een speler mag altijd 1 goud inleveren in plaats van 1
    hout, 1 doek of 1 ijzer.  [...] Dit geldt ook bij Haven uitbreiden en
    Leveren"), as often as the player has gold (README.md).  Gold always
    covers a good the player lacks; ``gold_for`` lists the goods (one entry
    per unit) the player holds but chooses to pay with gold instead.
    """
    pay: dict = {}
    gold = cost.get("gold", 0)
    for g in GOODS:
        need = cost.get(g, 0)
        if g == "gold" or not need:
            continue
        own = min(need, goods[g])
        use = own - sum(1 for x in gold_for if x == g)
        if use < 0:
            return None  # more gold_for than goods held or asked
        if use:
            pay[g] = use
        gold += need - use
    if any(x not in GOODS[:3] or not cost.get(x) for x in gold_for) or gold > goods["gold"]:
        return None
    if gold:
        pay["gold"] = gold
    return pay


def _lacking(goods: dict, cost: dict) -> int:
    return sum(max(0, need - goods[g]) for g, need in cost.items() if g != "gold")


def affordable(goods: dict, cost: dict) -> bool:
    """Whether ``cost`` can be paid at all (gold covering what is lacking)."""
    short = 0
    for g, need in cost.items():
        if need > goods[g]:
            if g == "gold":
                return False
            short += need - goods[g]
    return short <= goods["gold"] - cost.get("gold", 0)


def payments(goods: dict, cost: dict) -> list[tuple[Any, list[str]]]:
    """Every way to pay ``cost``: ``(what is paid, gold_for)``, the payment
    with the least gold first.  ``gold_for`` is empty for the plain payment
    (goods where the player has them, gold only for what he lacks), else the
    goods he holds but pays with gold instead, in the order of GOODS."""
    spare = goods["gold"] - cost.get("gold", 0) - _lacking(goods, cost)
    if spare < 0:
        return []
    # per good of the cost: how many of the player's own could gold replace
    room = [(g, min(cost[g], goods[g])) for g in GOODS if g != "gold" and cost.get(g)]
    ways: list[list[str]] = [[]]
    for g, k in room:
        ways = [w + [g] * j for w in ways for j in range(k + 1)]
    ways = [w for w in ways if len(w) <= spare]
    ways.sort(key=lambda w: (len(w), [GOODS.index(x) for x in w]))
    return [(payment(goods, cost, w), w) for w in ways]


def pay_options(goods: dict, cost: dict) -> list[dict]:
    """The decision "how do you pay?": one action per way, the plain one first."""
    return [{"type": "pay", "gold_for": gold_for} for _, gold_for in payments(goods, cost)]


def spend(s: State, seat: int, pay: dict) -> None:
    p = s.players[seat]
    for g, k in pay.items():
        p["goods"][g] -= k
        s.supply[g] += k


def gain_goods(s: State, seat: int, bundle: dict) -> None:
    """Goods of a bonus or card from the supply (goods are unlimited: the
    supply may run below zero, "gebruik dan vervangend materiaal")."""
    p = s.players[seat]
    for g in GOODS:
        k = bundle.get(g, 0)
        if k:
            p["goods"][g] += k
            s.supply[g] -= k


def draw(s: State, pile: str, discard: str, count: int) -> list[str]:
    """Up to ``count`` from a face-down pile, reshuffling its discard when it runs out."""
    out: list[str] = []
    stack = getattr(s, pile)
    while len(out) < count:
        if not stack:
            if not s.discard[discard]:
                break
            stack.extend(s.discard[discard])
            s.discard[discard] = []
            s.rng = rng.shuffle(s.rng, stack)
        out.append(stack.pop())
    return out
