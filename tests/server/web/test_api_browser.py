"""The open API in a browser: the Settings token section (with tokens listed),
the API's operations page and the moderators page with its bot-account form
fit a phone (390 px) in four languages, and a token is made without script."""

from __future__ import annotations

import pytest
from api_helpers import account
from conftest import make_app, serving
from test_browser_widths import PASSWORD, Widths
from werkzeug.security import generate_password_hash

from server.db import db
from server.models import User

HEADINGS = {
    "en": "Tokens for the API",
    "nl": "Tokens voor de API",
    "de": "Tokens für die API",
    "fr": "Jetons pour l'API",
}


@pytest.mark.browser
def test_token_pages_fit_a_phone_in_four_languages_and_work_without_script(
    sqlite_url, smtp, tmp_path, browser
):
    def build(base):
        return make_app(sqlite_url, smtp, tmp_path, PUBLIC_BASE_URL=base, TESTING=False)

    with serving(build) as (app, base):
        account(
            app,
            "mod@example.org",
            "A moderator with a long name",
            is_moderator=True,
            timezone="Europe/Amsterdam",
        )
        with app.app_context(), db.connection_context():
            User.update(password_hash=generate_password_hash(PASSWORD)).execute()
        context = browser.new_context(
            java_script_enabled=False, viewport={"width": 390, "height": 900}
        )
        page = context.new_page()
        page.goto(f"{base}/login")
        page.fill("#email", "mod@example.org")
        page.fill("#password", PASSWORD)
        page.press("#password", "Enter")
        page.goto(f"{base}/settings#tokens")
        page.fill("input[name=name]", "Notifier for my phone")
        page.locator("form[action$='/settings/tokens'] button[type=submit]").click()
        token = page.locator("#new-token input").input_value()
        assert token.startswith("pbem_")
        assert "Notifier for my phone\tread, play\t" in page.locator("#token-list").inner_text()
        context.close()
        for language, heading in HEADINGS.items():
            with app.app_context(), db.connection_context():
                User.update(language=language).execute()
            widths = Widths(browser, base)
            for path, label in (
                ("/settings", "settings-tokens"),
                ("/api/v1/docs", "api-docs"),
                ("/moderation/moderators", "moderators-bots"),
            ):
                widths.check("mod@example.org", path, f"{language}-{label}")
            settings = widths.page("mod@example.org", 390)
            settings.goto(f"{base}/settings")
            assert heading in settings.locator("#tokens").inner_text()
            assert not widths.wide, "\n".join(widths.wide)
            for page in widths.pages.values():
                page.context.close()
