"""Small helpers shared by the phases."""

from __future__ import annotations

from collections.abc import Callable

from engine.interface import Event
from engine.puerto_rico.data import GOODS
from engine.puerto_rico.state import State
from engine.words import N_, Words, term

PASS = {"type": "pass"}


_SEAT_REFS = tuple("{s%d}" % seat for seat in range(6))  # made once: every event names one


def seat_ref(seat: int) -> str:
    return _SEAT_REFS[seat]


def say(ev: list[Event], seat: int | None, text: str) -> None:
    ev.append(Event(text, seat))


# Every seat order there can be, by player count and first seat: shared,
# so a phase's order is never changed in place, only replaced.
_ORDERS = {n: [[(first + i) % n for i in range(n)] for first in range(n)] for n in range(2, 6)}


def order_from(s: State, first: int) -> list[int]:
    """The seats clockwise from ``first`` (a shared list: read it only)."""
    return _ORDERS[s.n][first]


def run_order(
    s: State,
    ev: list[Event],
    options: Callable[[State, int], list[dict]],
    finish: Callable[[State, list[Event]], None],
    begin: Callable[[State, int, list[Event]], bool] | None = None,
) -> None:
    """Walk ``s.order`` from ``s.step`` to the first seat with a real decision.

    Seats with nothing to decide are skipped, so nobody is emailed to click
    "pass" when passing is all they could do.  ``begin`` may act for a seat
    first and say whether a decision is left (the mayor places colonists
    where there is no choice).  The options found are kept on the state: it
    is not changed again before the caller returns, and this saves working
    them out twice on every action.
    """
    while s.step < len(s.order):
        seat = s.order[s.step]
        if begin is None or begin(s, seat, ev):
            opts = options(s, seat)
            if opts:
                s.turn, s._legal = seat, opts
                return
        s.step += 1
    finish(s, ev)


def colonist_available(s: State) -> bool:
    return s.colonist_supply > 0 or s.colonist_ship > 0


def with_optional_colonist(s: State, opts: list[dict], offer: bool) -> list[dict]:
    """Hospice and university give a colonist the owner may decline ("mag",
    and violet buildings are never compulsory): each such action is offered
    twice, the second time marked ``"colonist": False``."""
    if not offer or not colonist_available(s):
        return opts
    out = []
    for a in opts:
        out.append(a)
        if a["type"] in ("plantation", "quarry", "build", "forest"):
            out.append({**a, "colonist": False})
    return out


def take_colonist(s: State) -> bool:
    """One colonist from the supply, else from the ship (hospice, university)."""
    if s.colonist_supply > 0:
        s.colonist_supply -= 1
        return True
    if s.colonist_ship > 0:
        s.colonist_ship -= 1
        return True
    return False


def trigger_end(s: State, reason: str, ev: list[Event], text: str) -> None:
    """Note a game-end condition; the round is still played to its end."""
    if reason not in s.end_triggered.split(", "):
        s.end_triggered = ", ".join(filter(None, [s.end_triggered, reason]))
        say(ev, None, text)


_WITH_ARTICLE = (
    N_("a corn"),
    N_("an indigo"),
    N_("a sugar"),
    N_("a tobacco"),
    N_("a coffee"),
    N_("a quarry"),
)


def tile_name(tile: int) -> Words:
    """A tile's kind with its article, as "takes %(tile)s tile" needs it."""
    return term(_WITH_ARTICLE[tile])


def goods_text(kind: int, count: int) -> str:
    return f"{count} {GOODS[kind]}"


def privilege(s: State, seat: int) -> int:
    """How often the role's privilege counts for ``seat``: 0 (not the role's
    chooser), 1, or 2 with an occupied Library (003_… lines 363-364:
    "Doubles the role bonus whenever you take a role card")."""
    if seat != s.role_player:
        return 0
    return 2 if s.x is not None and s.players[seat].active("library") else 1
