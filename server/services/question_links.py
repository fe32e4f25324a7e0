"""How a player asked something by mail (a takeback, a proposal, a rematch:
services/consent.py) answers it without signing in: by replying to the
mail, or through the mail's link.

Both name one question and one person: the reply address (reply_address's
QUESTION kind: the game, which question, the request's id, the person's
account) and a link token signed for this purpose alone (itsdangerous, with
its own salt, so no other link of the site is one).  The link expires after
LINK_MAX_AGE, and works only while the request is open; it never signs
anybody in (web/questions.py).
"""

from __future__ import annotations

import datetime as dt

from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer

from server.services import reply_menu

TAKEBACK, PROPOSAL, REMATCH = 0, 1, 2
KINDS = (TAKEBACK, PROPOSAL, REMATCH)
SALT = "pbem-question-answer"
LINK_MAX_AGE = dt.timedelta(days=7)
# The first word of a reply that answers, in the four languages.
YES_WORDS = frozenset({"yes", "ja", "oui"})
NO_WORDS = frozenset({"no", "nee", "nein", "non"})


class LinkProblem(ValueError):
    """A link that cannot be used: ``reason`` is "expired" or "invalid"."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def reply_to(settings, game_id: int, kind: int, request_id: int, user_id: int) -> str:
    """The reply address that answers this question as ``user_id``; "" when
    the site takes no replies."""
    addresses = reply_menu.addresses(settings)
    if not addresses.enabled:
        return ""
    return addresses.for_question(game_id, kind, request_id, user_id)


def _serializer(secret: str) -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(secret, salt=SALT)


def token(secret: str, game_id: int, kind: int, request_id: int, user_id: int) -> str:
    return _serializer(secret).dumps([game_id, kind, request_id, user_id])


def url(mailer, game_id: int, kind: int, request_id: int, user_id: int) -> str:
    """The link in the mail: it shows the question with a yes and a no button."""
    signed = token(mailer.settings["SECRET_KEY"], game_id, kind, request_id, user_id)
    return f"{mailer.links.base_url}/answer/{signed}"


def read(secret: str, signed: str) -> tuple[int, int, int, int]:
    """(game id, kind, request id, user id) of a link token; LinkProblem
    when it is expired, tampered with or not one of ours."""
    try:
        data = _serializer(secret).loads(signed[:300], max_age=int(LINK_MAX_AGE.total_seconds()))
    except SignatureExpired:
        raise LinkProblem("expired") from None
    except (BadSignature, ValueError, TypeError):
        raise LinkProblem("invalid") from None
    if (
        not isinstance(data, list)
        or len(data) != 4
        or not all(isinstance(n, int) and not isinstance(n, bool) for n in data)
        or data[1] not in KINDS
    ):
        raise LinkProblem("invalid")
    game_id, kind, request_id, user_id = data
    return game_id, kind, request_id, user_id


def says(commands: list[str]) -> bool | None:
    """True for a reply whose first word is a yes ("Yes!", "ja", "oui."),
    False for a no, None for anything else (an out-of-office, a question)."""
    first = next((line for line in commands if line.strip()), "")
    words = first.split()
    word = words[0].strip(".!,;:").casefold() if words else ""
    if word in YES_WORDS:
        return True
    if word in NO_WORDS:
        return False
    return None
