"""Shared by the browser tests: where Chromium is, how it starts, and the
clicks of signing up.  The fixtures that use these live in conftest.py."""
from __future__ import annotations

from pathlib import Path

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run"]


def sign_up(page, base, name, email, start=None):
    page.goto(start or f"{base}/signup")
    if start:
        page.get_by_role("link", name="sign up", exact=True).click()
    page.fill("#name", name)
    page.fill("#email", email)
    page.fill("#password", "correct horse battery")
    page.get_by_role("button", name="Sign up").click()
