"""What a viewer may see of a game, as plain data for pages and mails.

Everything here goes through the engine's per-seat view and ``text_for``, so a
page or mail built from it can hold no other seat's hidden information.
Whether a viewer may see the game at all is visibility.py's one rule.
"""

from __future__ import annotations

import datetime as dt
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache, partial
from threading import Lock

from peewee import JOIN

from engine import Event as EngineEvent
from engine.bots import BOTS
from engine.interface import Choice, Section, name_seats
from engine.words import N_, Words, msg, term
from server.db import Prepared
from server.i18n import say
from server.models import Event, Game, Seat, TableMessage, User
from server.services import model_rows, tenures
from server.services.clock.deadlines import local_text
from server.services.state_store import rules

TALK_RIDE_ALONG = 20  # table-talk messages at most in one turn mail or digest


@dataclass(frozen=True)
class LogLine:
    seq: int
    text: str


def seat_names(game: Game, language: str | None = None) -> list[str]:
    return names_of(seats_with_users(game), language)


# Plain rows, made into models by model_rows: every page and move reads them.
SEATS_WITH_USERS = Prepared(
    lambda game_id: (
        Seat.select(Seat, User)
        .join(User, JOIN.LEFT_OUTER, on=(Seat.user == User.id))
        .where(Seat.game == game_id)
        .order_by(Seat.index)
        .tuples()
    )
)


def seats_with_users(game: Game) -> list[Seat]:
    """The game's seats in order, each with its user (None for a bot's)."""
    return [seat_with_user(row) for row in SEATS_WITH_USERS.rows(game.id)]


def seat_with_user(row: Sequence) -> Seat:
    """A seat with its user (``seat.user``, None for a bot's) from a row of
    ``Seat.select(Seat, User)`` joined as above, read as a tuple."""
    count = len(model_rows.field_names(Seat))
    seat = model_rows.made(Seat, row[:count])
    seat.__rel__["user"] = model_rows.made_or_none(User, row[count:])
    return seat


def names_of(seats: list[Seat], language: str | None = None) -> list[str]:
    """The seats' names; with ``language``, a bot's or empty seat's in it."""
    names = [_name(seat) for seat in seats]
    return [say(language, name) for name in names] if language else names


# A seat nobody holds is called by what plays it (Words: say() puts them
# in the reader's language; where a plain string is expected they read English).
BOT_SEAT_NAMES = {
    "random": N_("Random bot %(number)s"),
    "heuristic": N_("Steady bot %(number)s"),
    "search": N_("Thinking bot %(number)s"),
}


def _name(seat: Seat) -> str:
    if seat.user_id:
        return seat.user.name
    if seat.bot:  # a practice game's bot: "Steady bot 2"
        return msg(BOT_SEAT_NAMES.get(seat.bot, N_("Bot %(number)s")), number=seat.index + 1)
    return msg(N_("Player %(number)s"), number=seat.index + 1)


def bot_title(name: str | None) -> str:
    bot = BOTS.get(name or "")
    return bot.title if bot else "bot"


def board(
    game: Game, state, viewer: int | None, names: list[str], language: str | None = None
) -> list[Section]:
    """The board's sections as ``viewer`` sees them, in ``language``."""
    game_rules = rules(game)
    said = partial(say, language, domain=game_rules.domain)  # the game's words first
    seats = tuple(names)
    return [
        Section(
            name_seats(said(section.title), names),
            _said_rows(section.rows, seats, language, game_rules.domain),
        )
        for section in game_rules.board(game_rules.view(state, viewer), names)
    ]


# Said rows by the engine's rows object: an engine hands out the very same
# (immutable) rows again while they read the same (a player's
# board that did not change, the buildings in play), so a page and the turn
# mails say them once.  Keyed by identity, not by equal text (two Words
# may read alike in English and not in German); an entry holds its rows,
# so their id stays theirs while it is here.
_SAID: OrderedDict[tuple, tuple[tuple, tuple]] = OrderedDict()
_SAID_MAX = 512
_SAID_LOCK = Lock()


def _said_rows(
    rows: tuple, names: tuple[str, ...], language: str | None, domain: str | None
) -> tuple:
    key = (id(rows), names, language, domain)
    with _SAID_LOCK:
        hit = _SAID.get(key)
        if hit is not None and hit[0] is rows:
            _SAID.move_to_end(key)
            return hit[1]
    said = partial(say, language, domain=domain)
    value = tuple((said(label), name_seats(said(text), names)) for label, text in rows)
    with _SAID_LOCK:
        _SAID[key] = (rows, value)
        _SAID.move_to_end(key)
        while len(_SAID) > _SAID_MAX:
            _SAID.popitem(last=False)
    return value


def choices(
    game: Game, state, seat: int, names: list[str], language: str | None = None
) -> list[Choice]:
    """What ``seat`` may do now, labelled in ``language``."""
    game_rules = rules(game)
    said = partial(say, language, domain=game_rules.domain)
    return [
        Choice(c.action, name_seats(said(c.label), names), said(c.group))
        for c in game_rules.choices(state, seat)
    ]


def log_lines(
    game: Game,
    viewer: int | None,
    names: list[str],
    after: int = 0,
    upto: int | None = None,
    language: str | None = None,
    roster: tenures.Roster | None = None,
) -> list[LogLine]:
    """The log's lines, each naming the seats as they were held at its row
    (services/tenures.py), not as they are held today.  ``roster``:
    ``tenures.roster(game, names)`` when the caller has read it already."""
    if upto is None:
        rows = LOG_ROWS_AFTER.rows(game.id, after)
    else:
        rows = (
            _log_rows(game.id).where((Event.seq > after) & (Event.seq <= upto)).order_by(Event.seq)
        )
    return _lines(rows, viewer, roster or tenures.roster(game, names), language, rules(game).domain)


def recent_log_lines(
    game: Game,
    viewer: int | None,
    names: list[str],
    count: int,
    language: str | None = None,
    roster: tenures.Roster | None = None,
) -> list[LogLine]:
    """The last ``count`` lines of the log, reading only the last ``count``
    rows (a row has one line or more), so a page costs the same at move 300
    as at move 3."""
    rows = LAST_LOG_ROWS.rows(game.id, count)
    return _lines(
        reversed(rows), viewer, roster or tenures.roster(game, names), language, rules(game).domain
    )[-count:]


def recent_and_since(
    game: Game,
    viewer: int | None,
    names: list[str],
    count: int,
    since: int | None,
    language: str | None = None,
    roster: tenures.Roster | None = None,
) -> tuple[list[LogLine], list[LogLine]]:
    """``recent_log_lines`` and, when ``since`` is given, ``log_lines`` after
    it: from the same rows when the last ``count`` rows reach back to
    ``since`` (the page after one's own move), each row's texts made once."""
    roster = roster or tenures.roster(game, names)
    rows = list(reversed(LAST_LOG_ROWS.rows(game.id, count)))
    lines = _lines(rows, viewer, roster, language, rules(game).domain)
    if since is None:
        return lines[-count:], []
    if len(rows) < count or (rows and rows[0].seq <= since + 1):
        return lines[-count:], [line for line in lines if line.seq > since]
    return lines[-count:], log_lines(
        game, viewer, names, after=since, language=language, roster=roster
    )


def _log_rows(game_id: int):
    return (
        Event.select(
            Event.seq,
            Event.events.coerce(False),  # the JSON text: _lines keeps texts by it
            Event.undone,
            Event.actor,
            Event.seat,
            Event.kind,
            User.name.alias("by_name"),
        )
        .join(User, JOIN.LEFT_OUTER, on=(Event.user == User.id))
        .where(Event.game == game_id)
        .namedtuples()  # plain rows, not models: fifteen of them on every page
    )


LAST_LOG_ROWS = Prepared(
    lambda game_id, count: _log_rows(game_id).order_by(Event.seq.desc()).limit(count)
)
LOG_ROWS_AFTER = Prepared(
    lambda game_id, after: _log_rows(game_id).where(Event.seq > after).order_by(Event.seq)
)


def _lines(
    rows,
    viewer: int | None,
    roster: tenures.Roster,
    language: str | None,
    domain: str | None = None,
) -> list[LogLine]:
    """``rows``: log rows whose ``events`` is the column's JSON text."""
    lines = []
    for row in rows:
        names = roster.names_at(row.seq, language)
        for text in _texts_of(names, language)(
            row.events,
            row.undone,
            row.actor,
            row.seat,
            row.kind,
            row.by_name,
            viewer,
            tuple(names),
            language,
            domain,
        ):
            lines.append(LogLine(row.seq, text))
    return lines


def _texts(
    events: str,
    undone: bool,
    actor: str,
    seat: int | None,
    kind: str,
    by_name: str | None,
    viewer: int | None,
    names: tuple[str, ...],
    language: str | None,
    domain: str | None,
) -> tuple[str, ...]:
    """A log row's lines as ``viewer`` reads them (from its events' JSON text)."""
    in_language = partial(say, language, domain=domain)
    # A bot's name (Words) said in the reader's language in the text as in
    # its "[bot for …]" mark: not "[bot pour Bot au hasard 2] Random bot 2 prend…".
    names = tuple(say(language, n) if isinstance(n, Words) else n for n in names)
    found = []
    for data in Event.events.python_value(events):
        text = EngineEvent.from_json(data).text_for(viewer, names, in_language)
        if text and seat is not None and seat < len(names):
            text = _played_by(actor, kind, by_name, names[seat], text, language)
        if text:
            found.append(f"(undone) {text}" if undone else text)
    return tuple(found)


# A row's lines depend on nothing but the arguments, the row's content among
# them (its JSON text, undone or not, who played it), and the viewer: a
# viewer gets only what their own seat may read.  Every page shows the last
# fifteen rows, most of them the same as on the page before.  Kept only for
# plain-text names in a given language (a bot's name may be Words, which
# compare equal to a str while they say more).
_kept_texts = lru_cache(maxsize=4096)(_texts)


def _texts_of(names: list[str], language: str | None):
    return _kept_texts if language is not None and all(type(n) is str for n in names) else _texts


def event_texts(
    events: str, viewer: int | None, names: list[str], language: str | None
) -> tuple[str, ...]:
    """What ``viewer`` reads of a row's events (their JSON text) in
    ``language``, as they are (the engine's words in the site's catalog)."""
    return _texts_of(names, language)(
        events, False, "player", None, "move", None, viewer, tuple(names), language, None
    )


def _played_by(
    actor: str, kind: str, by_name: str | None, name: str, text: str, language: str | None
) -> str:
    """A move its seat's player did not make says who or what made it."""
    if actor == "bot":
        return say(language, msg("[bot for %(name)s] %(text)s", name=name, text=text))
    if actor == "timeout":
        return say(language, msg("[the clock for %(name)s] %(text)s", name=name, text=text))
    if actor == "moderator" and kind == "move":
        return say(
            language,
            msg(
                "[%(who)s (moderator) for %(name)s] %(text)s",
                who=by_name or "?",
                name=name,
                text=text,
            ),
        )
    return text


def outcome_rows(game: Game, names: list[str], language: str | None = None) -> list[dict]:
    """Final scores, best first, from the outcome stored when the game ended;
    the parts of each score named in ``language`` (the engines' English
    names are catalog entries)."""
    if not game.outcome:
        return []
    winners = set(game.outcome["winners"])
    rows = [
        {
            "name": names[s["seat"]],
            "seat": s["seat"] + 1,
            "total": s["total"],
            "tiebreak": s["tiebreak"],
            "breakdown": [
                [say(language, term(label), rules(game).domain), value]
                for label, value in s["breakdown"]
            ],
            "winner": s["seat"] in winners,
        }
        for s in game.outcome["scores"]
    ]
    return sorted(rows, key=lambda r: (-r["total"], -r["tiebreak"]))


def result_names(
    game: Game, names: list[str], language: str | None = None, roster: tenures.Roster | None = None
) -> list[str]:
    """The names a result shows: each seat's last holder with everybody who
    held it before ("N, who took over from P")."""
    return (roster or tenures.roster(game, names)).final_names(language)


def outcome_reason(game: Game, language: str | None = None) -> str:
    """Why the game ended, in ``language`` when the engine left its template."""
    outcome = game.outcome or {}
    if "reason_words" in outcome:
        return say(language, Words.from_json(outcome["reason_words"]), rules(game).domain)
    return outcome.get("reason", "")


def deadline_text(
    deadline: dt.datetime | None, tzname: str = "UTC", language: str | None = None
) -> str:
    """The deadline as the reader reads it (deadlines.local_text).  Every
    page of a game says its deadline until the turn ends: the text is kept
    by its arguments, which are all it depends on (a datetime from the
    database, naive UTC; an aware one is said anew, since an aware time
    equals another one of another zone)."""
    if deadline is not None and deadline.tzinfo is not None:
        return local_text(deadline, tzname, language)
    return _kept_deadline_text(deadline, tzname, language)


_kept_deadline_text = lru_cache(maxsize=1024)(local_text)


# -- table talk ---------------------------------------------------------------
def table_talk(game: Game, limit: int = 30, names: list[str] | None = None) -> list[dict]:
    """The table's latest messages, oldest first, as every viewer may see them."""
    names = names or seat_names(game)
    rows = LAST_TALK.rows(game.id, limit)
    return [_shown(row, names) for row in reversed(rows)]


LAST_TALK = Prepared(
    lambda game_id, limit: (
        TableMessage.select(TableMessage, User)
        .join(User)
        .where(TableMessage.game == game_id)
        .order_by(TableMessage.id.desc())
        .limit(limit)
    )
)


def _shown(row: TableMessage, names: list[str]) -> dict:
    """A message under its author's own name (not the seat's holder today)."""
    text = f"(hidden by a moderator: {row.hidden_reason})" if row.hidden else row.text
    return {
        "id": row.id,
        "name": row.user.name,
        "seat": row.seat + 1,
        "text": text,
        "hidden": row.hidden,
        "at": row.created_at,
    }


UNSEEN_TALK = Prepared(
    lambda game_id, seen_id, seat_index: (
        TableMessage.select(TableMessage, User)
        .join(User)
        .where(
            (TableMessage.game == game_id)
            & (TableMessage.id > seen_id)
            & (TableMessage.seat != seat_index)
        )
        .order_by(TableMessage.id)
    )
)


def unseen_talk(game: Game, seat: Seat, names: list[str] | None = None) -> list[dict]:
    """What ``seat`` has not had by mail yet (for its turn mail or digest);
    marks it had.  ``names``: the seats' names when the caller has them."""
    rows = UNSEEN_TALK.rows(game.id, seat.talk_seen_id, seat.index)
    if not rows:
        return []
    Seat.update(talk_seen_id=rows[-1].id).where(Seat.id == seat.id).execute()
    names = names or seat_names(game)
    return [_shown(row, names) for row in rows[-TALK_RIDE_ALONG:]]
