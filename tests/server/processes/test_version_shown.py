"""Issue 26, item 4: the version setuptools-scm made from the git tag is on
every page (and in ``pbem --version``: test_cli.py)."""

from __future__ import annotations

from importlib import metadata


def test_every_page_shows_the_installed_version(sqlite_app):
    page = sqlite_app.test_client().get("/login")
    assert f"<footer><small>pbem {metadata.version('pbem')}</small></footer>" in page.text
