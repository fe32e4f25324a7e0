"""Schemathesis against the served OpenAPI document: every
operation, generated and hostile inputs, a bounded number of examples.  No
answer is a server error, and every answer (problems included) has a
status, a content type and a body that the document declares."""

from __future__ import annotations

import pytest
import schemathesis
from api_helpers import account, bearer, open_game
from conftest import make_app, serving
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from server.db import db
from server.models import User
from server.services import games

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]


@pytest.fixture
def site(sqlite_url, smtp, tmp_path):
    """A started game where the token's owner is to move (the long poll then
    answers at once), and an open game it hosts."""
    with serving(
        lambda base: make_app(
            sqlite_url,
            smtp,
            tmp_path,
            PUBLIC_BASE_URL=base,
            TESTING=False,
            API_WAIT_MAX_SECONDS=1,
            RATELIMIT_API_PER_TOKEN="100000 per minute",
        )
    ) as (app, base):
        host, token = account(app, "fuzz@example.org", "Fuzz")
        other, _ = account(app, "other@example.org", "Other")
        game_id = open_game(app, host, 2)
        with app.app_context(), db.connection_context():
            games.join(game_id, User.get_by_id(other), 1)
            games.start(game_id, User.get_by_id(host), app.extensions["pbem_mailer"])
        open_game(app, host, 3)
        yield base, token


MODES = (schemathesis.GenerationMode.POSITIVE, schemathesis.GenerationMode.NEGATIVE)
EXAMPLES = 8  # per operation and mode: 13 operations, about 30 s here


def test_every_operation_answers_what_the_document_says(site):
    """Generated (valid) and hostile (invalid) requests to every operation."""
    base, token = site
    schema = schemathesis.openapi.from_url(f"{base}/api/v1/openapi.json")
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) == 13
    for operation in operations:
        for mode in MODES:

            @given(case=operation.as_strategy(generation_mode=mode))
            @settings(
                max_examples=EXAMPLES,
                deadline=None,
                derandomize=True,
                suppress_health_check=list(HealthCheck),
                database=None,
            )
            def call(case):
                case.call_and_validate(headers=bearer(token), checks=CHECKS)

            call()


def test_the_document_and_its_page(site):
    import httpx

    base, _ = site
    document = httpx.get(f"{base}/api/v1/openapi.json").json()
    assert document["openapi"] == "3.1.0"
    page = httpx.get(f"{base}/api/v1/docs")
    assert page.status_code == 200 and "POST /api/v1/games/{game_id}/moves" in page.text
    assert "script" not in page.text.lower()
