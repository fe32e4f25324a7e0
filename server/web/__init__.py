"""The web layer: one blueprint module per area, each view short (read the
form, call a service, render or redirect), templates under templates/<area>/.

May import services/, mail/ and the bottom layer (models, db, settings);
nothing outside web/ imports it but the app factory in server/__init__.py.
"""

from __future__ import annotations

from server.mail.board_rows import rows_html
from server.version import pbem_version
from server.web import (
    accounts,
    answers,
    api,
    channels,
    clubs,
    compression,
    errors,
    health,
    languages,
    leagues,
    lobby,
    moderation,
    never_invite,
    open_games,
    people,
    play,
    preferences,
    privacy,
    protection,
    rate_limits,
    records,
    rematches,
    speedups,
    static_files,
    takebacks,
    tokens,
    your_data,
)

AREAS = (
    accounts,
    lobby,
    open_games,
    play,
    records,
    preferences,
    channels,
    moderation,
    takebacks,
    rematches,
    answers,
    people,
    tokens,
    clubs,
    leagues,
    your_data,
    never_invite,
    privacy,
)


def init_app(app) -> None:
    health.init_app(app)  # first: the request timer starts before anything else
    compression.init_app(app)  # next: after_request hooks run last-first, so it runs late
    protection.init_app(app)  # CSRF, body checks, security headers
    languages.init_app(app)
    speedups.init_app(app)  # the templates' url_for remembers the links it built (when on)
    static_files.init_app(app)  # hashed addresses, a year's cache
    app.jinja_env.globals["pbem_version"] = pbem_version()  # in every page's footer
    app.jinja_env.filters["rows_html"] = rows_html  # a board section's rows, kept by their text
    accounts.init_app(app)
    rate_limits.init_app(app)
    errors.init_app(app, {"/api/": api.problems.from_http})
    for area in AREAS:
        app.register_blueprint(area.bp)
    api.init_app(app)
    moderation.init_cli(app)
    your_data.init_cli(app)
