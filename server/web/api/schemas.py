"""What the API reads and answers, as marshmallow schemas: flask-smorest
validates requests with them and writes the OpenAPI document from them."""

from __future__ import annotations

import datetime as dt

import marshmallow as ma
from marshmallow import fields, validate

from server.services import api_tokens

BIGGEST = 2**63 - 1  # an id or seq the database can hold


class Utc(fields.DateTime):
    """A time the database keeps as naive UTC, written with its offset (RFC 3339)."""

    def _serialize(self, value, attr, obj, **kwargs):
        if value is not None and value.tzinfo is None:
            value = value.replace(tzinfo=dt.UTC)
        return super()._serialize(value, attr, obj, **kwargs)


class Strict(ma.Schema):
    class Meta:
        unknown = ma.RAISE


class Problem(ma.Schema):
    """RFC 9457 problem details."""

    type = fields.String(required=True)
    title = fields.String(required=True)
    status = fields.Integer(required=True)
    detail = fields.String(required=True)
    errors = fields.Dict(metadata={"description": "the fields not understood"})


class TokenInfo(ma.Schema):
    name = fields.String(required=True)
    scopes = fields.List(fields.String(validate=validate.OneOf(api_tokens.SCOPES)), required=True)
    expires_at = Utc(required=True)


class Me(ma.Schema):
    id = fields.Integer(required=True)
    name = fields.String(required=True)
    email = fields.String(required=True)
    language = fields.String(required=True)
    timezone = fields.String(required=True)
    is_bot = fields.Boolean(required=True)
    token = fields.Nested(TokenInfo, required=True)


class GameSummary(ma.Schema):
    id = fields.Integer(required=True)
    name = fields.String(required=True)
    kind = fields.String(required=True)
    title = fields.String(required=True)
    status = fields.String(required=True)
    seq = fields.Integer(required=True)
    my_seat = fields.Integer(
        required=True, allow_none=True, metadata={"description": "1-based; null: not seated"}
    )
    my_turn = fields.Boolean(required=True)
    to_move = fields.Integer(required=True, allow_none=True, metadata={"description": "1-based"})
    deadline = Utc(
        required=True, allow_none=True, metadata={"description": "UTC, of the seat to move"}
    )


class GameList(ma.Schema):
    games = fields.List(fields.Nested(GameSummary), required=True)


class Turns(GameList):
    note = fields.String(required=True)


class Waited(GameList):
    timed_out = fields.Boolean(required=True)


class Row(ma.Schema):
    label = fields.String(required=True)
    value = fields.String(required=True)


class Section(ma.Schema):
    title = fields.String(required=True)
    rows = fields.List(fields.Nested(Row), required=True)


class LegalMove(ma.Schema):
    action = fields.Dict(required=True, metadata={"description": "send it back as it is"})
    label = fields.String(required=True)
    group = fields.String(required=True)


class LogLine(ma.Schema):
    seq = fields.Integer(required=True)
    text = fields.String(required=True)


class Score(ma.Schema):
    name = fields.String(required=True)
    seat = fields.Integer(required=True)
    total = fields.Integer(required=True)
    winner = fields.Boolean(required=True)


class SeatInfo(ma.Schema):
    number = fields.Integer(required=True)
    name = fields.String(required=True, allow_none=True)
    bot = fields.Boolean(required=True, metadata={"description": "a built-in bot or a bot account"})


class GameView(GameSummary):
    paused = fields.Boolean(required=True)
    seats = fields.List(fields.Nested(SeatInfo), required=True)
    view = fields.Dict(
        required=True,
        metadata={
            "description": "the engine's state as your seat may see it (JSON; its shape is the "
            "game's own)"
        },
    )
    prompt = fields.String(required=True)
    deadline_text = fields.String(required=True)
    board = fields.List(fields.Nested(Section), required=True)
    legal_moves = fields.List(fields.Nested(LegalMove), required=True)
    log = fields.List(fields.Nested(LogLine), required=True)
    result = fields.List(fields.Nested(Score), required=True)


class GameQuery(Strict):
    since = fields.Integer(
        load_default=None,
        validate=validate.Range(0, BIGGEST),
        metadata={"description": "log lines after this seq (default: the last 15 lines)"},
    )


class MoveIn(Strict):
    seq = fields.Integer(
        required=True,
        strict=True,
        validate=validate.Range(0, BIGGEST),
        metadata={"description": "the game's seq the move was chosen at"},
    )
    action = fields.Dict(required=True, metadata={"description": "one of legal_moves' actions"})


class Played(ma.Schema):
    seq = fields.Integer(required=True)
    to_move = fields.Integer(required=True, allow_none=True)
    over = fields.Boolean(required=True)


class TalkMessage(ma.Schema):
    id = fields.Integer(required=True)
    name = fields.String(required=True)
    seat = fields.Integer(required=True)
    text = fields.String(required=True)
    hidden = fields.Boolean(required=True)
    at = Utc(required=True)


class Talk(ma.Schema):
    messages = fields.List(fields.Nested(TalkMessage), required=True)


class TalkIn(Strict):
    text = fields.String(required=True, validate=validate.Length(1, 2000))


class WaitQuery(Strict):
    timeout = fields.Integer(
        load_default=30,
        validate=validate.Range(0, 60),
        metadata={"description": "seconds, at most 60 (the site may answer sooner)"},
    )


class LobbyGame(ma.Schema):
    id = fields.Integer(required=True)
    name = fields.String(required=True)
    kind = fields.String(required=True)
    title = fields.String(required=True)
    host = fields.String(required=True)
    is_host = fields.Boolean(required=True)
    my_seat = fields.Integer(required=True, allow_none=True)
    seats = fields.List(fields.Nested(SeatInfo), required=True)


class Lobby(ma.Schema):
    games = fields.List(fields.Nested(LobbyGame), required=True)


class JoinIn(Strict):
    seat = fields.Integer(required=True, strict=True, validate=validate.Range(1, 99))
    token = fields.String(
        load_default="",
        validate=validate.Length(max=500),
        metadata={"description": "the game's join link token, if not invited"},
    )


class Done(ma.Schema):
    message = fields.String(required=True)
