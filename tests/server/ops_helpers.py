"""Running the ``pbem`` command of this environment, and games in progress
to run it on."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

from clock_helpers import random_move, started_game, sweep_past_deadline

PBEM = str(Path(sys.executable).parent / "pbem")


def pbem(url: str, tmp_path, *args: str) -> subprocess.CompletedProcess:
    env = dict(
        os.environ,
        DATABASE_URL=url,
        PBEM_INSTANCE=str(tmp_path / "cli-instance"),
        SECRET_KEY="test-secret",
    )
    return subprocess.run([PBEM, *args], env=env, capture_output=True, text=True, timeout=120)


def games_in_progress(app, count: int = 3, moves: int = 12) -> list[int]:
    """``count`` started games with player moves and a timeout in each, one of
    them New Found Land; their ids."""
    rnd, ids = random.Random(5), []
    for i in range(count):
        kind = "new_found_land" if i == count - 1 else "puerto_rico"
        game = started_game(app, kind=kind, tag=f"p{i}")
        for _ in range(moves):
            random_move(app, game.id, rnd)
        sweep_past_deadline(app, game.id)
        ids.append(game.id)
    return ids
