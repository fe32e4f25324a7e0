"""Choosing roles, and the end of a role and of a round."""

from __future__ import annotations

from functools import cache

from engine.interface import Event
from engine.puerto_rico import guests
from engine.puerto_rico.data import SETUPS
from engine.puerto_rico.phases.common import privilege, say, seat_ref
from engine.puerto_rico.state import State
from engine.turns import NO_EVENTS
from engine.words import N_, msg, nmsg, term

ROLE_TITLES = {
    "settler": N_("Settler"),
    "mayor": N_("Mayor"),
    "builder": N_("Builder"),
    "craftsman": N_("Craftsman"),
    "trader": N_("Trader"),
    "captain": N_("Captain"),
    "prospector": N_("Prospector"),
    "prospector2": N_("Prospector"),
}


# The action for each role, made once and shared: never changed by callers.
ROLE_ACTIONS = {r: {"type": "role", "role": r} for r in ROLE_TITLES}


@cache
def _role_actions(roles: tuple[str, ...]) -> list[dict]:
    """The actions for the roles on offer (a shared list: read it only).
    Only some hundred sets of roles can be on offer."""
    return [ROLE_ACTIONS[r] for r in roles]


def options(s: State, seat: int) -> list[dict]:
    opts = _role_actions(tuple(s.roles))
    if s.x is None:
        return opts
    # Guests may move before a role is chosen (a Guest house owner's chance to
    # man a building before its phase).
    return guests.with_moves(s, seat, opts)


def act(s: State, seat: int, action: dict, ev: list[Event]) -> str | None:
    """Take the role; returns the role whose phase begins now (entered by
    ``phases.act``), None for a prospector, which has no phase, or a guest moved."""
    if action["type"] == "guest":
        guests.move(s, seat, action, ev)
        s._legal = options(s, seat)
        return None
    role = action["role"]
    coins = s.roles.pop(role)
    s.taken[role] = seat
    p = s.edit(seat)
    p.doubloons += coins
    s.role_player = seat
    if ev is not NO_EVENTS:
        _say_chosen(ev, seat, role, coins)
    if role.startswith("prospector"):
        # Prospector: no action for anybody, one doubloon from the bank
        # (two with a Library).
        pay = privilege(s, seat)
        p.doubloons += pay
        s.bank -= pay
        end_role(s, ev)
        return None
    return role


def _say_chosen(ev: list[Event], seat: int, role: str, coins: int) -> None:
    role_title, who = term(ROLE_TITLES[role]), seat_ref(seat)
    if coins:
        say(
            ev,
            seat,
            nmsg(
                "%(who)s chooses the %(role)s and the %(n)s doubloon on it.",
                "%(who)s chooses the %(role)s and the %(n)s doubloons on it.",
                coins,
                who=who,
                role=role_title,
            ),
        )
    else:
        say(ev, seat, msg("%(who)s chooses the %(role)s.", who=who, role=role_title))


def end_role(s: State, ev: list[Event]) -> None:
    s.picks += 1
    s.order, s.step = [], 0
    if s.picks == s.n * SETUPS[s.n].roles_per_player:
        end_round(s, ev)
        return
    s.phase = "role"
    # 3-5 players: each picks once, clockwise from the governor.  Two players:
    # they alternate until each has picked three (2-player variant).
    s.turn = (s.governor + s.picks) % s.n


def end_round(s: State, ev: list[Event]) -> None:
    left = s.roles  # one doubloon on each role nobody took
    s.bank -= len(left)
    s.roles = {r: left[r] + 1 if r in left else 0 for r in SETUPS[s.n].roles}
    s.taken = {}
    s.picks = 0
    if s.end_triggered:
        s.over, s.phase, s.turn = True, "over", None
        say(ev, None, msg("The game is over."))
        return
    s.governor = (s.governor + 1) % s.n
    s.round += 1
    s.phase, s.turn = "role", s.governor
    if ev is not NO_EVENTS:
        say(
            ev,
            s.governor,
            msg("Round %(round)s: %(who)s is governor.", round=s.round, who=seat_ref(s.governor)),
        )
