"""Replies held until their account confirms them.

A reply to a seat's, the lobby's or table talk's address whose sender could
not be proven (mail/authentication.py) is not acted on.  When its From:
names the account that could have sent it (the seat's player; for the lobby
any confirmed account), that account's own confirmed address is mailed
"We got this by mail: ... Reply to this mail to confirm it", with a fresh
single-use address (reply_address.CONFIRM).  That address went only to the
owner's mailbox, so a reply to it proves the owner saw and wanted it, even
when the reply itself is not authenticated.  It works once, within
REPLY_CONFIRM_MAX_AGE_HOURS, and a seat's move only while the game is still
at the position the held mail answered (move_replies.seat_reply checks that).

Nothing goes to the From: of a held mail (only to the account's own
address, which the request names as the sender it came with), and the
subject is ours alone: a forger can make an account's owner get at most
REPLY_CONFIRM_PER_HOUR requests an hour, and nothing else.
"""

from __future__ import annotations

import datetime as dt

from server.mail.compose import Mailer, clean_header
from server.mail.inbound import ParsedMail
from server.mail.reply_address import LOBBY, QUESTION, SEAT, TALK, ReplyTarget
from server.models import Game, InboundMail, ReplyConfirmation, Seat, User, utcnow
from server.services import acting, questions, reply_menu
from server.services.state_store import rules

SHOWN_LINES = 20
SHOWN_CHARS = 2000
# The first line of a confirming reply, in the four languages (and "confirm"
# words): any other first line, e.g. an out-of-office text, confirms nothing.
YES_WORDS = frozenset(
    {
        "yes",
        "y",
        "ok",
        "confirm",
        "confirmed",
        "ja",
        "j",
        "bevestig",
        "bevestigd",
        "bestätigen",
        "bestätigt",
        "bestaetigen",
        "oui",
        "o",
        "confirmer",
        "confirme",
        "confirmé",
    }
)
# What the mail calls the held thing, per reply address kind.
WHAT = {SEAT: "move", LOBBY: "lobby", TALK: "talk", QUESTION: "answer"}


def owner(target: ReplyTarget, game: Game, user: User | None) -> User | None:
    """The account a held mail may be confirmed by: for a question the
    account asked; for a seat's or table talk's address the seat's player
    (whatever the From: says: a forger can
    write the player's address there anyway, and a player who answered from
    another address of theirs can still confirm); for the lobby the From:'s
    confirmed account.  None when the mail could do nothing even if it were
    authentic (then nobody is asked)."""
    if target.kind == LOBBY:
        ok = game.join_version == target.version and game.status == "open"
        return user if ok and user is not None and user.verified else None
    if target.kind == QUESTION:
        asked = User.get_or_none(User.id == target.version)
        if asked is None or not asked.verified:
            return None
        return asked if questions.still_asked(target.seat, game, target.seq, asked.id) else None
    seat = Seat.get_or_none((Seat.game == game.id) & (Seat.index == target.seat))
    if seat is None or seat.user_id is None or seat.link_version != target.version:
        return None
    if seat.withdrawn:  # resigned or removed: talks no more, moves no more
        return None
    # A move as its player would make it now (services/acting.py); a pause
    # may end before the account confirms, so it is asked all the same.
    answer = acting.may_act(seat, seat.user_id, game)
    if target.kind == SEAT and (
        answer not in (acting.Answer.OK, acting.Answer.PAUSED)
        or game.to_move != seat.index
        or game.seq != target.seq
    ):
        return None
    if target.kind == TALK and game.status == "open":
        return None
    player = User.get_by_id(seat.user_id)
    return player if player.verified else None


def says_yes(commands: list[str]) -> bool:
    """Whether a reply's first line is a yes ("Yes!", "ja", "oui." …)."""
    first = commands[0].strip().strip(".!,;:").casefold() if commands else ""
    return first in YES_WORDS


def hold(
    target: ReplyTarget,
    game: Game,
    user: User,
    lines: list[str],
    row: InboundMail,
    mailer: Mailer,
    sender: str,
    now: dt.datetime | None = None,
) -> ReplyConfirmation | None:
    """Keep the mail's lines and ask ``user`` to confirm them; None when the
    account was asked too often this hour already (nothing is sent)."""
    now = now or utcnow()
    recent = (
        ReplyConfirmation.select()
        .where(
            (ReplyConfirmation.user == user.id)
            & (ReplyConfirmation.created_at > now - dt.timedelta(hours=1))
        )
        .count()
    )
    if recent >= int(mailer.settings.get("REPLY_CONFIRM_PER_HOUR", 5)):
        return None
    held = ReplyConfirmation.create(
        game=game.id,
        user=user.id,
        kind=target.kind,
        seat=target.seat,
        version=target.version,
        seq=target.seq,
        lines=lines,
        inbound=row.id,
        created_at=now,
    )
    address = reply_menu.addresses(mailer.settings).for_confirmation(game.id, held.id)
    shown = "\n".join(lines[:SHOWN_LINES])[:SHOWN_CHARS]
    mailer.queue(
        "reply_confirm",
        user.email,
        "[pbem] " + mailer.words(user, "Please confirm your mail"),
        {
            "name": user.name,
            "title": rules(game).title,
            "what": WHAT[target.kind],
            "lines": shown.split("\n"),
            "seat": target.seat + 1,
            "sender": clean_header(sender, 120),
            "hours": int(mailer.settings.get("REPLY_CONFIRM_MAX_AGE_HOURS", 72)),
        },
        game,
        user,
        reply_to=address,
    )
    return held


def claim(
    target: ReplyTarget, game: Game, settings, now: dt.datetime | None = None
) -> ReplyConfirmation | None:
    """The held mail a confirmation address names, marked used; None when it
    is unknown, of another game, used before or expired.  The conditional
    UPDATE lets exactly one of two confirmations arriving together through."""
    now = now or utcnow()
    held = ReplyConfirmation.get_or_none(ReplyConfirmation.id == target.confirmation)
    if held is None or held.game_id != game.id:
        return None
    oldest = now - dt.timedelta(hours=int(settings.get("REPLY_CONFIRM_MAX_AGE_HOURS", 72)))
    claimed = (
        ReplyConfirmation.update(used_at=now)
        .where(
            (ReplyConfirmation.id == held.id)
            & ReplyConfirmation.used_at.is_null()
            & (ReplyConfirmation.created_at >= oldest)
        )
        .execute()
    )
    return held if claimed == 1 else None


def held_mail(held: ReplyConfirmation, user: User) -> tuple[ParsedMail, ReplyTarget]:
    """The held mail as the reply handlers read it, and the address it was to."""
    lines = list(held.lines)
    mail = ParsedMail(
        message_id="",
        sender=user.email,
        recipients=[],
        subject="",
        in_reply_to="",
        text="\n".join(lines),
        commands=lines,
    )
    target = ReplyTarget(held.kind, held.game_id, held.version, seat=held.seat, seq=held.seq)
    return mail, target
