"""A bot that plays pbem through the HTTP API alone (httpx), for either game.

    python examples/api_bot.py https://pbem.example.org pbem_yourtoken [--game ID]

It needs httpx: in a checkout, ``.venv/bin/python -m pip install -c
constraints.txt -e '.[examples]'`` then ``.venv/bin/python examples/api_bot.py
...``; anywhere else ``pip install httpx``.

It waits for its turn with the long poll (GET /api/v1/wait), reads each game
waiting for it as its seat sees it (GET /api/v1/games/{id}), and plays one of
the legal moves the API lists (POST /api/v1/games/{id}/moves, with the seq
it read: a 409 means the game moved on, and it reads again).

Its rule, simple and steady: never pass while anything else is possible;
among the other moves it picks one at random from a seeded generator, so a
run is repeatable.  It knows nothing of either game beyond the legal moves
the API gives it, and sees nothing its seat may not see.  With --game it
stops when that game is over; otherwise it plays on until stopped.
"""

from __future__ import annotations

import argparse
import random
import sys

import httpx


class ApiBot:
    def __init__(self, base_url: str, token: str, seed: int = 1, client=None):
        self.http = client or httpx.Client(
            base_url=base_url.rstrip("/") + "/api/v1",
            headers={"Authorization": f"Bearer {token}"},
            timeout=90,
        )
        self.rng = random.Random(seed)
        self.moves = 0

    def choose(self, legal: list[dict]) -> dict:
        doing = [m for m in legal if m["action"].get("type") != "pass"]
        return self.rng.choice(doing or legal)["action"]

    def play_turn(self, game_id: int) -> bool:
        """One move in ``game_id`` if it waits for us; whether one was played."""
        view = self.http.get(f"/games/{game_id}").raise_for_status().json()
        if not view["legal_moves"]:
            return False
        answer = self.http.post(
            f"/games/{game_id}/moves",
            json={"seq": view["seq"], "action": self.choose(view["legal_moves"])},
        )
        if answer.status_code == 409:  # stale: somebody moved first; read again
            return False
        answer.raise_for_status()
        self.moves += 1
        return True

    def run(self, game_id: int | None = None, wait: int = 30, rounds: int = 100_000) -> None:
        for _ in range(rounds):
            waiting = self.http.get("/wait", params={"timeout": wait}).raise_for_status().json()
            mine = [g["id"] for g in waiting["games"] if game_id in (None, g["id"])]
            for found in mine:
                self.play_turn(found)
            if game_id is not None and not mine and self.over(game_id):
                return
        raise RuntimeError("gave up: too many rounds")

    def close(self) -> None:
        self.http.close()

    def over(self, game_id: int) -> bool:
        return self.http.get(f"/games/{game_id}").raise_for_status().json()["status"] != "active"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base_url")
    parser.add_argument("token")
    parser.add_argument("--game", type=int, default=None)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    bot = ApiBot(args.base_url, args.token, args.seed)
    try:
        bot.run(args.game)
    finally:
        bot.close()
    print(f"played {bot.moves} moves")
    return 0


if __name__ == "__main__":
    sys.exit(main())
