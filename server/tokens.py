"""Signed links for emails: a seat's move page, a game's join page, sign-in.

Each is signed with the app's secret (itsdangerous), expires, and is revocable:
seat links carry the seat's ``link_version`` and its user, join links the
game's ``join_version``, sign-in links the user's ``session_token``.
"""
from __future__ import annotations

from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer

from server.models import Game, Seat, User


class LinkError(Exception):
    """A link that cannot be used; ``reason`` is expired, invalid or revoked."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class Links:
    def __init__(self, secret_key: str, base_url: str, seat_max_age: int,
                 signin_max_age: int):
        self._secret = secret_key
        self.base_url = base_url.rstrip("/")
        self.seat_max_age = seat_max_age
        self.signin_max_age = signin_max_age

    @classmethod
    def from_settings(cls, settings) -> "Links":
        return cls(settings["SECRET_KEY"], settings["PUBLIC_BASE_URL"],
                   settings["SEAT_LINK_MAX_AGE"], settings["SIGNIN_LINK_MAX_AGE"])

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
            {"g": seat.game_id, "s": seat.index, "u": seat.user_id, "v": seat.link_version})

    def seat_url(self, seat: Seat) -> str:
        return f"{self.base_url}/s/{self.seat_token(seat)}"

    def read_seat(self, token: str) -> Seat:
        data = self._load("seat", token, self.seat_max_age)
        seat = Seat.get_or_none((Seat.game == data.get("g")) & (Seat.index == data.get("s")))
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
        data = self._load("join", token, self.signin_max_age)
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

    # -- sign-in links --------------------------------------------------
    def signin_url(self, user: User, next_path: str = "/") -> str:
        token = self._serializer("signin").dumps(
            {"u": user.id, "t": user.session_token, "n": next_path})
        return f"{self.base_url}/l/{token}"

    def read_signin(self, token: str) -> tuple[User, str]:
        data = self._load("signin", token, self.signin_max_age)
        user = User.get_or_none(User.id == data.get("u"))
        if user is None:
            raise LinkError("invalid")
        if user.session_token != data.get("t"):
            raise LinkError("revoked")
        return user, safe_next(data.get("n"))


def safe_next(path) -> str:
    """A local path to go to after signing in; anything else goes home."""
    if isinstance(path, str) and path.startswith("/") and not path.startswith("//") \
            and "\\" not in path:
        return path
    return "/"
