"""Signed reply addresses: where a player's answer to a mail goes.

A turn mail's Reply-To names one seat of one game at one position:
``play+<token>@REPLY_DOMAIN``.  The token is lowercase base32 (mail systems
may fold the case of a local part) of the game id, the seat, the seat's
``link_version`` and the position's ``seq`` as varints, signed as
signed_addresses.py says: about 30 characters, far below the 64 a local
part may have.  A lobby address names a game and its
``join_version`` instead (``/join 2`` by mail).  Bumping either version
revokes every address handed out before, like the signed links.  A
question address names a request put to one account
(services/question_links.py).  A confirmation address names one held
mail (services/reply_confirmations.py): it is sent only to the account's
own confirmed address, and works once.
"""

from __future__ import annotations

from dataclasses import dataclass

from server.mail.signed_addresses import AddressError, SignedAddresses

PREFIX = "play+"
SEAT, LOBBY, TALK, CONFIRM, COMMANDS, QUESTION = 0, 1, 2, 3, 4, 5
LIMIT = 2**63
__all__ = [
    "COMMANDS",
    "CONFIRM",
    "LOBBY",
    "QUESTION",
    "SEAT",
    "TALK",
    "AddressError",
    "ReplyAddresses",
    "ReplyTarget",
]


@dataclass(frozen=True)
class ReplyTarget:
    kind: int  # SEAT, LOBBY, TALK, CONFIRM, COMMANDS or QUESTION
    game_id: int
    version: int  # the seat's link_version, the game's join_version; QUESTION: the account
    seat: int = -1  # QUESTION: which question (services/question_links.py)
    seq: int = -1  # QUESTION: the request's id
    confirmation: int = -1  # CONFIRM: the ReplyConfirmation's id
    user_id: int = -1  # COMMANDS: the account whose commands it takes


def _varints(numbers: list[int]) -> bytes:
    out = bytearray()
    for n in numbers:
        if not 0 <= n < LIMIT:
            raise ValueError(f"cannot encode {n}")
        while True:
            byte, n = n & 0x7F, n >> 7
            out.append(byte | (0x80 if n else 0))
            if not n:
                break
    return bytes(out)


def _read_varints(data: bytes) -> list[int]:
    numbers, value, shift = [], 0, 0
    for byte in data:
        value |= (byte & 0x7F) << shift
        shift += 7
        if shift > 63:
            raise AddressError("number too long")
        if not byte & 0x80:
            numbers.append(value)
            value, shift = 0, 0
    if shift:
        raise AddressError("truncated")
    return numbers


class ReplyAddresses:
    def __init__(self, secret_key: str, domain: str):
        self._signed = SignedAddresses("reply", PREFIX, secret_key, domain)
        self.domain = self._signed.domain

    @classmethod
    def from_settings(cls, settings) -> ReplyAddresses:
        return cls(settings["SECRET_KEY"], settings["REPLY_DOMAIN"])

    @property
    def enabled(self) -> bool:
        return self._signed.enabled

    def for_seat(self, game_id: int, seat: int, link_version: int, seq: int) -> str:
        return self._signed.make(_varints([SEAT, game_id, seat, link_version, seq]))

    def for_lobby(self, game_id: int, join_version: int) -> str:
        return self._signed.make(_varints([LOBBY, game_id, join_version]))

    def for_talk(self, game_id: int, seat: int, link_version: int) -> str:
        """A reply to a table-talk mail: posted to the table as that seat."""
        return self._signed.make(_varints([TALK, game_id, seat, link_version]))

    def for_confirmation(self, game_id: int, confirmation_id: int) -> str:
        """The single-use address a held mail is confirmed through."""
        return self._signed.make(_varints([CONFIRM, game_id, confirmation_id]))

    def for_commands(self, user_id: int) -> str:
        """One account's address for commands about no game (``/league
        join NAME``, services/command_replies.py): only its owner's mail acts."""
        return self._signed.make(_varints([COMMANDS, user_id]))

    def for_question(self, game_id: int, kind: int, request_id: int, user_id: int) -> str:
        """A reply that answers a question put to one account (a takeback,
        a proposal, a rematch) with yes or no."""
        return self._signed.make(_varints([QUESTION, game_id, kind, request_id, user_id]))

    def is_ours(self, address: str) -> bool:
        return self._signed.is_ours(address)

    def read(self, address: str) -> ReplyTarget:
        """The target an address names; AddressError when it is not ours or
        its signature is wrong."""
        numbers = _read_varints(self._signed.payload(address))
        if numbers[:1] == [SEAT] and len(numbers) == 5:
            return ReplyTarget(SEAT, numbers[1], numbers[3], seat=numbers[2], seq=numbers[4])
        if numbers[:1] == [LOBBY] and len(numbers) == 3:
            return ReplyTarget(LOBBY, numbers[1], numbers[2])
        if numbers[:1] == [TALK] and len(numbers) == 4:
            return ReplyTarget(TALK, numbers[1], numbers[3], seat=numbers[2])
        if numbers[:1] == [CONFIRM] and len(numbers) == 3:
            return ReplyTarget(CONFIRM, numbers[1], 0, confirmation=numbers[2])
        if numbers[:1] == [COMMANDS] and len(numbers) == 2:
            return ReplyTarget(COMMANDS, 0, 0, user_id=numbers[1])
        if numbers[:1] == [QUESTION] and len(numbers) == 5:
            return ReplyTarget(QUESTION, numbers[1], numbers[4], seat=numbers[2], seq=numbers[3])
        raise AddressError("unknown shape")
