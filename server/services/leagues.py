"""Leagues: created by anyone (an open league) or by a club's admin (for
the club, open to all or to its members only), joined until the start,
then played over rounds.  Each round splits the players still in into
tables (services/league_pairing.py); each table is an ordinary game made
by games.create_game and started by games.start.

The scheduler moves leagues on (``sweep``): the first round begins at the
start date; a round ends when all its games are over; with round_start
"all_at_once" the next round begins then, with "each_table" the next
round is paired as soon as the round before has all its games under way
and each of its tables begins when its players have no league game left.
"""

from __future__ import annotations

import datetime as dt
import random

from engine import IllegalMove, get_game
from engine.words import N_, msg, term
from server.db import db, locked
from server.mail.compose import Mailer
from server.models import (
    Club,
    Game,
    League,
    LeagueMember,
    LeagueRound,
    LeagueTable,
    Seat,
    User,
    utcnow,
)
from server.services import bot_seats, clubs, games, moderation, reply_menu
from server.services import league_pairing as pairing
from server.services.clock import running_hours
from server.services.moves import MoveRejected, NotFound

NAME_MIN, NAME_MAX = 2, 60
ROUNDS_MAX = 30
PLAYERS_MAX = 200
FORMATS = ("round_robin", "swiss")
ROUND_STARTS = ("all_at_once", "each_table")
DROPOUTS = ("autopass", "bot")
DROPOUT_BOT = "heuristic"
REMINDER_HOURS: list[float] = [24.0]


class LeagueError(MoveRejected):
    status = 400


# -- creating ----------------------------------------------------------------------
def create(
    creator: User,
    name: str,
    kind_name: str,
    *,
    options: dict | None = None,
    move_hours: int = 48,
    clock: str = "always",
    format: str = "round_robin",
    rounds: int = 3,
    table_min: int = 3,
    table_max: int = 3,
    max_players: int = 12,
    starts_at: dt.datetime,
    round_start: str = "all_at_once",
    same_deal: bool = False,
    dropout: str = "autopass",
    club: Club | None = None,
    club_only: bool = False,
    now: dt.datetime | None = None,
) -> League:
    """A new league; LeagueError (nothing made) when a choice is wrong."""
    now = now or utcnow()
    name = _checked_name(name)
    try:
        game_rules = get_game(kind_name)
    except IllegalMove:
        raise LeagueError(N_("Choose a game from the list.")) from None
    if not game_rules.min_players <= table_min <= table_max <= game_rules.max_players:
        raise LeagueError(
            msg(
                "%(game)s is played by %(least)s to %(most)s players: choose table sizes "
                "in that range, the smallest first.",
                game=game_rules.title,
                least=game_rules.min_players,
                most=game_rules.max_players,
            )
        )
    if not table_min <= max_players <= PLAYERS_MAX:
        raise LeagueError(
            msg(
                "A league needs room for at least one table (%(least)s players) and takes at "
                "most %(most)s players.",
                least=max(table_min, 2),
                most=PLAYERS_MAX,
            )
        )
    if max_players < 2:
        raise LeagueError(N_("A league needs at least two players."))
    if not 1 <= rounds <= ROUNDS_MAX:
        raise LeagueError(msg("A league has 1 to %(most)s rounds.", most=ROUNDS_MAX))
    if not 1 <= move_hours <= 24 * 30:
        raise LeagueError(N_("Hours per move: from 1 to 720."))
    if format not in FORMATS or round_start not in ROUND_STARTS or dropout not in DROPOUTS:
        raise LeagueError(
            N_("Choose the league's format, round start and dropout rule from the lists.")
        )
    if starts_at < now:
        raise LeagueError(N_("The start date has passed: choose a date to come."))
    if club is not None and not clubs.is_admin(club, creator):
        raise LeagueError(N_("Only an admin of the club may make a league for it."))
    if club_only and club is None:
        raise LeagueError(N_("Only a club's league can be for its members only."))
    try:
        running_hours.policy(clock, 23, 7)
    except ValueError:
        raise LeagueError(N_("Choose when the clock stands still from the list.")) from None
    try:
        options = games.checked_options(game_rules, options or {})
    except games.LobbyError as exc:
        raise LeagueError(exc.args[0]) from None
    key = clubs.name_key(name)
    if League.select().where(League.name_key == key).exists():
        raise LeagueError(N_("A league of that name exists already; choose another name."))
    return League.create(
        name=name,
        name_key=key,
        club=club,
        club_only=club_only,
        creator=creator,
        kind=kind_name,
        options=options,
        move_hours=move_hours,
        clock_policy=clock,
        format=format,
        rounds=rounds,
        max_players=max_players,
        table_min=table_min,
        table_max=table_max,
        starts_at=starts_at,
        round_start=round_start,
        same_deal=same_deal,
        dropout=dropout,
        seed=random.SystemRandom().getrandbits(48),
    )


def _checked_name(name: str) -> str:
    name = " ".join((name or "").split())
    if not NAME_MIN <= len(name) <= NAME_MAX:
        raise LeagueError(
            msg(
                "A league's name has %(least)s to %(most)s characters.",
                least=NAME_MIN,
                most=NAME_MAX,
            )
        )
    return name


def by_id(league_id: int) -> League:
    league = League.get_or_none(League.id == league_id) if 0 < league_id < 2**63 else None
    if league is None:
        raise NotFound(N_("There is no such league."))
    return league


def by_name(name: str) -> League:
    league = League.get_or_none(League.name_key == clubs.name_key(name or "")[:NAME_MAX])
    if league is None:
        raise NotFound(msg("There is no league named %(name)s.", name=(name or "").strip()[:60]))
    return league


# -- members -----------------------------------------------------------------------
def members(league: League, *, playing_only: bool = False) -> list[LeagueMember]:
    query = LeagueMember.select().where(LeagueMember.league == league.id)
    if playing_only:
        query = query.where(LeagueMember.dropped_at.is_null())
    return list(query.order_by(LeagueMember.id))


def member(league: League, user) -> LeagueMember | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return LeagueMember.get_or_none(
        (LeagueMember.league == league.id) & (LeagueMember.user == user.id)
    )


def may_join(league: League, user) -> bool:
    return not league.club_only or (
        league.club is not None and clubs.membership(league.club, user) is not None
    )


def join(league: League, user: User) -> LeagueMember:
    with db.atomic():
        league = locked(League.select().where(League.id == league.id)).first()
        if league.state != "open":
            raise LeagueError(N_("This league has started: it takes no more players."))
        if not may_join(league, user):
            raise LeagueError(N_("This league is for the members of its club only."))
        if member(league, user) is not None:
            raise LeagueError(N_("You are in this league already."))
        if len(members(league)) >= league.max_players:
            raise LeagueError(
                msg("This league is full: it takes %(most)s players.", most=league.max_players)
            )
        return LeagueMember.create(league=league, user=user)


def leave(league: League, user: User, mailer: Mailer, now: dt.datetime | None = None) -> str:
    """Before the start: out of the league.  After: a dropout (``drop``)."""
    league = League.get_by_id(league.id)  # its state as it is now
    row = member(league, user)
    if row is None or row.dropped_at is not None:
        raise LeagueError(N_("You are not playing in this league."))
    if league.state == "open":
        LeagueMember.delete().where(LeagueMember.id == row.id).execute()
        return N_("You left the league.")
    drop(league, user, mailer, now)
    return N_("You dropped out of the league: you will not be paired again.")


def drop(league: League, user: User, mailer: Mailer, now: dt.datetime | None = None) -> None:
    """``user`` drops out: never paired again; each of their running league
    games goes on with their seat auto-passed or played by a bot."""
    now = now or utcnow()
    with db.atomic():
        claimed = (
            LeagueMember.update(dropped_at=now)
            .where(
                (LeagueMember.league == league.id)
                & (LeagueMember.user == user.id)
                & LeagueMember.dropped_at.is_null()
            )
            .execute()
        )
        if not claimed:
            raise LeagueError(N_("You are not playing in this league."))
        for game in _running_games(league, user):
            _leave_table(league, game, user, mailer, now)


def _running_games(league: League, user: User) -> list[Game]:
    return list(
        Game.select()
        .join(LeagueTable, on=(LeagueTable.game == Game.id))
        .join(LeagueRound)
        .switch(Game)
        .join(Seat, on=(Seat.game == Game.id))
        .where(
            (LeagueRound.league == league.id)
            & (Game.status == "active")
            & (Seat.user == user.id)
            & (Seat.withdrawn == False)  # noqa: E712 (SQL)
        )
    )


def _leave_table(league: League, game: Game, user: User, mailer: Mailer, now) -> None:
    reason = msg("Dropped out of the league %(league)s.", league=league.name)
    moderation.resign(game.id, user, game.seq, str(reason), mailer=mailer, now=now)
    if league.dropout == "bot":
        game = Game.get_by_id(game.id)
        seat = Seat.get((Seat.game == game.id) & (Seat.user == user.id))
        host = User.get_by_id(game.host_id)
        bot_seats.hand_to_bot(
            game.id, host, game.seq, seat.index, DROPOUT_BOT, str(reason), mailer=mailer, now=now
        )


# -- rounds ------------------------------------------------------------------------
def rounds_of(league: League) -> list[LeagueRound]:
    return list(
        LeagueRound.select().where(LeagueRound.league == league.id).order_by(LeagueRound.number)
    )


def tables_of(league_round: LeagueRound) -> list[LeagueTable]:
    return list(
        LeagueTable.select()
        .where(LeagueTable.round == league_round.id)
        .order_by(LeagueTable.number)
    )


def history(league: League) -> pairing.History:
    """Who met whom and who sat where, over the rounds paired so far."""
    seen = pairing.History()
    for league_round in rounds_of(league):
        for table in tables_of(league_round):
            seen.add_table(table.players)
    return seen


def sweep(mailer: Mailer, now: dt.datetime) -> int:
    """Move every league on as far as it goes at ``now``; how many steps
    were taken (a round begun or ended, a table started, a league over)."""
    steps = 0
    for league_id in [
        row.id
        for row in League.select(League.id).where(
            (League.state == "playing") | ((League.state == "open") & (League.starts_at <= now))
        )
    ]:
        steps += advance(league_id, mailer, now)
    return steps


def advance(league_id: int, mailer: Mailer, now: dt.datetime) -> int:
    """One league moved on, in one transaction with its row locked: two
    schedulers never begin the same round twice."""
    steps = 0
    with db.atomic():
        league = locked(League.select().where(League.id == league_id)).first()
        if league is None or league.state == "finished":
            return 0
        if league.state == "open":
            if league.starts_at > now:
                return 0
            problem = _first_round_problem(league)
            if problem is not None:
                return 0  # the league page says why; joining goes on
            League.update(state="playing").where(League.id == league.id).execute()
            league.state = "playing"
            begin_round(league, mailer, now)
            steps += 1
        while True:
            moved = _step(league, mailer, now)
            if not moved:
                break
            steps += moved
    return steps


def _first_round_problem(league: League):
    """Why the first round cannot begin (Words), or None."""
    players = len(members(league, playing_only=True))
    if pairing.table_sizes(players, league.table_min, league.table_max) is None:
        return msg(
            "%(n)s players cannot sit at tables of %(least)s to %(most)s players: the league "
            "waits for more players.",
            n=players,
            least=league.table_min,
            most=league.table_max,
        )
    return None


def start_problem(league: League):
    return _first_round_problem(league) if league.state == "open" else None


def _step(league: League, mailer: Mailer, now: dt.datetime) -> int:
    if league.state != "playing":
        return 0
    rows = rounds_of(league)
    steps = 0
    for league_round in rows:
        if league_round.state != "playing":
            continue
        steps += _start_free_tables(league, league_round, mailer, now)
        if _round_over(league_round):
            end_round(league, league_round, mailer, now)
            steps += 1
    rows = rounds_of(league)
    latest = rows[-1] if rows else None
    if latest is None:
        return steps
    if latest.number < league.rounds:
        ready = (
            latest.state == "ended"
            if league.round_start == "all_at_once"
            else all(t.game_id is not None for t in tables_of(latest))
        )
        if ready and begin_round(league, mailer, now) is not None:
            steps += 1
    elif all(r.state == "ended" for r in rows):
        League.update(state="finished").where(League.id == league.id).execute()
        league.state = "finished"
        _mail_everyone(mailer, league, latest, "ended", final=True)
        steps += 1
    return steps


def begin_round(league: League, mailer: Mailer, now: dt.datetime) -> LeagueRound | None:
    """Pair the next round; its tables begin at once, or (each_table) when
    their players are free.  None when the players left fill no tables."""
    done = rounds_of(league)
    number = len(done) + 1
    players = [m.user_id for m in members(league, playing_only=True)]
    sizes = pairing.table_sizes(len(players), league.table_min, league.table_max)
    if sizes is None:
        _finish_early(league, done[-1] if done else None, mailer)
        return None
    pair_seed = (league.seed * 1_000_003 + number) & 0xFFFF_FFFF_FFFF
    points = (
        {line.player: line.points for line in standings(league)}
        if league.format == "swiss"
        else None
    )
    tables = pairing.pair_round(players, sizes, history(league), pair_seed, points)
    league_round = LeagueRound.create(
        league=league,
        number=number,
        seed=random.Random(pair_seed).getrandbits(48),
        started_at=now,
    )
    for table_number, seated in enumerate(tables, start=1):
        LeagueTable.create(round=league_round, number=table_number, players=seated)
    _start_free_tables(league, league_round, mailer, now)
    _mail_everyone(mailer, league, league_round, "started")
    return league_round


def _finish_early(league: League, last: LeagueRound | None, mailer: Mailer) -> None:
    League.update(state="finished", rounds=len(rounds_of(league))).where(
        League.id == league.id
    ).execute()
    league.state = "finished"
    if last is not None:
        _mail_everyone(mailer, league, last, "ended", final=True)


def _start_free_tables(
    league: League, league_round: LeagueRound, mailer: Mailer, now: dt.datetime
) -> int:
    waiting = [t for t in tables_of(league_round) if t.game_id is None]
    if not waiting:
        return 0
    started = 0
    if league.round_start == "all_at_once":
        for table in waiting:
            _start_table(league, league_round, table, mailer)
            started += 1
        return started
    for table in waiting:
        earlier_busy = _busy_players_before(league, league_round)
        if not earlier_busy & set(table.players):
            _start_table(league, league_round, table, mailer)
            started += 1
    return started


def _busy_players_before(league: League, league_round: LeagueRound) -> set[int]:
    busy: set[int] = set()
    for earlier in rounds_of(league):
        if earlier.number >= league_round.number:
            break
        for table in tables_of(earlier):
            if table.game_id is None or Game.get_by_id(table.game_id).status == "active":
                busy.update(table.players)
    return busy


def _start_table(
    league: League, league_round: LeagueRound, table: LeagueTable, mailer: Mailer
) -> Game:
    """The table's game, made and started like any game: its first player
    hosts it, the others take their seats in the table's order."""
    people = [User.get_by_id(uid) for uid in table.players]
    host = people[0]
    name = f"{league.name} {league_round.number}.{table.number}"[:200]
    game = games.create_game(
        host,
        league.kind,
        name,
        len(people),
        dict(league.options),
        league.move_hours,
        list(REMINDER_HOURS),
        mailer,
        clock=league.clock_policy,
        club=league.club,
    )
    if league.same_deal:
        Game.update(seed=league_round.seed).where(Game.id == game.id).execute()
    for index, person in enumerate(people[1:], start=1):
        games.join(game.id, person, index)
    LeagueTable.update(game=game).where(LeagueTable.id == table.id).execute()
    table.game_id = game.id
    game = games.start(game.id, host, mailer)
    for person in people:  # dropped out after the pairing (each_table)
        row = member(league, person)
        if row is not None and row.dropped_at is not None:
            _leave_table(league, Game.get_by_id(game.id), person, mailer, utcnow())
    return game


def _round_over(league_round: LeagueRound) -> bool:
    tables = tables_of(league_round)
    if any(t.game_id is None for t in tables):
        return False
    return all(Game.get_by_id(t.game_id).status in ("finished", "closed") for t in tables)


def end_round(league: League, league_round: LeagueRound, mailer: Mailer, now: dt.datetime) -> None:
    claimed = (
        LeagueRound.update(state="ended", ended_at=now)
        .where((LeagueRound.id == league_round.id) & (LeagueRound.state == "playing"))
        .execute()
    )
    if claimed:
        league_round.state, league_round.ended_at = "ended", now
        if league_round.number < league.rounds:
            _mail_everyone(mailer, league, league_round, "ended")


# -- results and standings ---------------------------------------------------------------
def table_ranks(table: LeagueTable) -> dict[int, int] | None:
    """player -> rank at a finished table (1: first; equal: a tie), by the
    game's result: winners first, then score, then the game's tie-break.
    None while the game runs, or when it ended without a result."""
    if table.game_id is None:
        return None
    game = Game.get_by_id(table.game_id)
    outcome = game.outcome
    if game.status != "finished" or not outcome or outcome.get("abandoned"):
        return None
    winners = set(outcome.get("winners", []))
    keys = {
        s["seat"]: (s["seat"] in winners, s["total"], s["tiebreak"])
        for s in outcome.get("scores", [])
        if 0 <= s["seat"] < len(table.players)
    }
    ranks = {}
    for seat, key in keys.items():
        ranks[table.players[seat]] = 1 + sum(1 for other in keys.values() if other > key)
    return ranks


def standings(league: League) -> list[pairing.Line]:
    results = [
        ranks
        for league_round in rounds_of(league)
        for table in tables_of(league_round)
        if (ranks := table_ranks(table)) is not None
    ]
    everyone = members(league)
    return pairing.standings(
        results,
        [m.user_id for m in everyone],
        [m.user_id for m in everyone if m.dropped_at is not None],
        league.seed,
    )


# -- mails -------------------------------------------------------------------------
def league_url(mailer: Mailer, league: League) -> str:
    return f"{mailer.links.base_url}/leagues/{league.id}"


def _mail_everyone(
    mailer: Mailer, league: League, league_round: LeagueRound, what: str, final: bool = False
) -> None:
    """The round's start (each player's table) or end (the standings) to
    every player still in, each in their own language."""
    game_rules = get_game(league.kind)
    names = {
        u.id: u.name
        for u in User.select()
        .join(LeagueMember, on=(LeagueMember.user == User.id))
        .where(LeagueMember.league == league.id)
    }
    lines = standings(league) if what == "ended" else []
    table_of = {p: t for t in tables_of(league_round) for p in t.players}
    for row in members(league, playing_only=not final):
        person = User.get_by_id(row.user_id)
        table = table_of.get(person.id)
        if what == "started" and table is None:
            continue
        subject = mailer.words(
            person,
            {
                ("started", False): N_("League %(league)s: round %(number)s begins"),
                ("ended", False): N_("League %(league)s: round %(number)s is over"),
                ("ended", True): N_("League %(league)s is over"),
            }[(what, final)],
            league=league.name,
            number=league_round.number,
        )
        mailer.queue(
            "league_round",
            person.email,
            subject,
            {
                "name": person.name,
                "league": league.name,
                "title": term(game_rules.title),
                "number": league_round.number,
                "rounds": league.rounds,
                "what": what,
                "final": final,
                "table": [names.get(uid, "") for uid in table.players] if table else [],
                "game_url": (
                    f"{mailer.links.base_url}/games/{table.game_id}"
                    if table is not None and table.game_id
                    else ""
                ),
                "standings": [
                    {
                        "place": line.place,
                        "name": names.get(line.player, ""),
                        "points": points_shown(line.points),
                        "dropped": line.dropped,
                    }
                    for line in lines
                ],
                "league_url": league_url(mailer, league),
            },
            None,
            person,
            reply_to=_commands_address(mailer, person),
        )


def _commands_address(mailer: Mailer, person: User) -> str:
    """League mails are answered with commands (/league standings NAME)."""
    replies = reply_menu.addresses(mailer.settings)
    return replies.for_commands(person.id) if replies.enabled else ""


def points_shown(points: float) -> float:
    """Points as they are shown, to one decimal (12, 4.5): pages and mails
    write the number in their language (the ``number`` filter: "4,5")."""
    return round(points, 1)
