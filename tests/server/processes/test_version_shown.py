"""The version setuptools-scm made from the git tag is on
every page (and in ``pbem --version``: test_cli.py)."""

from __future__ import annotations

from importlib import metadata

from server.version import pbem_version


def test_every_page_shows_the_installed_version(sqlite_app):
    # Read afresh: a build test of this run may have left a pbem.egg-info of
    # another version in the checkout, which this process then finds first.
    pbem_version.cache_clear()
    page = sqlite_app.test_client().get("/login")
    assert f"<footer><small>pbem {metadata.version('pbem')} · " in page.text
