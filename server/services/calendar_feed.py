"""A player's deadlines as an iCalendar feed (RFC 5545, built with the
icalendar library): one event per game whose clock runs for them, at the
deadline.  The feed's address is a signed link (mail/links.py); it links to
the game page, never to a seat link that would sign anybody in."""

from __future__ import annotations

import datetime as dt

from icalendar import Calendar, Event

from engine.interface import name_seats
from server.models import Game, Seat, User
from server.services.state_store import rules
from server.services.what_a_seat_sees import seat_names

EVENT_MINUTES = 15  # how long the deadline "event" is in a calendar


def pending_seats(user: User) -> list[Seat]:
    return list(
        Seat.select(Seat, Game)
        .join(Game)
        .where(
            (Seat.user == user.id)
            & (Game.status == "active")
            & (Game.to_move == Seat.index)
            & Seat.deadline.is_null(False)
        )
        .order_by(Seat.deadline)
    )


def feed(user: User, base_url: str, id_domain: str, now: dt.datetime) -> bytes:
    cal = Calendar()
    cal.add("prodid", "-//pbem//deadlines//EN")
    cal.add("version", "2.0")
    cal.add("x-wr-calname", "pbem: your deadlines")
    for seat in pending_seats(user):
        game = seat.game
        deadline = seat.deadline.replace(tzinfo=dt.UTC)
        event = Event()
        # One UID per turn: a moved deadline updates the event, a new turn
        # is a new event.
        began = seat.turn_started_at or seat.deadline
        event.add("uid", f"pbem-{game.id}-{seat.index}-{began:%Y%m%d%H%M%S}@{id_domain}")
        event.add("dtstamp", now.replace(tzinfo=dt.UTC))
        event.add("dtstart", deadline)
        event.add("dtend", deadline + dt.timedelta(minutes=EVENT_MINUTES))
        event.add("summary", f"Deadline: your move in {game.name} ({rules(game).title})")
        prompt = name_seats(game.prompt, seat_names(game))
        event.add("description", f"{prompt}\n{base_url}/games/{game.id}")
        event.add("url", f"{base_url}/games/{game.id}")
        cal.add_component(event)
    return cal.to_ical()
