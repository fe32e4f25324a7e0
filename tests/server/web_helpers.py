"""Helpers that act like a browser: read forms out of pages, post them back."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from urllib.parse import urlsplit


class Forms(HTMLParser):
    """Every <form> of a page with its inputs and submit buttons."""

    def __init__(self, html: str):
        super().__init__()
        self.forms = []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self.forms.append(
                {
                    "action": a.get("action", ""),
                    "method": a.get("method", "get"),
                    "fields": {},
                    "buttons": [],
                    "selects": {},
                }
            )
        elif not self.forms:
            return
        elif tag == "input" and a.get("name"):
            self.forms[-1]["fields"][a["name"]] = a.get("value", "")
        elif tag == "button" and a.get("name"):
            self.forms[-1]["buttons"].append((a["name"], a.get("value", "")))
        elif tag == "select" and a.get("name"):
            self.forms[-1]["selects"][a["name"]] = []
            self._select = a["name"]
        elif tag == "option" and getattr(self, "_select", None):
            options = self.forms[-1]["selects"][self._select]
            options.append(a.get("value", ""))
            # What a browser sends: the selected option, else the first.
            if len(options) == 1 or "selected" in a:
                self.forms[-1]["fields"][self._select] = a.get("value", "")

    def handle_endtag(self, tag):
        if tag == "select":
            self._select = None


def forms(html: str) -> list[dict]:
    return Forms(html).forms


def form_for(html: str, action_part: str) -> dict:
    found = [f for f in forms(html) if action_part in f["action"] and f["method"] == "post"]
    assert found, f"no form posting to {action_part!r} in page"
    return found[0]


def move_form(html: str) -> dict | None:
    found = [f for f in forms(html) if f["action"].endswith("/move")]
    return found[0] if found else None


def csrf(html: str) -> str:
    return re.search(r'name="csrf_token"[^>]*value="([^"]+)"', html).group(1)


def path_of(url: str) -> str:
    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")


def links_in(msg) -> list[str]:
    text = msg.get_body(("plain",)).get_content()
    # As a mail client reads it: a link ends at a space or '>' (<url>).
    return re.findall(r"http://(?:localhost|127\.0\.0\.1:\d+)/[^\s>]+", text)


def seat_link(msg) -> str:
    return next(path_of(u) for u in links_in(msg) if "/s/" in u)


def text_of(msg) -> str:
    return msg.get_body(("plain",)).get_content() + msg.get_body(("html",)).get_content()


def signup(client, name: str, email: str, password: str = "correct horse", next_path=None):
    """Sign up and confirm the address through the link in the confirmation
    mail (read from the outbox row it was queued as); returns the page the
    confirmation lands on, signed in."""
    page = client.get("/signup")
    url = "/signup" + (f"?next={next_path}" if next_path else "")
    page = client.post(
        url,
        data={"csrf_token": csrf(page.text), "name": name, "email": email, "password": password},
    )
    assert "Check your mail" in page.text, page.text
    return confirm(client, queued_link(client.application, email, "/confirm/"))


def confirm(client, link: str):
    """Open a confirmation link and press its button."""
    page = client.get(link)
    return client.post(link, data={"csrf_token": csrf(page.text)}, follow_redirects=True)


def queued_link(app, email: str, part: str) -> str:
    """The path of the newest link containing ``part`` in a mail queued for ``email``."""
    from server.db import db
    from server.models import Outbox

    with app.app_context(), db.connection_context():
        rows = Outbox.select().where(Outbox.to_addr == email.lower()).order_by(Outbox.id.desc())
        for row in rows:
            # As a mail client reads it: a link ends at a space or '>' (<url>).
            found = re.findall(r"https?://[^/\s]+(" + re.escape(part) + r"[^\s>]+)", row.body_text)
            if found:
                return found[0]
    raise AssertionError(f"no mail with a {part} link queued for {email}")


def post_form(client, form: dict, **values):
    data = dict(form["fields"], **values)
    return client.post(form["action"], data=data, follow_redirects=True)


def choose(form: dict, pick) -> dict:
    """Submit the move form with the button ``pick`` chooses from the actions."""
    actions = [json.loads(v) for name, v in form["buttons"] if name == "action"]
    return pick(actions)
