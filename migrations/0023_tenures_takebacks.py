"""Seats have tenures (who held a seat from which log row to which), and
players may ask to take back their own moves.

Games that started before get their tenures from the log: the first holder
of a seat is the "old" player of its first replacement note (else the seat's
holder today); each replacement, removal, resignation and bot takeover
noted since ends one tenure and, but for a removal or resignation, begins
the next.  A seat never given away gets one tenure, from row 0 on."""

import json

from peewee import CharField, DateTimeField, ForeignKeyField, IntegerField, Model, TextField


def _tables(db):
    class Account(Model):
        class Meta:
            database = db
            table_name = "account"

    class Game(Model):
        status = CharField()

        class Meta:
            database = db
            table_name = "game"

    class Seat(Model):
        game = ForeignKeyField(Game)
        index = IntegerField()
        user = ForeignKeyField(Account, null=True)
        bot = CharField(null=True)

        class Meta:
            database = db
            table_name = "seat"

    class Event(Model):
        game = ForeignKeyField(Game)
        seq = IntegerField()
        kind = CharField()
        action = TextField()

        class Meta:
            database = db
            table_name = "event"

    class Tenure(Model):
        game = ForeignKeyField(Game, on_delete="CASCADE")
        seat = IntegerField()
        user = ForeignKeyField(Account, null=True)
        bot = CharField(null=True, max_length=20)
        from_seq = IntegerField()
        to_seq = IntegerField(null=True)
        began = CharField(default="joined", max_length=12)
        ended = CharField(default="", max_length=12)

        class Meta:
            database = db
            table_name = "tenure"
            indexes = ((("game", "seat", "from_seq"), False),)

    class Takeback(Model):
        game = ForeignKeyField(Game, on_delete="CASCADE")
        requester = ForeignKeyField(Account)
        seat = IntegerField()
        seqs = TextField(default="[]")
        asked = TextField(default="[]")
        agreed = TextField(default="[]")
        seq = IntegerField()
        status = CharField(default="open")
        held_seat = IntegerField(null=True)
        held_deadline = DateTimeField(null=True)
        held_reminder = DateTimeField(null=True)
        created_at = DateTimeField()
        expires_at = DateTimeField(index=True)
        ended_at = DateTimeField(null=True)

        class Meta:
            database = db
            table_name = "takeback"

    return Game, Seat, Event, Tenure, Takeback


SEAT_NOTES = ("replace", "remove", "resign", "bot")


def seat_history(seat_user, seat_bot, notes: list[tuple[int, dict]]) -> list[dict]:
    """The tenures of one seat from its holder today and its notes (seq, action)."""
    replaced = [a for _, a in notes if a["note"] == "replace"]
    first = replaced[0].get("old") if replaced else seat_user
    open_ = {
        "user": first,
        "bot": None if first else seat_bot,
        "from_seq": 0,
        "to_seq": None,
        "began": "joined",
        "ended": "",
    }
    held = [open_]
    for seq, action in notes:
        current = held[-1] if held[-1]["to_seq"] is None else None
        if action["note"] in ("remove", "resign"):
            if current:
                current.update(to_seq=seq, ended=action["note"] + "d")
        elif action["note"] == "bot" and current is None:  # a departed seat's bot
            held.append(
                {
                    "user": None,
                    "bot": action.get("bot"),
                    "from_seq": seq,
                    "to_seq": None,
                    "began": "took_over",
                    "ended": "",
                }
            )
        elif action["note"] == "replace":
            if current:
                current.update(to_seq=seq, ended="replaced")
            held.append(
                {
                    "user": action.get("new"),
                    "bot": None,
                    "from_seq": seq,
                    "to_seq": None,
                    "began": "replaced",
                    "ended": "",
                }
            )
    return held


def up(migrator, db):
    Game, Seat, Event, Tenure, Takeback = _tables(db)
    db.create_tables([Tenure, Takeback])
    started = Game.select(Game.id).where(Game.status.in_(("active", "finished")))
    for game in started:
        notes: dict[int, list] = {}
        for row in (
            Event.select(Event.seq, Event.action)
            .where((Event.game == game.id) & (Event.kind == "note"))
            .order_by(Event.seq)
        ):
            action = json.loads(row.action or "{}")
            if action.get("note") in SEAT_NOTES and isinstance(action.get("seat"), int):
                notes.setdefault(action["seat"], []).append((row.seq, action))
        for seat in Seat.select().where(Seat.game == game.id):
            if seat.user_id is None and not seat.bot:
                continue
            for held in seat_history(seat.user_id, seat.bot, notes.get(seat.index, [])):
                Tenure.create(game=game.id, seat=seat.index, **held)


def down(migrator, db):
    migrator.migrate(migrator.drop_table("takeback"), migrator.drop_table("tenure"))
