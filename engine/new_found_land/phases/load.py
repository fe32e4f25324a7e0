"""Load: the nation's table by crate value (a less valuable good may be
chosen); then draw that many one-time cards and keep one.  England's colonial
harbour keeps one more when at least 2 were drawn.  Da Gama: +3 crates."""

from __future__ import annotations

from engine.interface import Event
from engine.new_found_land.common import draw, gain_goods, say, seat_ref, whisper
from engine.new_found_land.data import DA_GAMA_CRATES, GOODS, RANK, SHIPS, load_good
from engine.new_found_land.phases.planning import ships_at
from engine.new_found_land.state import State
from engine.words import msg, nmsg, term


def crate_value(ships: list[list]) -> int:
    return sum(SHIPS[sid].crate + (DA_GAMA_CRATES if c == "da_gama" else 0) for sid, c in ships)


def begin(s: State, seat: int, ev: list[Event]) -> bool:
    s.work = {"crate": crate_value(ships_at(s, seat)), "keep": 0}
    return True


def options(s: State, seat: int) -> list[dict]:
    if s.work["keep"]:
        return [{"type": "keep", "card": c} for c in s.drawn]
    best = RANK[load_good(s.players[seat]["nation"], s.work["crate"])]
    return [{"type": "load", "good": g} for g in GOODS[: best + 1]]


def act(s: State, seat: int, a: dict, ev: list[Event]) -> bool:
    p = s.players[seat]
    if a["type"] == "load":
        gain_goods(s, seat, {a["good"]: 1})
        say(ev, seat, msg("%(who)s loads 1 %(good)s.", who=seat_ref(seat), good=term(a["good"])))
        s.drawn = draw(s, "card_pile", "cards", s.work["crate"])
        keep = 1 + ("colonial_harbour" in p["exts"] and len(s.drawn) >= 2)
        s.work["keep"] = min(keep, len(s.drawn))
        who = seat_ref(seat)
        whisper(
            ev,
            seat,
            msg("%(who)s draws %(cards)s.", who=who, cards=", ".join(s.drawn) or msg("no cards")),
            nmsg(
                "%(who)s draws %(n)s one-time card.",
                "%(who)s draws %(n)s one-time cards.",
                len(s.drawn),
                who=who,
            ),
        )
        return not s.drawn
    s.drawn.remove(a["card"])
    p["hand"].append(a["card"])
    s.work["keep"] -= 1
    whisper(
        ev,
        seat,
        msg("%(who)s keeps %(card)s.", who=seat_ref(seat), card=a["card"]),
        msg("%(who)s keeps a card.", who=seat_ref(seat)),
    )
    if not s.work["keep"] or not s.drawn:
        s.discard["cards"].extend(s.drawn)
        return True
    return False
