"""Small helpers shared by the phases: events, goods, piles, turn order."""
from __future__ import annotations

from engine.interface import Event
from engine import rng
from engine.new_found_land.data import GOODS
from engine.new_found_land.state import State

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


def bundle_text(bundle: dict) -> str:
    parts = [f"{bundle[g]} {g}" for g in GOODS if bundle.get(g)]
    if bundle.get("points"):
        parts.append(f"{bundle['points']} point{'s' * (bundle['points'] > 1)}")
    return " + ".join(parts) or "nothing"


def payment(goods: dict, cost: dict) -> dict | None:
    """What paying ``cost`` takes from ``goods``, or None if it cannot be paid.

    Gold may replace one wood, cloth or iron, one for one, in any payment
    (Schepen bouwen: "een speler mag altijd 1 goud inleveren in plaats van 1
    hout, 1 doek of 1 ijzer").  The engine spends gold only where the player
    lacks the good itself (a simplification: it never asks which to spend).
    """
    pay, short = {}, 0
    for g, need in cost.items():
        have = goods[g]
        use = need if have >= need else have
        if use:
            pay[g] = use
        short += need - use
    if short:
        if goods["gold"] - cost.get("gold", 0) < short:
            return None
        pay["gold"] = pay.get("gold", 0) + short
    return pay


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
