"""The tables.  Schema changes go through migrations/; a test checks that the
migrated database and these models agree."""

from __future__ import annotations

import datetime as dt
import json
import re
import secrets

from flask_login import UserMixin
from peewee import (
    BigIntegerField,
    BlobField,
    BooleanField,
    CharField,
    DateTimeField,
    FloatField,
    ForeignKeyField,
    IntegerField,
    Model,
    TextField,
)

from engine.words import N_, msg
from server.db import db


def utcnow() -> dt.datetime:
    return dt.datetime.now(dt.UTC).replace(tzinfo=None)


class JSONField(TextField):
    """JSON as text: the same column type on SQLite and PostgreSQL.

    Key order is kept as given (no sort_keys, no jsonb): a game state read
    back must behave exactly like the one written, and some engines iterate
    their dicts in insertion order.
    """

    def db_value(self, value):
        return None if value is None else json.dumps(value, separators=(",", ":"))

    def python_value(self, value):
        return None if value is None else json.loads(value)


# An account deleted on request keeps its row under this name (services/
# erasure.py): records point to it.  Stored in English, read back as words
# that each reader sees in their own language.
FORMER_PLAYER = N_("Former player %(number)s")
_FORMER = re.compile(r"Former player ([0-9]{1,18})")


class PersonName(CharField):
    """A person's name; a deleted account's pseudonym reads as ``Words``."""

    def python_value(self, value):
        found = _FORMER.fullmatch(value) if isinstance(value, str) else None
        return msg(FORMER_PLAYER, number=int(found.group(1))) if found else value


def former_player_name(user_id: int) -> str:
    return FORMER_PLAYER % {"number": user_id}


class BaseModel(Model):
    class Meta:
        database = db
        legacy_table_names = False


class User(UserMixin, BaseModel):
    class Meta:
        table_name = "account"  # "user" is reserved in PostgreSQL

    def get_id(self) -> str:
        # The token makes "log out everywhere" invalidate copied cookies.
        return f"{self.id}:{self.session_token}"

    email = CharField(unique=True)
    name = PersonName()
    password_hash = CharField()
    # Part of the login cookie: changing it logs the user out everywhere.
    session_token = CharField(default=lambda: secrets.token_hex(16))
    created_at = DateTimeField(default=utcnow)
    # Deadlines are shown in this IANA zone (e.g. "Europe/Amsterdam").
    timezone = CharField(default="UTC")
    # "every": a mail for each turn; "digest": one mail a day listing them.
    mail_mode = CharField(default="every")
    # Reminders, timeout notices, results: mail a game can go on without.
    optional_mail = BooleanField(default=True)
    # Pages show the board as text only, without the drawing (screen readers,
    # text browsers, or taste).
    board_as_text = BooleanField(default=False)
    # The language of pages and mails (server/i18n.py); "" until the player
    # picks one: pages then follow the browser, mails are English.
    language = CharField(default="", max_length=8)
    next_digest_at = DateTimeField(null=True, index=True)
    # Bumping it gives the calendar feed a new address (services/calendar_feed.py).
    calendar_version = IntegerField(default=1)
    # A site moderator may moderate every game (a host moderates their own).
    is_moderator = BooleanField(default=False)
    # When the owner proved the address is theirs (a link mailed to it).
    # Until then: no sign-in, no seat reserved for the address, no game mail.
    email_verified_at = DateTimeField(null=True)
    # The player's own mail schedule (services/clock/mail_hours.py), in their
    # zone: hours before a deadline a reminder comes (null: each game's own
    # schedule), quiet hours without reminders or digests (from, until;
    # null: none) and the digest's hour (null: the site's DIGEST_HOUR).
    reminder_hours = JSONField(null=True)
    quiet_from = IntegerField(null=True)
    quiet_until = IntegerField(null=True)
    digest_hour = IntegerField(null=True)
    # What the player's profile shows to others (services/profiles.py); the
    # languages they play in are codes of server/i18n.LANGUAGES.
    languages = JSONField(default=list)
    show_languages = BooleanField(default=True)
    show_playing = BooleanField(default=True)
    show_finished = BooleanField(default=True)
    show_ratings = BooleanField(default=True)
    # A program that plays through the API with its own tokens, marked by a
    # site moderator on the record (services/bot_accounts.py).
    is_bot = BooleanField(default=False)
    # The owner deleted the account (services/erasure.py): the row stays
    # under a pseudonym, without address, password or way in.
    erased_at = DateTimeField(null=True)

    @property
    def verified(self) -> bool:
        return self.email_verified_at is not None


class Club(BaseModel):
    """A group of players (services/clubs.py): founded by anyone signed in,
    joined by invitation link, by request or (public clubs) directly.  A
    league may name its club (``League.club``); the club's games are those made
    for it (``Game.club``)."""

    name = CharField(max_length=60)
    # The name as compared: case and spacing folded, unique, so "Chess Club"
    # and "chess  club" cannot both exist.
    name_key = CharField(max_length=60, unique=True)
    slug = CharField(max_length=64, unique=True)  # its address: /clubs/<slug>
    description = TextField(default="")
    languages = JSONField(default=list)  # codes of server/i18n.LANGUAGES
    # Invite-only: joined by invitation link or an accepted request, and its
    # page shows outsiders only its name and description.
    invite_only = BooleanField(default=False)
    founder = ForeignKeyField(User, null=True, on_delete="SET NULL")
    # Bumping it revokes every invitation link of the club.
    invite_version = IntegerField(default=1)
    created_at = DateTimeField(default=utcnow)


class Game(BaseModel):
    kind = CharField()
    name = CharField()
    host = ForeignKeyField(User, backref="hosted_games")
    status = CharField(default="open", index=True)  # open, active, finished, closed
    seat_count = IntegerField()
    options = JSONField(default=dict)
    seed = BigIntegerField()
    # Rows in the event log (moves, undone moves, moderation notes): every
    # form carries it, so any change to the game makes older forms stale.
    seq = IntegerField(default=0)
    to_move = IntegerField(null=True)
    prompt = CharField(default="")
    move_hours = IntegerField()
    reminder_hours = JSONField(default=list)
    # When the clock stands still, judged in each seat's own time zone
    # (services/clock/running_hours.py): always runs, no_weekends, no_nights,
    # no_weekends_no_nights; the night is from night_from:00 to night_until:00.
    clock_policy = CharField(default="always")
    night_from = IntegerField(default=23)
    night_until = IntegerField(default=7)
    paused = BooleanField(default=False)
    # When a moderator paused it: resuming shifts the clocks by the pause.
    paused_at = DateTimeField(null=True)
    # Bumping it revokes every shared join link of the game.
    join_version = IntegerField(default=1)
    thread_id = CharField()
    outcome = JSONField(null=True)
    created_at = DateTimeField(default=utcnow)
    started_at = DateTimeField(null=True)
    finished_at = DateTimeField(null=True)
    # A lobby not started in time: its host was reminded, then it was closed
    # (status "closed"; services/clock/stale_lobbies.py).
    lobby_reminded_at = DateTimeField(null=True)
    closed_at = DateTimeField(null=True)
    # Listed among the open games (web/open_games.py): anybody signed in may
    # join; otherwise only the invited and those with the join link.
    public = BooleanField(default=False)
    # The language the table speaks (server/i18n.py), the host's by default:
    # what the open games list tells a player looking for a table.
    language = CharField(default="", max_length=8)
    # The host keeps it out of the archive and from outsiders' eyes: only
    # the people who held a seat, the host and moderators see its pages.
    private = BooleanField(default=False)
    # What the end did to the ratings (services/ratings.py): "" not decided
    # (not over, or reopened), "rated", or why not (a RATING_RULES key).
    rating = CharField(default="", max_length=12)
    # Made for a club by one of its members (services/clubs.py): on the
    # club's page, and first in its members' open games list.
    club = ForeignKeyField(Club, null=True, backref="games", on_delete="SET NULL")
    # The seat of a player who deletes their account: "bot" plays it, or it
    # "passes" on each turn (services/erasure.py); the host's choice.
    departed_seat = CharField(default="bot", max_length=10)


class ClubMember(BaseModel):
    club = ForeignKeyField(Club, backref="members", on_delete="CASCADE")
    user = ForeignKeyField(User, backref="club_memberships", on_delete="CASCADE")
    role = CharField(default="member", max_length=10)  # admin, member
    joined_at = DateTimeField(default=utcnow)

    class Meta:
        indexes = ((("club", "user"), True),)


class ClubRequest(BaseModel):
    """A player's request to join an invite-only club, until an admin
    accepts or declines it."""

    club = ForeignKeyField(Club, backref="requests", on_delete="CASCADE")
    user = ForeignKeyField(User, on_delete="CASCADE")
    status = CharField(default="open", max_length=10)  # open, accepted, declined
    created_at = DateTimeField(default=utcnow)
    decided_by = ForeignKeyField(User, null=True, backref="+", on_delete="SET NULL")
    decided_at = DateTimeField(null=True)

    class Meta:
        indexes = ((("club", "status"), False),)


class ClubRecord(BaseModel):
    """The club's record: who joined, left, was removed or made admin, when
    and by whom (``actor``; None: the person themself)."""

    club = ForeignKeyField(Club, backref="record", on_delete="CASCADE")
    user = ForeignKeyField(User, null=True, backref="+", on_delete="SET NULL")
    actor = ForeignKeyField(User, null=True, backref="+", on_delete="SET NULL")
    # founded, joined, left, removed, admin, declined
    action = CharField(max_length=12)
    how = CharField(default="", max_length=12)  # link, request, direct
    created_at = DateTimeField(default=utcnow)

    class Meta:
        indexes = ((("club", "id"), False),)


class League(BaseModel):
    """A series of rounds of one game (services/leagues.py): each round
    splits the players still in into tables, each table a game.  Open to
    everyone signed in, or (``club_only``) to the members of its club."""

    name = CharField(max_length=60)
    name_key = CharField(max_length=60, unique=True)  # as clubs.name_key
    club = ForeignKeyField(Club, null=True, backref="leagues", on_delete="SET NULL")
    club_only = BooleanField(default=False)
    creator = ForeignKeyField(User, null=True, backref="+", on_delete="SET NULL")
    kind = CharField()
    options = JSONField(default=dict)
    move_hours = IntegerField()
    clock_policy = CharField(default="always")
    format = CharField(default="round_robin", max_length=12)  # round_robin, swiss
    rounds = IntegerField()
    max_players = IntegerField()  # joining stops there
    table_min = IntegerField()  # players at a table: from table_min to table_max
    table_max = IntegerField()
    starts_at = DateTimeField()
    # all_at_once: a round begins when the one before ended; each_table: a
    # table begins as soon as its players have no game of the league running.
    round_start = CharField(default="all_at_once", max_length=12)
    # Every table of a round is dealt from the round's seed.
    same_deal = BooleanField(default=False)
    # What becomes of a dropped-out player's running seats: autopass, bot.
    dropout = CharField(default="autopass", max_length=10)
    seed = BigIntegerField()  # the pairings' seed
    state = CharField(default="open", max_length=10)  # open, playing, finished
    created_at = DateTimeField(default=utcnow)


class LeagueMember(BaseModel):
    league = ForeignKeyField(League, backref="members", on_delete="CASCADE")
    user = ForeignKeyField(User, backref="+", on_delete="CASCADE")
    joined_at = DateTimeField(default=utcnow)
    # Dropped out: not paired again; their running seats are auto-passed or
    # played by a bot (League.dropout).
    dropped_at = DateTimeField(null=True)

    class Meta:
        indexes = ((("league", "user"), True),)


class LeagueRound(BaseModel):
    league = ForeignKeyField(League, backref="round_rows", on_delete="CASCADE")
    number = IntegerField()  # from 1
    seed = BigIntegerField()  # the deal of every table when League.same_deal
    state = CharField(default="playing", max_length=10)  # playing, ended
    started_at = DateTimeField(default=utcnow)
    ended_at = DateTimeField(null=True)

    class Meta:
        indexes = ((("league", "number"), True),)


class LeagueTable(BaseModel):
    """One table of a round: its players in seat order, and its game (None
    until it began, with round_start each_table)."""

    round = ForeignKeyField(LeagueRound, backref="tables", on_delete="CASCADE")
    number = IntegerField()  # from 1
    players = JSONField(default=list)  # user ids in seat order
    game = ForeignKeyField(
        Game, null=True, unique=True, backref="league_table", on_delete="SET NULL"
    )

    class Meta:
        indexes = ((("round", "number"), True),)


class Seat(BaseModel):
    game = ForeignKeyField(Game, backref="seats", on_delete="CASCADE")
    # The stubs see the field shadow Model.index(); peewee's fields may.
    index = IntegerField()  # type: ignore[assignment]
    user = ForeignKeyField(User, null=True, backref="seats")
    # Bumping it revokes every link sent for this seat.
    link_version = IntegerField(default=1)
    # The sequence number after this seat's latest move: a turn mail
    # summarises what happened since.
    last_move_seq = IntegerField(default=0)
    deadline = DateTimeField(null=True, index=True)
    next_reminder_at = DateTimeField(null=True, index=True)
    joined_at = DateTimeField(null=True)
    # When the pending turn began: reminders "halfway" count from here.
    turn_started_at = DateTimeField(null=True)
    # A scheduler working on this seat's timeout holds it until then.
    claimed_until = DateTimeField(null=True)
    # Which scheduler (host:pid:nonce): a new one on that host frees the
    # claims of a dead one at once instead of waiting out the lease.
    claimed_by = CharField(default="", max_length=120)
    timeouts_in_row = IntegerField(default=0)
    # After too many timeouts in a row the seat auto-passes at once.
    absent = BooleanField(default=False)
    # Removed by a moderator or resigned: the seat auto-passes to the end.
    withdrawn = BooleanField(default=False)
    # The newest table-talk message that rode along in a mail to this seat.
    talk_seen_id = IntegerField(default=0)
    # The turn mail of the pending turn bounced or failed then: the clock
    # stands still until a mail gets through, the player opens the game or a
    # moderator acts (services/outbox.py).
    mail_hold_since = DateTimeField(null=True)
    # When the player was last reminded of the pending turn: a turn is not
    # timed out before one warning went out (services/clock/sweep.py, last call).
    reminded_at = DateTimeField(null=True)
    # The log seq up to which the player has seen the moves played for this
    # seat by others (services/clock/while_away.py).
    away_seen_seq = IntegerField(default=0)
    # The bot (engine/bots) that plays this seat: in a practice game for
    # good, at a table for an absent or departed player until they are back
    # (services/bot_seats.py).  None: a person plays it.
    bot = CharField(null=True, max_length=20)
    # The player lets the game's table channel (server/notify) tell them of
    # their turns instead of turn mails.
    table_channel_only = BooleanField(default=False)

    class Meta:
        indexes = ((("game", "index"), True), (("game", "user"), True))


class Invitation(BaseModel):
    game = ForeignKeyField(Game, backref="invitations", on_delete="CASCADE")
    email = CharField()
    created_at = DateTimeField(default=utcnow)
    # Held back by the address's daily limit: not mailed when made, but in
    # one mail for the address with every other one held for it, at
    # ``held_until`` (services/held_invitations.py).  ``held_settled_at``:
    # when that mail was written, or the invitation dropped from it.
    held_until = DateTimeField(null=True)
    held_settled_at = DateTimeField(null=True)


# What services/held_invitations.py still has to mail (migration 0036): a
# partial index, so a settled invitation leaves it.
Invitation.add_index(
    Invitation.index(
        Invitation.held_until,
        name="invitation_held",
        where=Invitation.held_until.is_null(False) & Invitation.held_settled_at.is_null(),
    )
)


class Event(BaseModel):
    """Append-only log: one row per action applied to a game ("move") or per
    moderation record ("note").  Replay applies the moves not undone; an undo
    marks rows, it never deletes them.  ``seq`` numbers every row."""

    game = ForeignKeyField(Game, backref="events", on_delete="CASCADE")
    seq = IntegerField()
    seat = IntegerField(null=True)
    action = JSONField()
    actor = CharField()  # player, timeout, moderator
    user = ForeignKeyField(User, null=True)
    # What the engine reported, kept so pages never replay the game.
    events = JSONField(default=list)
    created_at = DateTimeField(default=utcnow)
    kind = CharField(default="move")  # move, note
    undone = BooleanField(default=False)

    class Meta:
        indexes = ((("game", "seq"), True),)


class Snapshot(BaseModel):
    """Cache of the state after ``seq`` actions; the log is the truth."""

    game = ForeignKeyField(Game, primary_key=True, on_delete="CASCADE")
    seq = IntegerField()
    state_version = IntegerField()
    state = JSONField()
    updated_at = DateTimeField(default=utcnow)


class NotifyChannel(BaseModel):
    """A chat or push destination beside mail (server/notify): a player's own
    (``game`` None) or a game's table channel set by its host.  The URL is
    kept sealed (notify/crypto.py); ``masked`` is all that is ever shown.
    ``destination`` names the place the URL posts to, the same for two
    channels with one URL: what notify/notice_sender.py limits."""

    user = ForeignKeyField(User, backref="channels", on_delete="CASCADE")
    game = ForeignKeyField(Game, null=True, backref="channels", on_delete="CASCADE")
    scheme = CharField(max_length=20)
    masked = CharField(max_length=300)
    sealed_url = TextField()
    # The generic webhook's signing key, sealed ("" for apprise channels).
    sealed_signing_key = TextField(default="")
    destination = CharField(max_length=64, index=True)
    events = JSONField(default=list)
    quiet_from = IntegerField(null=True)
    quiet_until = IntegerField(null=True)
    created_at = DateTimeField(default=utcnow)


class Outbox(BaseModel):
    game = ForeignKeyField(Game, null=True, on_delete="SET NULL")
    kind = CharField()
    to_addr = CharField()
    subject = CharField()
    body_text = TextField()
    body_html = TextField()
    # Fixed when the row is written: every retry carries the same Message-ID.
    message_id = CharField(unique=True)
    in_reply_to = CharField(default="")
    references = CharField(default="")
    # queued, deferred (tried, will try again), sent, bounced, failed
    # (mail/smtp_sender.py); dropped: a notice whose turn passed before it
    # could go (notify/notice_sender.py).
    status = CharField(default="queued")
    attempts = IntegerField(default=0)
    next_attempt_at = DateTimeField(default=utcnow)
    # A sender holds a row while it sends it: a lease of seconds, renewed per mail.
    claimed_until = DateTimeField(null=True)
    claimed_by = CharField(default="")
    last_error = TextField(default="")
    # The SMTP server's answer to the accepted mail, and a bounce's diagnostic.
    smtp_reply = TextField(default="")
    bounced_at = DateTimeField(null=True)
    # The server refused the mail for good (5xx): only a moderator retries it.
    permanent = BooleanField(default=False)
    created_at = DateTimeField(default=utcnow)
    sent_at = DateTimeField(null=True)
    # Extra header lines, e.g. List-Unsubscribe; fixed when queued.
    headers = JSONField(default=dict)
    # The seat's turn this mail tells its player about (the seat's
    # turn_started_at), for turn mails and reminders: a reminder counts as a
    # warning once it is sent, and while a mail that ``holds_clock`` (a turn
    # mail, a last call) waits to go out, the seat's clock stands still
    # (services/clock/sweep.py, services/outbox.py).
    turn_of = DateTimeField(null=True)
    holds_clock = BooleanField(default=False)
    # Who the mail goes out on behalf of (the host of an invitation, the
    # author of table talk): what mail/limits.py counts per user.
    author = ForeignKeyField(User, null=True, on_delete="SET NULL")
    # A notice to a chat or push channel instead of a mail (server/notify):
    # ``to_addr`` is then "channel:<id>", the subject its title and
    # body_text its text; ``recipient`` the player it tells of their turn
    # (services/clock/reach.py counts it as reaching them).
    channel = ForeignKeyField(NotifyChannel, null=True, on_delete="CASCADE")
    recipient = ForeignKeyField(User, null=True, on_delete="SET NULL")
    # When services/retention.py blanked the bodies of this sent mail (the
    # header row, its status and delivery history stay).
    body_purged_at = DateTimeField(null=True)

    class Meta:
        indexes = (
            (("status", "next_attempt_at"), False),
            # mail/limits.py: what one address got lately
            (("to_addr", "created_at"), False),
        )


# What services/retention.py still has to purge (migration 0029): partial
# indexes, so a purged row leaves them and they stay small.
Outbox.add_index(
    Outbox.index(
        Outbox.sent_at,
        name="outbox_body_kept",
        where=Outbox.body_purged_at.is_null() & Outbox.sent_at.is_null(False),
    )
)
Outbox.add_index(
    Outbox.index(Outbox.created_at, name="outbox_notice_age", where=Outbox.channel.is_null(False))
)


class Heartbeat(BaseModel):
    """The last time a kind of process ("scheduler") did its round; a gap
    longer than OUTAGE_GRACE_SECONDS is an outage (services/clock/outage_guard.py)."""

    name = CharField(unique=True)
    beat_at = DateTimeField()


class Vacation(BaseModel):
    """Days a player is away: the clocks of all their games stop."""

    user = ForeignKeyField(User, backref="vacations", on_delete="CASCADE")
    starts_at = DateTimeField(index=True)
    ends_at = DateTimeField()
    # Set by the scheduler when it has moved the deadlines pending at the start.
    started = BooleanField(default=False)
    created_at = DateTimeField(default=utcnow)


class Proposal(BaseModel):
    """A moderation action that a host who plays asked for and that waits for
    every other player's yes (services/proposals.py).  It holds only while the
    game stays where it was proposed: ``seq`` is the game's seq then."""

    game = ForeignKeyField(Game, backref="proposals", on_delete="CASCADE")
    action = CharField()
    params = JSONField(default=dict)
    reason = TextField()
    proposer = ForeignKeyField(User)
    seq = IntegerField()
    agreed = JSONField(default=list)  # user ids
    status = CharField(default="open")  # open, done, refused
    created_at = DateTimeField(default=utcnow)


class InboundMail(BaseModel):
    """Every mail that came in (replies with moves or lobby commands), kept
    raw with what became of it, for moderators.  ``message_id`` is unique: a
    mail delivered twice is acted on once."""

    message_id = CharField(unique=True)
    raw = TextField()  # type: ignore[assignment]  # shadows Model.raw(), as peewee allows
    from_addr = CharField(default="")
    to_addr = CharField(default="")
    subject = CharField(default="")
    via = CharField(default="")  # smtp, lmtp, imap, catcher
    game = ForeignKeyField(Game, null=True, on_delete="SET NULL")
    user = ForeignKeyField(User, null=True, on_delete="SET NULL")
    # received, applied, refused (answered: nothing changed), ignored (not answered)
    status = CharField(default="received")
    outcome = TextField(default="")  # in English
    # The same as Words' JSON (engine/words.py), for each moderator's language.
    outcome_words = JSONField(null=True)
    received_at = DateTimeField(default=utcnow, index=True)
    # When services/retention.py deleted the raw text (the outcome stays).
    raw_purged_at = DateTimeField(null=True)


InboundMail.add_index(
    InboundMail.index(
        InboundMail.received_at,
        name="inbound_mail_raw_kept",
        where=InboundMail.raw_purged_at.is_null(),
    )
)


class TableMessage(BaseModel):
    """Table talk: a short message from a player to the table.  A moderator
    may hide one (on the record); it is never deleted."""

    game = ForeignKeyField(Game, backref="messages", on_delete="CASCADE")
    user = ForeignKeyField(User)
    seat = IntegerField()
    text = TextField()
    created_at = DateTimeField(default=utcnow)
    hidden = BooleanField(default=False)
    hidden_reason = TextField(default="")

    class Meta:
        indexes = ((("game", "id"), False),)


class BrowserSession(BaseModel):
    """One browser's session, kept on the server (services/sessions.py): the
    session cookie names its ``key``, and a cookie whose row is gone (signed
    out, here or everywhere) signs nobody in and opens no seat.  ``user``:
    the signed-in account (None: a browser that only opened seat links)."""

    key = CharField(unique=True, max_length=64)
    user = ForeignKeyField(User, null=True, backref="browser_sessions", on_delete="CASCADE")
    # A session ends PERMANENT_SESSION_LIFETIME_DAYS after it began.
    created_at = DateTimeField(default=utcnow, index=True)


class RateCount(BaseModel):
    """A rate-limit counter that every web worker shares (web/rate_store.py):
    ``count`` hits of ``key`` in the window that ends at ``expires_at``
    (seconds since the epoch)."""

    key = CharField(unique=True, max_length=255)
    count = IntegerField(default=0)
    expires_at = FloatField(index=True)


class ReplyConfirmation(BaseModel):
    """A reply, lobby command or table-talk reply that came in without proof
    of its sender (services/reply_confirmations.py): held until its
    account's own address answers the single-use address it was sent.
    ``kind`` is the reply address kind (0 seat, 1 lobby, 2 talk); ``version``
    and ``seq`` are what the held mail's address named; ``used_at`` is set
    once, by whichever confirmation came first."""

    game = ForeignKeyField(Game, on_delete="CASCADE")
    user = ForeignKeyField(User, on_delete="CASCADE")
    kind = IntegerField()
    seat = IntegerField(default=-1)
    version = IntegerField()
    seq = IntegerField(default=-1)
    lines = JSONField(default=list)
    inbound = ForeignKeyField(InboundMail, null=True, on_delete="SET NULL")
    created_at = DateTimeField(default=utcnow)
    used_at = DateTimeField(null=True)

    class Meta:
        indexes = ((("user", "created_at"), False),)


class Tenure(BaseModel):
    """Who held a seat from one log row to another (services/tenures.py): the
    log, the record and the result name the person who made each move, not
    the seat's holder today.  A tenure covers the rows after ``from_seq`` up
    to ``to_seq`` (None: it goes on).  ``user`` is None for a bot's."""

    game = ForeignKeyField(Game, backref="tenures", on_delete="CASCADE")
    seat = IntegerField()
    user = ForeignKeyField(User, null=True)
    bot = CharField(null=True, max_length=20)
    from_seq = IntegerField()
    to_seq = IntegerField(null=True)
    began = CharField(default="joined", max_length=12)  # joined, replaced, took_over
    ended = CharField(default="", max_length=12)  # replaced, removed, resigned

    class Meta:
        indexes = ((("game", "seat", "from_seq"), False),)


class Takeback(BaseModel):
    """A player's request to take back their own move(s) (services/takebacks.py):
    every other player must agree; it holds while the game stays at ``seq``
    and until ``expires_at``.  The clock of the seat to move stands still
    meanwhile: its deadline is kept here and given back, shifted, at the end."""

    game = ForeignKeyField(Game, backref="takebacks", on_delete="CASCADE")
    requester = ForeignKeyField(User)
    seat = IntegerField()
    seqs = JSONField(default=list)  # the log rows of the moves to take back
    asked = JSONField(default=list)  # user ids whose yes it needs
    agreed = JSONField(default=list)
    seq = IntegerField()
    status = CharField(default="open")  # open, done, refused, lapsed
    held_seat = IntegerField(null=True)
    held_deadline = DateTimeField(null=True)
    held_reminder = DateTimeField(null=True)
    created_at = DateTimeField(default=utcnow)
    expires_at = DateTimeField(index=True)
    ended_at = DateTimeField(null=True)


class Rematch(BaseModel):
    """A finished game played again by the same players with the same
    options (services/rematches.py): every player asked must say yes before
    ``expires_at``; one no or silence ends it."""

    game = ForeignKeyField(Game, backref="rematches", on_delete="CASCADE")
    proposer = ForeignKeyField(User)
    asked = JSONField(default=list)  # user ids whose yes it needs
    agreed = JSONField(default=list)
    status = CharField(default="open")  # open, started, refused, lapsed
    new_game = ForeignKeyField(Game, null=True, backref="+", on_delete="SET NULL")
    created_at = DateTimeField(default=utcnow)
    expires_at = DateTimeField(index=True)
    ended_at = DateTimeField(null=True)


class PlayerRating(BaseModel):
    """A player's rating in one game kind (services/ratings.py): openskill's
    Plackett-Luce mean and uncertainty, and how many rated games made it."""

    user = ForeignKeyField(User, backref="ratings", on_delete="CASCADE")
    kind = CharField(max_length=40)
    mu = FloatField()
    sigma = FloatField()
    games = IntegerField(default=0)
    updated_at = DateTimeField(default=utcnow)

    class Meta:
        indexes = ((("user", "kind"), True), (("kind", "games"), False))


class RatingChange(BaseModel):
    """What one rated game did to one player's rating: one row per person
    rated, so a game is rated once (unique) and a rebuild can start over."""

    game = ForeignKeyField(Game, backref="rating_changes", on_delete="CASCADE")
    user = ForeignKeyField(User, on_delete="CASCADE")
    kind = CharField(max_length=40)
    rank = IntegerField()  # 1: first; equal ranks: a tie
    mu_before = FloatField()
    sigma_before = FloatField()
    mu_after = FloatField()
    sigma_after = FloatField()
    created_at = DateTimeField(default=utcnow)

    class Meta:
        indexes = ((("game", "user"), True), (("user", "kind"), False))


class ApiToken(BaseModel):
    """A personal access token for the API (services/api_tokens.py): only its
    sha256 is kept; ``scopes`` is a list of "read", "play", "lobby"."""

    user = ForeignKeyField(User, backref="api_tokens", on_delete="CASCADE")
    name = CharField(max_length=60)
    token_hash = CharField(unique=True, max_length=64)
    scopes = JSONField(default=list)
    created_at = DateTimeField(default=utcnow)
    expires_at = DateTimeField()
    last_used_at = DateTimeField(null=True)
    revoked_at = DateTimeField(null=True)


class AccountNote(BaseModel):
    """A moderator's action on an account, on the record (marking it a bot)."""

    user = ForeignKeyField(User, backref="notes", on_delete="CASCADE")
    moderator = ForeignKeyField(User, null=True, on_delete="SET NULL")
    action = CharField(max_length=20)  # bot, not_bot
    reason = TextField(default="")
    created_at = DateTimeField(default=utcnow)


class DataExport(BaseModel):
    """A player's data as a zip (services/data_export.py): asked for, built
    by the scheduler, fetched through a signed link for a day, then dropped."""

    user = ForeignKeyField(User, backref="exports", on_delete="CASCADE")
    status = CharField(default="queued", max_length=12)  # queued, ready
    requested_at = DateTimeField(default=utcnow, index=True)
    ready_at = DateTimeField(null=True)
    archive = BlobField(null=True)
    size = IntegerField(default=0)


class NeverInvite(BaseModel):
    """An address that asked never to be invited here again (one click in any
    invitation, web/never_invite.py); kept as a hash of the lower-case
    address, so the list names nobody."""

    address_hash = CharField(max_length=64, unique=True)
    created_at = DateTimeField(default=utcnow)


class SignUpAttempt(BaseModel):
    """A sign-up for an address whose account is not confirmed yet, made after
    the first (services/accounts.py): its name and password wait here, and
    apply only when the link mailed for this attempt is confirmed.  So
    whoever proves the address gets the password they chose, and nobody who
    merely typed the address changes the account."""

    user = ForeignKeyField(User, backref="sign_up_attempts", on_delete="CASCADE")
    name = PersonName()
    password_hash = CharField()
    language = CharField(default="", max_length=8)
    timezone = CharField(default="UTC")
    created_at = DateTimeField(default=utcnow)


MODELS = [
    User,
    Game,
    Seat,
    Invitation,
    Event,
    Snapshot,
    NotifyChannel,
    Outbox,
    Vacation,
    Proposal,
    InboundMail,
    TableMessage,
    Heartbeat,
    BrowserSession,
    RateCount,
    ReplyConfirmation,
    Tenure,
    Takeback,
    Rematch,
    PlayerRating,
    RatingChange,
    ApiToken,
    AccountNote,
    Club,
    ClubMember,
    ClubRequest,
    ClubRecord,
    DataExport,
    NeverInvite,
    League,
    LeagueMember,
    LeagueRound,
    LeagueTable,
    SignUpAttempt,
]
