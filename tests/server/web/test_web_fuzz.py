"""Hypothesis fuzz of the move endpoint: any form a client can send gives a
page below 500, and a refused one leaves the database as it was."""

from __future__ import annotations

import json

from game_driver import current_turn, db_state
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from web_helpers import csrf, move_form

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4)
    ),
    max_leaves=10,
)


def fields(legal: list[str], seq: int):
    action = st.one_of(
        st.sampled_from(legal),
        st.text(max_size=200),
        JSON.map(json.dumps),
        st.sampled_from(legal).map(lambda a: a.replace('"', "'", 1)),
        st.sampled_from(legal).map(lambda a: json.dumps(dict(json.loads(a), extra=1))),
    )
    seq_value = st.one_of(st.just(str(seq)), st.integers(-5, 10**12).map(str), st.text(max_size=12))
    return st.fixed_dictionaries(
        {"seq": seq_value, "action": action},
        optional={"junk": st.text(max_size=50), "seat": st.text(max_size=5)},
    )


def test_fuzz_move_endpoint(sqlite_table):
    table = sqlite_table
    seat, client, page, _ = current_turn(table)
    form = move_form(page.text)
    legal = [v for _, v in form["buttons"]]
    token, seq = csrf(page.text), int(form["fields"]["seq"])
    game_ids = st.sampled_from([table.game_id, table.game_id, 0, 424242])
    outcomes = {"refused": 0, "applied": 0}

    @settings(
        max_examples=150,
        deadline=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(data=fields(legal, seq), game_id=game_ids, with_token=st.booleans())
    def post(data, game_id, with_token):
        before = db_state(table.app, table.game_id)
        body = dict(data, csrf_token=token) if with_token else data
        resp = client.post(f"/games/{game_id}/move", data=body)
        assert resp.status_code < 500, resp.text
        if resp.status_code >= 400:
            assert db_state(table.app, table.game_id) == before
            outcomes["refused"] += 1
        else:
            assert resp.status_code == 302
            assert db_state(table.app, table.game_id)[0] == before[0] + 1
            outcomes["applied"] += 1

    post()
    assert outcomes["refused"] > 100
