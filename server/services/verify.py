"""``pbem verify [GAME…]``: replay each game's event log from its seed and
compare the result with what the database says (the snapshot, the game
row's seq and seat to move).  The log is the truth and the snapshot a
cache (services/state_store.py): a difference means one of them was
changed behind the server's back, or a restore lost something.

Exit status for scripts: 0 when every game agrees, 1 when one differs,
2 for a game id that does not exist.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

import click
from flask.cli import with_appcontext

from server.db import db
from server.models import Event, Game, Snapshot
from server.services.state_store import replay, rules


@dataclass
class Report:
    game_id: int
    differences: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.differences


def verify_game(game: Game) -> Report:
    report = Report(game.id)
    game_rules = rules(game)
    try:
        state = replay(game)
    except Exception as exc:  # noqa: BLE001 - an engine refusal is what we report
        report.differences.append(f"the log does not replay: {exc.__class__.__name__}: {exc}")
        return report
    last = (
        Event.select(Event.seq)
        .where(Event.game == game.id)
        .order_by(Event.seq.desc())
        .limit(1)
        .scalar()
    ) or 0
    if last != game.seq:
        report.differences.append(f"the game row says seq {game.seq}, the log ends at {last}")
    if game.status == "active" and game.to_move != game_rules.to_move(state):
        report.differences.append(
            f"the game row says seat {game.to_move} is to move, "
            f"the log says {game_rules.to_move(state)}"
        )
    snap = Snapshot.get_or_none(Snapshot.game == game.id)
    if snap is None or snap.state_version != game_rules.state_version:
        return report  # no cache (or one for older rules): nothing to compare
    if snap.seq != last:
        state = replay(game, upto=snap.seq)
    where = first_difference(normal(game_rules.to_json(state)), normal(snap.state))
    if where is not None:
        report.differences.append(
            f"the snapshot at seq {snap.seq} differs from the log's replay at {where}"
        )
    return report


def normal(data):
    """JSON as stored: tuples become lists, keys strings."""
    return json.loads(json.dumps(data))


def first_difference(replayed, stored, path: str = "state") -> str | None:
    """Where two JSON values first differ, as a path (``state.players[1].gold``)."""
    if isinstance(replayed, dict) and isinstance(stored, dict):
        for key in sorted(set(replayed) | set(stored)):
            if key not in replayed or key not in stored:
                return f"{path}.{key} (only in the {'snapshot' if key in stored else 'replay'})"
            found = first_difference(replayed[key], stored[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(replayed, list) and isinstance(stored, list):
        for index, (a, b) in enumerate(zip(replayed, stored, strict=False)):
            found = first_difference(a, b, f"{path}[{index}]")
            if found:
                return found
        if len(replayed) != len(stored):
            return f"{path} (length {len(replayed)} replayed, {len(stored)} stored)"
        return None
    return None if replayed == stored else f"{path} ({replayed!r} replayed, {stored!r} stored)"


def verify(game_ids: list[int] | None = None):
    """Reports for the games named (all games when none is), in id order;
    the ids not found come back as the second value."""
    query = Game.select().order_by(Game.id)
    if game_ids:
        query = query.where(Game.id.in_(game_ids))
    games = list(query)
    missing = sorted(set(game_ids or ()) - {g.id for g in games})
    return [verify_game(game) for game in games], missing


@click.command("verify")
@click.argument("games", nargs=-1, type=click.IntRange(1, 2**62))
@with_appcontext
def verify_command(games: tuple[int, ...]):
    """Replay event logs against their snapshots and game rows (every game,
    or the GAME ids given); exit status 1 if any differs, 2 if a GAME is
    not found."""
    with db.connection_context():
        reports, missing = verify(list(games))
    for report in reports:
        for difference in report.differences:
            click.echo(f"game {report.game_id}: {difference}")
    for game_id in missing:
        click.echo(f"game {game_id}: not found", err=True)
    differing = sum(not r.ok for r in reports)
    click.echo(f"{len(reports)} game(s) checked, {differing} differ")
    raise SystemExit(2 if missing else 1 if differing else 0)
