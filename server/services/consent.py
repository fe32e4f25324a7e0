"""Consent: a question put to some players that happens only when every one
of them says yes (takebacks, proposals, rematches).

Each kind of request is a row with ``status`` ("open" while it waits),
``agreed`` (the user ids who said yes so far) and, where it runs out, an
``expires_at``.  The pattern is the same for all of them:

- **ask**: the row is made open, with its deadline (``deadline``);
- **answer** under a row lock (``locked_request``): two players answering at
  once each add their yes (``add_yes``), and exactly one of them sees that
  everybody has agreed;
- **close once** (``close``): of two answers, or an answer and the
  scheduler's sweep at the same moment, exactly one ends the request; the
  other gets the kind's own "no longer holds" error;
- **lapse** (``sweep``): the scheduler ends what ran out, one request a
  transaction, skipping those an answer ended first.

What happens when a request ends (a move taken back, a new game started, a
note on the record) stays with each kind.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable
from typing import TypeVar

from server.db import db, locked
from server.models import BaseModel

Row = TypeVar("Row", bound=BaseModel)


def deadline(settings, name: str, default_hours: float, now: dt.datetime) -> dt.datetime:
    """When a request asked ``now`` lapses: the ``name`` setting, in hours."""
    return now + dt.timedelta(hours=float(settings.get(name, default_hours)))


def locked_request(model: type[Row], request_id: int, game_id: int) -> Row | None:
    """The request of this game, locked until the transaction ends."""
    return locked(model.select().where((model.id == request_id) & (model.game == game_id))).first()


def add_yes(model: type[Row], request: Row, user_id: int, asked: Iterable[int]) -> list[int] | None:
    """Keep ``user_id``'s yes; the list of everybody who agreed when nobody
    in ``asked`` is still to answer, else None (it waits for the others)."""
    agreed = sorted(set(request.agreed) | {user_id})
    model.update(agreed=agreed).where(model.id == request.id).execute()
    request.agreed = agreed
    return None if set(asked) - set(agreed) else agreed


def close(model: type[Row], request: Row, status: str, now: dt.datetime, stale: Exception) -> None:
    """End the request once with ``status``; ``stale`` is raised when
    something else ended it first."""
    changes: dict[str, object] = {"status": status}
    if "ended_at" in model._meta.fields:
        changes["ended_at"] = now
    won = (
        model.update(**changes).where((model.id == request.id) & (model.status == "open")).execute()
    )
    if won != 1:
        raise stale
    request.status = status


def sweep(requests: Iterable[Row], lapse: Callable[[Row], int], stale: type[Exception]) -> int:
    """Run ``lapse`` on each request in a transaction of its own; the count
    of those it ended.  A ``stale`` one (an answer, a move or another
    scheduler came first) is passed over."""
    ended = 0
    for request in list(requests):
        try:
            with db.atomic():
                ended += lapse(request)
        except stale:
            continue
    return ended
