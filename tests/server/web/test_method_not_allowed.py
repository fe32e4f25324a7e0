"""A 405 says which methods the address takes (RFC 9110 15.5.6: the
``Allow`` header), on pages and in the API alike."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize(
    "method, path, allowed",
    [
        ("DELETE", "/login", {"GET", "HEAD", "OPTIONS", "POST"}),
        ("GET", "/logout", {"OPTIONS", "POST"}),
        ("PUT", "/api/v1/me", {"GET", "HEAD", "OPTIONS"}),
        ("GET", "/api/v1/lobby/1/join", {"OPTIONS", "POST"}),
    ],
)
def test_a_405_names_the_methods_the_address_takes(sqlite_app, method, path, allowed):
    answer = sqlite_app.test_client().open(path, method=method)
    assert answer.status_code == 405
    assert set(answer.headers["Allow"].split(", ")) == allowed
