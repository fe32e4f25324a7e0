"""Links that survive every mail client.  Every kind of
mail, in each language, has its links taken out the way common clients
find them in text (a URL runs until whitespace or '>', as linkify and mail
readers do; a URL meant to stand in a sentence is put in <angle brackets>);
each must be a page of the site, not "…18010.Your"."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from urllib.parse import urlsplit

import pytest
from every_mail import PARTS, queue_every_kind, site
from werkzeug.exceptions import HTTPException

from server.i18n import LANGUAGES
from server.settings import MAIL_TEMPLATES

BASE = "http://127.0.0.1:18010"
# What a client makes a link of in text: from the scheme to whitespace or '>'.
LINK = re.compile(r"https?://[^\s>]+")


class _Html(HTMLParser):
    """An HTML part's hrefs, and its text outside links (which a client may
    linkify on its own)."""

    def __init__(self):
        super().__init__()
        self.hrefs, self.loose, self.depth = [], [], 0

    def handle_starttag(self, tag, attrs):
        if tag == "a":
            self.depth += 1
            self.hrefs.append(dict(attrs).get("href", ""))

    def handle_endtag(self, tag):
        if tag == "a":
            self.depth -= 1

    def handle_data(self, data):
        if not self.depth:
            self.loose.append(data)


def links(mail) -> list[tuple[str, str]]:
    found = [("text", url) for url in LINK.findall(mail.body_text)]
    parsed = _Html()
    parsed.feed(mail.body_html)
    found += [("href", url) for url in parsed.hrefs]
    found += [("html text", url) for url in LINK.findall(" ".join(parsed.loose))]
    return found


def is_page(app, url: str) -> bool:
    """``url`` is one of the site's own addresses: its base and a route."""
    parts = urlsplit(url)
    if f"{parts.scheme}://{parts.netloc}" != BASE or url != url.strip():
        return False
    try:
        app.url_map.bind("127.0.0.1:18010").match(parts.path or "/", method="GET")
    except HTTPException:
        return False
    return True


@pytest.fixture(scope="module", params=sorted(LANGUAGES))
def outbox(request, tmp_path_factory):
    app, ids = site(tmp_path_factory.mktemp(f"links-{request.param}"), request.param, BASE)
    return app, queue_every_kind(app, ids)


def test_every_link_in_every_mail_is_a_page_of_the_site(outbox):
    app, mails = outbox
    kinds = {m.kind for m in mails}
    templates = {p.stem for p in MAIL_TEMPLATES.glob("*.txt")}
    assert templates - PARTS <= kinds, templates - kinds
    broken = {}
    for mail in mails:
        for where, url in links(mail):
            if not is_page(app, url):
                broken.setdefault(f"{mail.kind} {where}", []).append(url)
    assert not broken, "\n".join(f"{k}: {sorted(set(v))}" for k, v in broken.items())
    footers = [m for m in mails if "/u/" in m.body_text or "unsubscribe" in m.body_text]
    assert footers and all(f"<{BASE}/settings>" in m.body_text for m in footers)
