"""What the scheduler does when it wakes up: every function takes ``now``.

Each due row is claimed atomically before it is acted on (a conditional
UPDATE; on PostgreSQL first ``SELECT … FOR UPDATE SKIP LOCKED``), and the
action plus its mails commit in one transaction, so two schedulers running at
once never send a reminder twice or auto-pass a seat twice.  A player's move
racing a timeout is settled by the game's sequence number in ``moves.play``.
"""

from __future__ import annotations

import datetime as dt
import logging
import socket
import time
from dataclasses import dataclass, field

from peewee import JOIN, PostgresqlDatabase

from engine import IllegalMove
from engine.interface import name_seats
from server.db import Prepared, db, locked
from server.i18n import say
from server.mail.compose import Mailer
from server.mail.smtp_sender import holder_running
from server.models import Game, Seat, Snapshot, User, Vacation
from server.services import bot_seats, leagues, rematches, reply_menu, takebacks
from server.services.clock import deadlines, outage_guard, reach, seat_clock, stale_lobbies
from server.services.move_news import next_turn, result
from server.services.moves import MoveRejected, play
from server.services.state_store import forget_snapshot, load_state, rules
from server.services.what_a_seat_sees import names_of, seat_names, seats_with_users, unseen_talk

log = logging.getLogger("pbem.scheduler")
MAX_CHAIN = 1000  # decisions one timeout may play for one seat's turn
MAX_BOT_ROUNDS = 50  # claim rounds of one run_bots: bots answering bots


@dataclass
class SweepReport:
    vacations: int = 0
    lobbies_reminded: int = 0
    lobbies_closed: int = 0
    timeouts: int = 0
    actions: int = 0
    reminders: int = 0
    last_calls: int = 0
    digests: int = 0
    takebacks: int = 0
    rematches: int = 0
    leagues: int = 0
    outage: outage_guard.Outage | None = None
    skipped: list[str] = field(default_factory=list)


def sweep(
    settings, mailer: Mailer, now: dt.datetime, batch: int | None = None, holder: str = ""
) -> SweepReport:
    """One pass over everything due at ``now``, oldest first.

    Timeouts are claimed a few at a time (SCHEDULER_BATCH) for a short lease
    (SCHEDULER_LEASE_SECONDS): schedulers running at once share the work, and
    the claims of one that died run out within seconds for the others."""
    report = SweepReport()
    report.outage = outage_guard.guard(settings, mailer, now)
    report.vacations = start_vacations(now)
    batch = batch or settings["SCHEDULER_BATCH"]
    lease = dt.timedelta(seconds=settings["SCHEDULER_LEASE_SECONDS"])
    started = time.monotonic()
    while True:  # absent seats may chain into each other
        # The lease counts from the real time now, not from the sweep's start:
        # a long sweep must not hand out claims that are already over.
        until = now + dt.timedelta(seconds=time.monotonic() - started) + lease
        done = run_timeouts(settings, mailer, now, batch, report, until, holder=holder)
        if done < batch:
            break
    report.reminders = send_reminders(mailer, now, settings["SCHEDULER_REMINDER_BATCH"])
    report.digests = send_digests(settings, mailer, now, settings["SCHEDULER_REMINDER_BATCH"])
    report.takebacks = takebacks.sweep(mailer, now)  # unanswered requests lapse
    report.rematches = rematches.sweep(mailer, now)  # so do rematch requests
    report.leagues = leagues.sweep(mailer, now)  # rounds begin and end
    report.lobbies_reminded, report.lobbies_closed = stale_lobbies.sweep_lobbies(
        settings, mailer, now
    )
    return report


# -- claiming ---------------------------------------------------------------
def _is_postgres() -> bool:
    return isinstance(db.obj, PostgresqlDatabase)


def seats_then_games():
    """Seats joined to their games, seats scanned first.

    SQLite takes CROSS JOIN as "this table order": the scan starts on the
    seat's deadline (or reminder) index, so a sweep reads the rows that are
    due and not every active game (bench/scheduler_sweep.py).  PostgreSQL
    plans it like any inner join."""
    return Seat.select(Seat.id).join(Game, JOIN.CROSS).where(Seat.game == Game.id)


def due_seats_query(now: dt.datetime, bots_only: bool = False):
    unclaimed = Seat.claimed_until.is_null() | (Seat.claimed_until < now)
    query = (
        seats_then_games()
        .where(seat_clock.due_condition(now) & unclaimed)
        .order_by(Seat.deadline, Seat.id)
    )
    return query.where(Seat.bot.is_null(False)) if bots_only else query


def claim_due_seats(
    now: dt.datetime, limit: int, until: dt.datetime, bots_only: bool = False, holder: str = ""
) -> list[Seat]:
    """Seats whose deadline has passed, with their users (a practice game's
    bot seats have none), claimed for this scheduler (``holder``) until ``until``."""
    query = (
        due_seats_query(now, bots_only)
        .select(Seat, User)
        .switch(Seat)
        .join(User, JOIN.LEFT_OUTER, on=(Seat.user == User.id), attr="user")
        .limit(limit)
    )
    unclaimed = Seat.claimed_until.is_null() | (Seat.claimed_until < now)
    with db.atomic():
        if _is_postgres():
            seats = list(query.for_update(of=Seat, skip_locked=True))
            if seats:
                Seat.update(claimed_until=until, claimed_by=holder).where(
                    Seat.id.in_([s.id for s in seats])
                ).execute()
            return seats
    claimed = []
    for row in list(query):
        with db.atomic():
            won = (
                Seat.update(claimed_until=until, claimed_by=holder)
                .where((Seat.id == row.id) & unclaimed)
                .execute()
            )
        if won == 1:
            claimed.append(row)
    return claimed


def release_dead_claims(now: dt.datetime, host: str | None = None) -> int:
    """Free the seats claimed by schedulers of this host that are no longer
    running (a kill -9 leaves its claims behind until their lease ends);
    returns how many.  Called by a scheduler as it starts."""
    host = host or socket.gethostname()
    holders = (
        Seat.select(Seat.claimed_by)
        .distinct()
        .where((Seat.claimed_until >= now) & Seat.claimed_by.startswith(f"{host}:"))
    )
    freed = 0
    for row in holders:
        holder = row.claimed_by
        if not holder_running(holder):
            freed += (
                Seat.update(claimed_until=None, claimed_by="")
                .where((Seat.claimed_by == holder) & (Seat.claimed_until >= now))
                .execute()
            )
    return freed


# -- vacations ----------------------------------------------------------------
def start_vacations(now: dt.datetime) -> int:
    """At a vacation's start, move the player's pending deadlines by its length."""
    started = 0
    due = (
        Vacation.select()
        .where(
            (Vacation.started == False)  # noqa: E712
            & (Vacation.starts_at <= now)
        )
        .order_by(Vacation.starts_at)
    )
    for vacation in list(due):
        with db.atomic():
            won = (
                Vacation.update(started=True)
                .where((Vacation.id == vacation.id) & (Vacation.started == False))  # noqa: E712
                .execute()
            )
            if won == 1 and vacation.ends_at > now:
                deadlines.shift_pending(
                    vacation.user_id, vacation.ends_at - vacation.starts_at, now
                )
            started += won
    return started


# -- timeouts -----------------------------------------------------------------
def run_bots(settings, mailer: Mailer, now: dt.datetime, holder: str = "") -> SweepReport:
    """Only the seats bots play, every few seconds (BOT_INTERVAL_SECONDS), so
    that a practice game answers at once; a bot's move may make the next bot
    due, so go on while there is work, up to a bound."""
    report, batch = SweepReport(), settings["SCHEDULER_BATCH"]
    lease = dt.timedelta(seconds=settings["SCHEDULER_LEASE_SECONDS"])
    for _ in range(MAX_BOT_ROUNDS):
        if not run_timeouts(
            settings, mailer, now, batch, report, now + lease, bots_only=True, holder=holder
        ):
            break
    return report


def run_timeouts(
    settings,
    mailer: Mailer,
    now: dt.datetime,
    batch: int,
    report: SweepReport,
    until: dt.datetime,
    bots_only: bool = False,
    holder: str = "",
) -> int:
    seats = claim_due_seats(now, batch, until, bots_only, holder)
    for seat in seats:
        try:
            played = time_out(settings, mailer, seat, now, report)
        except MoveRejected as exc:  # a player's move got there first
            report.skipped.append(f"seat {seat.id}: {exc}")
            CLAIM_ENDS.run(seat.id)
            continue
        if played:
            report.timeouts += 1
            report.actions += played
    return len(seats)


def not_reached(
    settings, mailer: Mailer, game: Game, seat: Seat, now: dt.datetime, report: SweepReport
) -> bool:
    """Nobody times out unreached or unwarned: True when the seat waits instead.
    ``game`` and ``seat``: as they are now, both locked (time_out).

    While the turn mail (or a last call) of the turn has not gone out, the
    seat's clock stands still until it has (services/clock/reach.py), however long
    the mail waits.  A turn whose deadline came before any reminder was
    delivered gets a last call and LAST_CALL_HOURS more from its delivery
    (unless its player turned reminders off)."""
    if seat.bot or seat.absent or seat.withdrawn:
        return False
    if reach.hold_if_waiting(seat, now):
        report.skipped.append(f"seat {seat.id}: its turn mail or last call has not gone out")
        return True
    if seat.reminded_at is not None or not seat.user.optional_mail:
        return False
    report.last_calls += _last_call(settings, mailer, game, seat, now)
    return True


def _last_call(settings, mailer: Mailer, game: Game, seat: Seat, now: dt.datetime) -> int:
    """Move the deadline LAST_CALL_HOURS on and queue the last call; the
    clock stands still until the sender delivered it, which is then the
    warning (services/outbox.py)."""
    with db.atomic():
        deadline = now + dt.timedelta(hours=max(settings["LAST_CALL_HOURS"], 0))
        won = (
            Seat.update(deadline=deadline, next_reminder_at=None, claimed_until=None)
            .where(
                (Seat.id == seat.id)
                & Seat.reminded_at.is_null()
                & Seat.mail_hold_since.is_null()
                & (Seat.deadline == seat.deadline)
            )
            .execute()
        )
        if won != 1 or game.to_move != seat.index or game.status != "active":
            return 0
        seat.deadline = deadline
        if _queue_reminder(mailer, game, seat, last_call=True) is None:
            # No mail can go (the player cannot be mailed): the last call
            # is as good as it gets, the timeout comes at the new deadline.
            Seat.update(reminded_at=now).where(Seat.id == seat.id).execute()
        else:
            seat_clock.hold(seat.id, now)
        return 1


def time_out(
    settings, mailer: Mailer, seat: Seat, now: dt.datetime, report: SweepReport | None = None
) -> int:
    """Play the default action for a timed-out seat (read with its user), or
    its bot's moves, for its whole pending turn, unless its player was not
    reached or warned yet (not_reached).  The chain carries the state from
    one move to the next: a timeout costs about what a player's move costs.
    One transaction, with the game and the seat locked once, decides and acts."""
    report = report if report is not None else SweepReport()
    with db.atomic():
        # The game first, then the seat: the order a move locks them in.  Its
        # snapshot comes along, so load_state reads nothing more.
        game = LOCKED_GAME.first(seat.game_id)
        if game is None:
            raise Game.DoesNotExist(f"game {seat.game_id} of seat {seat.id}")
        game.snap = getattr(game, "snap", None)
        fresh = still_due(game, seat, now)
        if fresh is None:
            CLAIM_ENDS.run(seat.id)
            return 0
        seat = fresh
        if not_reached(settings, mailer, game, seat, now, report):
            return 0
        actor = "bot" if seat.bot else "timeout"
        game_rules, state = rules(game), None
        played: list[str] = []
        while (
            len(played) < MAX_CHAIN
            and game.status == "active"
            and not game.paused
            and game.to_move == seat.index
        ):
            if state is None:
                state = load_state(game)
                forget_snapshot(game)  # out of date after the first move
            action = _bot_or_default(game, game_rules, state, seat)
            played.append(game_rules.label(state, action))
            try:
                move = play(
                    game.id,
                    seat.index,
                    action,
                    game.seq,
                    actor,
                    now,
                    mailer=mailer,
                    notify=False,
                    state=state,
                    game=game,
                )
            except IllegalMove as exc:  # would be an engine bug: keep the seat claimed
                raise MoveRejected(f"default action refused: {exc}") from exc
            state, game.seq, game.to_move = move.state, move.seq, move.next_seat
            game.status = "finished" if move.over else "active"
        if played:
            if game.status == "finished":
                game = Game.get_by_id(game.id)  # its outcome, for the final mail
            else:
                game.prompt = game_rules.prompt(state)[:250]  # as play() stored it
            _after_timeout(settings, mailer, game, seat, played, now, state)
        else:
            CLAIM_ENDS.run(seat.id)
    return len(played)


# Read and written once a timeout: their SQL is built once (server/db.py).
LOCKED_GAME = Prepared(
    lambda game_id: locked(
        Game.select(Game, Snapshot)
        .join(Snapshot, JOIN.LEFT_OUTER, on=(Snapshot.game == Game.id), attr="snap")
        .where(Game.id == game_id)
        .limit(1),
        of=Game,
    )
)
CLAIM_ENDS = Prepared(lambda seat_id: Seat.update(claimed_until=None).where(Seat.id == seat_id))


def _timed_out(absent: bool) -> Prepared:
    return Prepared(
        lambda seat_id, timeouts: Seat.update(
            timeouts_in_row=timeouts, absent=absent, claimed_until=None
        ).where(Seat.id == seat_id)
    )


TIMED_OUT = {absent: _timed_out(absent) for absent in (False, True)}


def still_due(game: Game, claimed: Seat, now: dt.datetime) -> Seat | None:
    """The claimed seat as it is now, locked, if its time is still up
    (``seat_clock.is_due``, with ``game`` as it is now) for the same turn;
    None when, since the claim, its player moved and the turn came round
    again, came back from absence, or got more time, or its clock stopped,
    or the game paused or ended.  Its user comes along from the claim."""
    seat = seat_clock.lock(claimed.id)
    if (
        seat is None
        or not seat_clock.is_due(game, seat, now)
        or seat.turn_started_at != claimed.turn_started_at
        or (claimed.bot is not None and seat.bot != claimed.bot)
        or (claimed.absent and not seat.absent)
    ):
        return None
    if claimed.user_id is not None:
        seat.user = claimed.user
    return seat


def _bot_or_default(game: Game, game_rules, state, seat: Seat):
    if seat.bot:
        try:
            return bot_seats.action_for(game, game_rules, state, seat)
        except Exception:  # a bot's bug must not stall the table: it passes
            log.exception("bot %s failed in game %s; playing the default", seat.bot, game.id)
    return game_rules.default_action(state)


def _after_timeout(
    settings,
    mailer: Mailer,
    game: Game,
    seat: Seat,
    played: list[str],
    now: dt.datetime,
    state=None,
) -> None:
    if seat.bot:  # not a timeout: the seat's bot played its turn
        CLAIM_ENDS.run(seat.id)
        _next(game, mailer, now, seats_with_users(game), state)
        return
    timeouts = seat.timeouts_in_row + 1
    # A withdrawn seat (removed or resigned) is expected to pass: no notices.
    becomes_absent = (
        not seat.absent and not seat.withdrawn and timeouts >= settings["ABSENT_AFTER_TIMEOUTS"]
    )
    seat.absent = seat.absent or becomes_absent
    TIMED_OUT[bool(seat.absent)].run(seat.id, timeouts)
    # Read once, after the last change to a seat: the names, and the rows
    # the next turn starts from.
    seats = seats_with_users(game)
    names = names_of(seats)
    lines = [name_seats(text, names) for text in played]
    game_rules = rules(game)
    if not (seat.absent or seat.withdrawn) or becomes_absent:
        mailer.timeout(game, game_rules.title, seat, lines, seat.absent)
    if becomes_absent:
        for moderator in moderators(game):
            mailer.stalling(game, game_rules.title, moderator, names[seat.index], timeouts)
    _next(game, mailer, now, seats, state)


def _next(game: Game, mailer: Mailer, now: dt.datetime, seats: list[Seat], state) -> None:
    if game.status == "finished":
        result(game, mailer)
    else:
        next_turn(game, now, mailer, names_of(seats), state, seats=seats)


def moderators(game: Game) -> list[User]:
    """Who hears that a game is stalling: its host and the site moderators."""
    site = User.select().where(User.is_moderator & (User.id != game.host_id)).order_by(User.id)
    return [User.get_by_id(game.host_id), *site]


# -- reminders ----------------------------------------------------------------
def send_reminders(mailer: Mailer, now: dt.datetime, limit: int) -> int:
    due = (
        seats_then_games()
        .select_extend(Seat.next_reminder_at)
        .where(
            (Seat.next_reminder_at <= now)
            & (Seat.deadline > now)
            & Seat.mail_hold_since.is_null()
            & (Game.status == "active")
            & (Game.paused == False)
        )  # noqa: E712
        .order_by(Seat.next_reminder_at)
        .limit(limit)
    )
    sent = 0
    for row in list(due):
        sent += _remind(mailer, row.id, row.next_reminder_at, now)
    return sent


def _remind(mailer: Mailer, seat_id: int, was_due: dt.datetime, now: dt.datetime) -> int:
    """One reminder, claimed by moving next_reminder_at on (compare and set).

    After a long stop only one reminder goes out for all that fell due.  A
    seat whose turn mail has not gone out gets none: its clock stands still
    until the turn mail is out, and the reminders move on with it.  The
    reminder counts as a warning once delivered (services/outbox.py)."""
    with db.atomic():
        seat = seat_clock.locked(Seat.select(Seat, User).join(User).where(Seat.id == seat_id)).get()
        if seat.next_reminder_at != was_due:
            return 0
        if not seat.absent and reach.hold_if_waiting(seat, now):
            return 0
        game = Game.get_by_id(seat.game_id)
        following = deadlines.next_reminder_after(game, seat, now)
        won = (
            Seat.update(next_reminder_at=following)
            .where(
                (Seat.id == seat_id)
                & (Seat.next_reminder_at == was_due)
                & Seat.mail_hold_since.is_null()
            )
            .execute()
        )
        # Digest readers get reminders too: a digest comes once a day, a
        # deadline may come sooner, and nobody may time out unwarned.
        if won != 1 or seat.absent:
            return 0
        return 1 if _queue_reminder(mailer, game, seat) else 0


def _queue_reminder(mailer: Mailer, game: Game, seat: Seat, last_call: bool = False):
    if seat.user is None:
        raise ValueError(f"seat {seat.index} of game {game.id} has no player to remind")
    state = load_state(game, save=False)
    menu = reply_menu.menu(mailer.settings, game, seat, state)
    return mailer.reminder(
        game,
        rules(game).title,
        seat,
        prompt_for(mailer, game, seat.user, state),
        deadlines.local_text(seat.deadline, seat.user.timezone, seat.user.language),
        menu.context() if menu else None,
        last_call=last_call,
        default_move=default_move_for(game, seat.user, state),
    )


def default_move_for(game: Game, user: User, state) -> str:
    """What the server plays for the seat to move if its time runs out, in
    ``user``'s language ("" when the engine has none to offer)."""
    game_rules = rules(game)
    try:
        action = game_rules.default_action(state)
    except IllegalMove:
        return ""
    return name_seats(
        say(user.language, game_rules.label(state, action)), seat_names(game, user.language)
    )


def prompt_for(mailer: Mailer, game: Game, user: User, state=None) -> str:
    """What the seat to move is asked, in ``user``'s language (the game row
    keeps it in English only)."""
    state = state if state is not None else load_state(game, save=False)
    game_rules = rules(game)
    template, values = game_rules.prompt_message(state)
    return name_seats(
        mailer.game_words(user, game_rules, template, values), seat_names(game, user.language)
    )


# -- digests ------------------------------------------------------------------
def send_digests(settings, mailer: Mailer, now: dt.datetime, limit: int) -> int:
    due = (
        User.select(User.id, User.next_digest_at)
        .where((User.mail_mode == "digest") & (User.next_digest_at <= now))
        .order_by(User.next_digest_at)
        .limit(limit)
    )
    sent = 0
    for row in list(due):
        if row.next_digest_at is None:  # never: NULL is not <= now
            continue
        sent += _digest(settings, mailer, row.id, row.next_digest_at, now)
    return sent


def _digest(settings, mailer: Mailer, user_id: int, was_due: dt.datetime, now: dt.datetime) -> int:
    with db.atomic():
        user = User.get_by_id(user_id)
        following = deadlines.next_digest_time(user, now, settings["DIGEST_HOUR"])
        won = (
            User.update(next_digest_at=following)
            .where((User.id == user_id) & (User.next_digest_at == was_due))
            .execute()
        )
        if won != 1:
            return 0
        items = waiting_games(mailer, user)
        if items:
            mailer.digest(user, items)
        return 1 if items else 0


def waiting_games(mailer: Mailer, user: User) -> list[dict]:
    seats = (
        Seat.select(Seat, Game)
        .join(Game)
        .where(
            (Seat.user == user.id)
            & (Game.status == "active")
            & (Game.to_move == Seat.index)
            & (Seat.withdrawn == False)
        )  # noqa: E712
        .order_by(Seat.deadline)
    )
    return [
        {
            "game": seat.game.name,
            "title": rules(seat.game).title,
            "prompt": prompt_for(mailer, seat.game, user),
            "deadline": deadlines.local_text(seat.deadline, user.timezone, user.language),
            "url": mailer.links.seat_url(seat),
            "talk": unseen_talk(seat.game, seat),
        }
        for seat in seats
    ]
