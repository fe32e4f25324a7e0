"""A Puerto Rico state read back from JSON (the server's snapshots) offers
the same moves as the live one, the Guest house's follow-up included: before
the fix a game whose snapshot fell on that follow-up had no legal
move at all."""

from __future__ import annotations

import json
import random

from engine import get_game

RULES = get_game("puerto_rico")


def test_every_state_read_back_from_json_offers_the_same_moves():
    follow_ups = 0
    for seed in range(3):
        state, rnd = RULES.new_game(4, {"buildings": "extended"}, seed), random.Random(seed)
        while not RULES.is_over(state):
            seat = RULES.to_move(state)
            actions = RULES.legal_actions(state, seat)
            again = RULES.from_json(json.loads(json.dumps(RULES.to_json(state))))
            assert RULES.legal_actions(again, RULES.to_move(again)) == actions, seed
            follow_ups += any(a["type"] == "guests_done" for a in actions)
            # The guest house and dear buildings first, so the follow-up comes up.
            builds = [a for a in actions if a["type"] in ("build", "select")]
            pick = (
                max(builds, key=lambda a: (a["building"] == "guest_house", a["building"]))
                if builds
                else rnd.choice(actions)
            )
            state, _ = RULES.apply(state, seat, pick)
    assert follow_ups, "no Guest house follow-up was met"
