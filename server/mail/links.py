"""Signed links for emails: a seat's move page, a game's join page, an
address to confirm, a password to reset, mail to unsubscribe from.

Each is signed with the app's secret (itsdangerous), expires, and is revocable:
seat links carry the seat's ``link_version`` and its user, join links the
game's ``join_version``, account links what they change (they stop working
once it has changed).
"""

from __future__ import annotations

import hashlib
import re
from urllib.parse import unquote, urlsplit

from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer
from peewee import JOIN

from server.db import Prepared
from server.models import Game, Seat, User

# With its user: whoever opens a seat by its link checks the user's session token.
SEAT = Prepared(
    lambda game_id, index: (
        Seat.select(Seat, User)
        .join(User, JOIN.LEFT_OUTER, on=(Seat.user == User.id))
        .where((Seat.game == game_id) & (Seat.index == index))
        .limit(1)
    )
)


def _ints(data: dict, *keys: str) -> bool:
    """The signed values are ours, but a link made by an older version
    might hold something else: such a link is simply invalid."""
    return all(type(data.get(key)) is int for key in keys)


class LinkError(Exception):
    """A link that cannot be used; ``reason`` is expired, invalid or revoked."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class Links:
    def __init__(
        self,
        secret_key: str,
        base_url: str,
        seat_max_age: int,
        join_max_age: int,
        confirm_max_age: int,
        reset_max_age: int,
    ):
        self._secret = secret_key
        self.base_url = base_url.rstrip("/")
        self.seat_max_age = seat_max_age
        self.join_max_age = join_max_age
        self.confirm_max_age = confirm_max_age
        self.reset_max_age = reset_max_age

    @classmethod
    def from_settings(cls, settings) -> Links:
        return cls(
            settings["SECRET_KEY"],
            settings["PUBLIC_BASE_URL"],
            settings["SEAT_LINK_MAX_AGE"],
            settings["SIGNIN_LINK_MAX_AGE"],
            settings["CONFIRM_LINK_MAX_AGE"],
            settings["RESET_LINK_MAX_AGE"],
        )

    def _serializer(self, purpose: str) -> URLSafeTimedSerializer:
        return URLSafeTimedSerializer(self._secret, salt=f"pbem-{purpose}")

    def _load(self, purpose: str, token: str, max_age: int) -> dict:
        try:
            data = self._serializer(purpose).loads(token, max_age=max_age)
        except SignatureExpired:
            raise LinkError("expired") from None
        except BadSignature:
            raise LinkError("invalid") from None
        if not isinstance(data, dict):
            raise LinkError("invalid")
        return data

    # -- seat links -----------------------------------------------------
    def seat_token(self, seat: Seat) -> str:
        return self._serializer("seat").dumps(
            {"g": seat.game_id, "s": seat.index, "u": seat.user_id, "v": seat.link_version}
        )

    def seat_url(self, seat: Seat) -> str:
        return f"{self.base_url}/s/{self.seat_token(seat)}"

    def seat_claims(self, token: str) -> dict:
        """What a seat token says, once its signature and age check out."""
        return self._load("seat", token, self.seat_max_age)

    def read_seat(self, token: str, seats: list[Seat] | None = None) -> Seat:
        """The seat a link opens; ``seats``: the game's seats when the caller
        has read them already (the seat is then looked up there)."""
        data = self.seat_claims(token)
        if seats is None:
            seat = SEAT.first(data["g"], data["s"]) if _ints(data, "g", "s") else None
        else:
            seat = next(
                (s for s in seats if (s.game_id, s.index) == (data.get("g"), data.get("s"))), None
            )
        if seat is None:
            raise LinkError("invalid")
        if seat.link_version != data.get("v") or seat.user_id != data.get("u"):
            raise LinkError("revoked")
        return seat

    # -- join links -----------------------------------------------------
    def join_token(self, game: Game) -> str:
        return self._serializer("join").dumps({"g": game.id, "v": game.join_version})

    def join_url(self, game: Game) -> str:
        return f"{self.base_url}/j/{self.join_token(game)}"

    def read_join(self, token: str) -> Game:
        data = self._load("join", token, self.join_max_age)
        game = Game.get_or_none(Game.id == data.get("g"))
        if game is None:
            raise LinkError("invalid")
        if game.join_version != data.get("v"):
            raise LinkError("revoked")
        return game

    # -- unsubscribe links ---------------------------------------------------
    def unsubscribe_url(self, user: User) -> str:
        # No expiry and no session token: a mail from last year must still
        # be able to turn its kind of mail off.
        return f"{self.base_url}/mail/unsubscribe/{self._serializer('unsubscribe').dumps(user.id)}"

    def read_unsubscribe(self, token: str) -> User:
        try:
            user_id = self._serializer("unsubscribe").loads(token)
        except BadSignature:
            raise LinkError("invalid") from None
        user = User.get_or_none(User.id == user_id) if isinstance(user_id, int) else None
        if user is None:
            raise LinkError("invalid")
        return user

    # -- "never invite me here" ----------------------------------------------
    def never_invite_url(self, address: str) -> str:
        # No expiry: an invitation from last year must still be able to stop
        # the next.  It names only the address it was sent to.
        token = self._serializer("never-invite").dumps(address.strip().lower())
        return f"{self.base_url}/mail/never-invite/{token}"

    def read_never_invite(self, token: str) -> str:
        try:
            address = self._serializer("never-invite").loads(token)
        except BadSignature:
            raise LinkError("invalid") from None
        if not isinstance(address, str) or not 3 <= len(address) <= 254:
            raise LinkError("invalid")
        return address

    # -- calendar feeds -------------------------------------------------------
    def calendar_url(self, user: User) -> str:
        """A player's secret feed of deadlines: no expiry (a calendar app
        polls it for months); a new version revokes it."""
        token = self._serializer("calendar").dumps({"u": user.id, "v": user.calendar_version})
        return f"{self.base_url}/calendar/{token}.ics"

    def read_calendar(self, token: str) -> User:
        try:
            data = self._serializer("calendar").loads(token)
        except BadSignature:
            raise LinkError("invalid") from None
        if not isinstance(data, dict):
            raise LinkError("invalid")
        user = self._user(data)
        if user.calendar_version != data.get("v"):
            raise LinkError("revoked")
        return user

    # -- account links ------------------------------------------------------
    # None of these signs anybody in by itself being opened: each leads to a
    # page whose button (a POST) does the work, so a mail scanner that opens
    # every link changes nothing.
    def confirm_url(self, user: User, next_path: str = "/", attempt: int | None = None) -> str:
        """Sign-up: proves the address; valid while the account is unconfirmed.
        ``attempt``: the later sign-up (models.SignUpAttempt) it confirms."""
        data = {"u": user.id, "e": user.email, "t": user.session_token, "n": next_path}
        if attempt is not None:
            data["a"] = attempt
        token = self._serializer("confirm").dumps(data)
        return f"{self.base_url}/confirm/{token}"

    def read_confirm(self, token: str) -> tuple[User, str, int | None]:
        """The account, where to go next, and the later sign-up it confirms."""
        data = self._load("confirm", token, self.confirm_max_age)
        user = self._user(data)
        if user.verified or user.email != data.get("e") or user.session_token != data.get("t"):
            raise LinkError("revoked")
        attempt = data.get("a")
        return user, safe_next(data.get("n")), attempt if isinstance(attempt, int) else None

    def address_url(self, user: User, new_email: str) -> str:
        """A new address for an account: valid until used, the address
        changes some other way, or the account's sessions end (a new
        password, "sign out everywhere": the session token changes)."""
        token = self._serializer("address").dumps(
            {"u": user.id, "o": user.email, "e": new_email, "t": user.session_token}
        )
        return f"{self.base_url}/account/address/{token}"

    def read_address(self, token: str) -> tuple[User, str]:
        data = self._load("address", token, self.confirm_max_age)
        user = self._user(data)
        if (
            user.email != data.get("o")
            or user.session_token != data.get("t")
            or not isinstance(data.get("e"), str)
        ):
            raise LinkError("revoked")
        return user, data["e"]

    def reset_url(self, user: User) -> str:
        token = self._serializer("reset").dumps({"u": user.id, "p": password_mark(user)})
        return f"{self.base_url}/reset/{token}"

    def read_reset(self, token: str) -> User:
        """Single use: setting the password changes its mark."""
        data = self._load("reset", token, self.reset_max_age)
        user = self._user(data)
        if password_mark(user) != data.get("p"):
            raise LinkError("revoked")
        return user

    def erase_url(self, user: User) -> str:
        """For an account without a password: the link that asks "delete?"."""
        token = self._serializer("erase").dumps({"u": user.id, "p": password_mark(user)})
        return f"{self.base_url}/account/delete/{token}"

    def read_erase(self, token: str) -> User:
        """Stops with a new sign-in token (sign out everywhere) or password."""
        data = self._load("erase", token, self.reset_max_age)
        user = self._user(data)
        if password_mark(user) != data.get("p") or user.erased_at is not None:
            raise LinkError("revoked")
        return user

    def export_url(self, user: User, export_id: int) -> str:
        token = self._serializer("export").dumps({"u": user.id, "x": export_id})
        return f"{self.base_url}/account/data/{token}"

    def read_export(self, token: str, max_age: int) -> tuple[int, int]:
        """(user id, export id); whose it is the caller checks."""
        data = self._load("export", token, max_age)
        if not _ints(data, "u", "x"):
            raise LinkError("invalid")
        return data["u"], data["x"]

    def _user(self, data: dict) -> User:
        user_id = data.get("u")
        user = User.get_or_none(User.id == user_id) if isinstance(user_id, int) else None
        if user is None:
            raise LinkError("invalid")
        return user


def password_mark(user: User) -> str:
    """A short digest of the stored password hash: changes with the password."""
    return hashlib.sha256(f"{user.password_hash}:{user.session_token}".encode()).hexdigest()[:20]


NEXT_MAX = 2000
# Printable ASCII without the space: anything else in a path is refused whole,
# never stripped (browsers drop tabs and newlines inside URLs, so "/\t/evil"
# stripped by them is "//evil", another site).
GRAPHIC = re.compile(r"[!-~]*")


def safe_next(path) -> str:
    """A same-site path to go to after signing in; anything doubtful goes home.

    Only a relative path ("/games/3?since=4#result") of printable ASCII,
    without backslashes (browsers read them as slashes), not starting "//",
    and the same once percent-decoded (so "/%2F%2Fevil" is refused too)."""
    if (
        isinstance(path, str)
        and len(path) <= NEXT_MAX
        and stays_on_site(path)
        and stays_on_site(unquote(path))
    ):
        return path
    return "/"


def stays_on_site(path: str) -> bool:
    if not (GRAPHIC.fullmatch(path) and "\\" not in path):
        return False
    if not path.startswith("/") or path.startswith("//"):
        return False
    parts = urlsplit(path)  # belt and braces: no scheme, no host
    return not parts.scheme and not parts.netloc
