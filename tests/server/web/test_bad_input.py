"""Input that used to end in a 500 is refused at the edge with a 4xx page and
changes nothing: a multipart part without a name, deeply
nested JSON in a move, a superscript digit as a sequence number, a vacation
in year 9999, an id beyond 64 bits in a URL."""

from __future__ import annotations

import json

import pytest
from game_driver import current_turn, db_state
from moderation_helpers import moderation_page
from web_helpers import csrf, form_for, move_form, post_form
from werkzeug.exceptions import BadRequest

from server.web.play import parse_action
from server.web.protection import BIGGEST_ID

BOUNDARY = "pbemBoundary"


def multipart(parts: list[tuple[str | None, str]], with_filename: bool = False) -> bytes:
    """A multipart body; a part whose name is None has a Content-Disposition
    without a name (what a hand-made or broken client sends)."""
    chunks = []
    for name, value in parts:
        disposition = "form-data" + (f'; name="{name}"' if name is not None else "")
        if name is None and with_filename:
            disposition += '; filename="x.txt"'
        chunks.append(f"--{BOUNDARY}\r\nContent-Disposition: {disposition}\r\n\r\n{value}\r\n")
    return ("".join(chunks) + f"--{BOUNDARY}--\r\n").encode()


def post_multipart(client, path: str, parts, **kwargs):
    return client.post(
        path,
        data=multipart(parts, **kwargs),
        content_type=f"multipart/form-data; boundary={BOUNDARY}",
    )


# -- a multipart part without a name ---------------------------------------------
@pytest.mark.parametrize("path", ["/login", "/signup", "/logout", "/games/1/move"])
@pytest.mark.parametrize("with_filename", [False, True])
def test_nameless_part_signed_out_is_a_400(sqlite_app, path, with_filename):
    """Flask-WTF's CSRF check read the field name None: a 500 on every POST."""
    resp = post_multipart(
        sqlite_app.test_client(),
        path,
        [(None, "x"), ("email", "a@b.c")],
        with_filename=with_filename,
    )
    assert resp.status_code == 400, resp.text
    assert "not understood" in resp.text


@pytest.mark.parametrize("with_filename", [False, True])
def test_nameless_part_signed_in_is_a_400_and_changes_nothing(table, with_filename):
    _seat, client, page, _ = current_turn(table)
    form = move_form(page.text)
    before = db_state(table.app, table.game_id)
    fields = dict(form["fields"], action=form["buttons"][0][1])
    resp = post_multipart(
        client, form["action"], [*fields.items(), (None, "x")], with_filename=with_filename
    )
    assert resp.status_code == 400, resp.text
    assert db_state(table.app, table.game_id) == before
    # The same form without the nameless part is a move.
    resp = post_multipart(client, form["action"], list(fields.items()))
    assert resp.status_code == 302, resp.text
    assert db_state(table.app, table.game_id)[0] == before[0] + 1


def test_a_multipart_form_with_names_still_works_signed_out(sqlite_app):
    client = sqlite_app.test_client()
    page = client.get("/login")
    resp = post_multipart(
        client,
        "/login",
        [
            ("csrf_token", csrf(page.text)),
            ("email", "nobody@example.org"),
            ("password", "wrong password"),
        ],
    )
    assert resp.status_code == 400 and "wrong password" in resp.text


# -- NUL characters ------------------------------------------------------------------
def test_a_nul_character_is_a_400_on_both_databases(table):
    """PostgreSQL refuses NUL in text: saving a name with one was a 500 there
    (found by test_fuzz_routes); no form needs one, so it stops at the edge."""
    client = table.clients[1]
    page = client.get("/account")
    before = db_state(table.app, table.game_id)
    for data in ({"name": "Bo\x00b"}, {"name": "Bob", "x\x00": "1"}):
        resp = post_form(client, form_for(page.text, "/account/name"), **data)
        assert resp.status_code == 400, resp.text
        assert "not understood" in resp.text
    assert client.get(f"/games/{table.game_id}?since=\x00").status_code == 400
    assert db_state(table.app, table.game_id) == before
    assert post_form(client, form_for(page.text, "/account/name"), name="Bob").status_code == 200
    assert "Bob" in client.get("/account").text


# -- numbers too big for a float --------------------------------------------------------
@pytest.mark.parametrize(
    "number",
    [
        "9" * 309,
        "1" + "0" * 400,
        "-" + "9" * 500,
        "1_" * 200 + "1",
        "٣" * 400,
        " " + "9" * 4000 + " ",
    ],
)
def test_a_number_beyond_a_float_in_any_number_field_is_a_400(sqlite_table, number):
    """WTForms' NumberRange calls math.isnan(), which raises OverflowError on
    such an int: a 500 from every number field (found by test_fuzz_routes)."""
    table = sqlite_table
    _seat, client, page, _ = current_turn(table)
    before = db_state(table.app, table.game_id)
    form = move_form(page.text)
    assert post_form(client, form, seq=number, action=form["buttons"][0][1]).status_code == 400
    new = client.get("/games/new")
    for field in ("seats", "move_hours"):
        values = dict(
            {"name": "G", "kind": "puerto_rico", "seats": "3", "move_hours": "24"},
            **{field: number},
        )
        resp = post_form(client, form_for(new.text, "/games/new"), **values)
        assert resp.status_code == 400, (field, resp.text)
    assert db_state(table.app, table.game_id) == before
    # 300 digits still reach the form, which says it is out of range.
    resp = post_form(
        client,
        form_for(new.text, "/games/new"),
        name="G",
        kind="puerto_rico",
        seats="9" * 300,
        move_hours="24",
    )
    assert resp.status_code == 400 and "Number must be between" in resp.text


# -- nested actions ---------------------------------------------------------------
NESTED = [
    "[" * 2000,
    "[" * 1000 + "]" * 1000,
    "[" * 900 + "]" * 900,
    '{"a":' * 300 + "1" + "}" * 300,
    json.dumps({"type": [[[[[[[1]]]]]]]}),
    json.dumps({"type": {"a": {"b": {"c": {"d": {"e": {}}}}}}}),
]


def test_deeply_nested_action_is_not_understood(sqlite_table):
    """2,000 "[" raised RecursionError, not ValueError: a 500.  Anything
    nested deeper than a few levels is refused too, however it parses."""
    table = sqlite_table
    _seat, client, page, _ = current_turn(table)
    form = move_form(page.text)
    before = db_state(table.app, table.game_id)
    for action in NESTED:
        assert len(action) <= 2000  # what the form accepts
        resp = post_form(client, form, action=action)
        assert resp.status_code == 400, (action[:20], resp.text)
        assert "not understood" in resp.text
    assert db_state(table.app, table.game_id) == before
    # Nesting the engines use (two levels) is still a move.
    assert post_form(client, form, action=form["buttons"][0][1]).status_code == 200


# -- sequence numbers -------------------------------------------------------------
SEQS = ["²", "¹²", "٣", "𝟘", "1²", "-1", " 1", ""]


def test_resign_with_a_strange_seq_is_a_400(sqlite_table):
    """ "²".isdigit() is true, int("²") raises: a 500."""
    table = sqlite_table
    client = table.clients[1]
    page = client.get(f"/games/{table.game_id}")
    before = db_state(table.app, table.game_id)
    for seq in SEQS:
        resp = post_form(
            client, form_for(page.text, "/resign"), **{"resign-seq": seq, "resign-reason": "bored"}
        )
        assert resp.status_code == 400, (seq, resp.text)
    assert db_state(table.app, table.game_id) == before


def test_moderation_with_a_strange_seq_is_a_400(sqlite_table):
    table = sqlite_table
    host = table.clients[0]
    page = moderation_page(host, table.game_id)
    before = db_state(table.app, table.game_id)
    for action in ("extend", "pause", "default", "abandon"):
        form = form_for(page.text, f"/moderation/games/{table.game_id}/{action}")
        for seq in SEQS:
            resp = post_form(host, form, **{f"{action}-seq": seq, f"{action}-reason": "a reason"})
            assert resp.status_code == 400, (action, seq, resp.text)
    assert db_state(table.app, table.game_id) == before


# -- vacations near the end of the calendar -------------------------------------
FAR_AWAY = [
    ("9999-12-30", "9999-12-31", "at most a year ahead"),
    ("9999-12-31", "9999-12-31", "at most a year ahead"),
    ("2099-01-01", "2099-01-02", "at most a year ahead"),
    ("0001-01-01", "0001-01-02", "starts today or later"),
    ("0001-01-01", "9999-12-31", "starts today or later"),
]


def test_vacation_far_away_is_refused_with_a_message(sqlite_table):
    """A vacation ending 9999-12-31 overflowed datetime: a 500."""
    table = sqlite_table
    client = table.clients[1]
    page = client.get("/settings")
    for starts, ends, says in FAR_AWAY:
        resp = post_form(
            client, form_for(page.text, "/settings/vacations"), starts=starts, ends=ends
        )
        assert resp.status_code == 400, (starts, ends, resp.text)
        assert says in resp.text, (starts, ends)
    assert "on vacation" not in client.get(f"/games/{table.game_id}").text


# -- ids beyond 64 bits -----------------------------------------------------------
def int_rules(app):
    return [
        rule
        for rule in app.url_map.iter_rules()
        if any(type(conv).__name__ == "BoundedInt" for conv in rule._converters.values())
    ]


def fill(rule, number: int) -> str:
    return rule.build(
        {
            name: (number if type(conv).__name__ == "BoundedInt" else "extend")
            for name, conv in rule._converters.items()
        },
        append_unknown=False,
    )[1]


def test_ids_beyond_64_bits_in_urls_are_404(table):
    """SQLite raised OverflowError for ids >= 2**63: a 500 on every page with
    an id.  Now such a URL matches no rule; the biggest id that fits is just
    not found."""
    client = table.clients[0]
    token = csrf(client.get("/").text)
    rules = int_rules(table.app)
    assert len(rules) >= 12
    before = db_state(table.app, table.game_id)
    for rule in rules:
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            for number in (str(2**63), str(2**64), "1" + "0" * 30, "9" * 5000):
                path = fill(rule, BIGGEST_ID).replace(str(BIGGEST_ID), number)
                resp = client.open(path, method=method, data={"csrf_token": token})
                assert resp.status_code == 404, (method, path[:80], resp.status_code)
            resp = client.open(fill(rule, BIGGEST_ID), method=method, data={"csrf_token": token})
            assert 400 <= resp.status_code < 500, (method, rule.rule, resp.status_code)
    assert db_state(table.app, table.game_id) == before


def test_parse_action_refuses_nesting_beyond_six_levels(sqlite_app):
    """What the engines never send is refused before it reaches them (they
    would refuse it too, later and with another message)."""
    six = {"type": "x", "a": [[[[[1]]]]]}
    with sqlite_app.test_request_context():
        assert parse_action(json.dumps(six)) == six
        seven = ({"type": "x", "a": [[[[[[1]]]]]]}, {"a": {"b": {"c": {"d": {"e": {"f": {}}}}}}})
        for deep in seven:
            with pytest.raises(BadRequest, match="not understood"):
                parse_action(json.dumps(deep))
