"""Lobby services: create a game, invite, join a seat, set options, start.

Like the online server's commands: ``/join 2`` takes seat 2, ``/option base``
sets an option, ``/start`` begins once enough seats are filled.
"""

from __future__ import annotations

import secrets
from typing import NamedTuple

from engine import IllegalMove, bots, get_game
from engine.words import N_, msg, nmsg, term
from server.db import db, locked
from server.i18n import known
from server.mail import limits
from server.mail.compose import Mailer
from server.models import Club, Game, Invitation, Seat, User, utcnow
from server.services import held_invitations, reply_menu, tenures
from server.services.clock import running_hours
from server.services.move_news import next_turn
from server.services.moves import MoveRejected, NotFound
from server.services.state_store import save_snapshot
from server.services.what_a_seat_sees import seat_names

# What becomes of a departed player's seat (Game.departed_seat).
DEPARTED_SEAT = ("bot", "passes")


class LobbyError(MoveRejected):
    status = 400


class TooManyInvitations(LobbyError):
    """Over a limit on invitation mails (mail/limits.py): nothing was sent."""

    status = 429


def get_open_game(game_id: int) -> Game:
    """The lobby's game row, locked until the transaction ends: a join, a
    seat switch or a leave waits for the host's start, and then finds the
    game started, instead of taking a seat the start no longer counts."""
    game = locked(Game.select().where(Game.id == game_id)).first()
    if game is None:
        raise NotFound(N_("There is no such game."))
    if game.status == "closed":
        raise LobbyError(N_("This game was closed before it started."))
    if game.status != "open":
        raise LobbyError(N_("This game has already started."))
    return game


def create_game(
    host: User,
    kind_name: str,
    name: str,
    seat_count: int,
    options: dict,
    move_hours: int,
    reminder_hours: list[float],
    mailer: Mailer,
    clock: str = "always",
    night: tuple[int, int] = (23, 7),
    *,
    public: bool = False,
    language: str | None = None,
    private: bool = False,
    club: Club | None = None,
    departed_seat: str = "bot",
) -> Game:
    """``clock``: when the clock stands still (running_hours.POLICIES), with
    ``night`` = (from hour, until hour) for the policies that stop at night.
    ``public``: listed among the open games; ``language``: the table's (the
    host's when not given); ``private``: kept out of the archive and from
    outsiders (services/profiles.py); ``club``: made for that club
    (services/clubs.club_for_new_game checked the host is a member);
    ``departed_seat``: "bot" or "passes", what becomes of the seat of a
    player who deletes their account (services/erasure.py)."""
    game_rules = get_game(kind_name)
    if not game_rules.min_players <= seat_count <= game_rules.max_players:
        raise LobbyError(
            msg(
                "%(game)s takes %(least)s to %(most)s players.",
                game=game_rules.title,
                least=game_rules.min_players,
                most=game_rules.max_players,
            )
        )
    options = _checked_options(game_rules, options)
    try:
        running_hours.policy(clock, *night)
    except ValueError as exc:
        raise LobbyError(exc.args[0]) from None
    with db.atomic():
        game = Game.create(
            kind=kind_name,
            name=name,
            host=host,
            seat_count=seat_count,
            options=options,
            seed=secrets.randbits(48),
            move_hours=move_hours,
            reminder_hours=sorted(set(reminder_hours), reverse=True),
            thread_id=mailer.thread_id(),
            clock_policy=clock,
            night_from=night[0],
            night_until=night[1],
            public=public,
            language=known(language) or known(host.language) or "",
            private=private,
            club=club,
            departed_seat=departed_seat if departed_seat in DEPARTED_SEAT else "bot",
        )
        for index in range(seat_count):
            Seat.create(
                game=game,
                index=index,
                user=host if index == 0 else None,
                joined_at=utcnow() if index == 0 else None,
            )
    return game


def seat_bot(game_id: int, user: User, index: int, bot: str) -> Seat:
    """The host seats ``bot`` in the empty seat ``index`` (0-based) of an open
    game; in a practice game every seat but the host's is a bot's."""
    if bot not in bots.BOTS:
        raise LobbyError(msg("There is no bot '%(bot)s'.", bot=bot))
    with db.atomic():
        game = get_open_game(game_id)
        _require_host(game, user)
        taken = (
            Seat.update(bot=bot)
            .where((Seat.game == game.id) & (Seat.index == index) & Seat.user.is_null())
            .execute()
        )
        if taken != 1:
            raise LobbyError(
                msg("Seat %(number)s is not an empty seat of this game.", number=index + 1)
            )
    return Seat.get((Seat.game == game.id) & (Seat.index == index))


def create_practice(
    host: User,
    kind_name: str,
    name: str,
    seat_count: int,
    options: dict,
    bot: str,
    move_hours: int,
    mailer: Mailer,
    private: bool = False,
) -> Game:
    """A game against bots, started at once: the host plays seat 1 alone, by
    page or mail, with no reminders to wait for (the bots answer within
    seconds; the host's own clock runs as usual)."""
    with db.atomic():
        game = create_game(
            host, kind_name, name, seat_count, options, move_hours, [], mailer, private=private
        )
        for index in range(1, seat_count):
            seat_bot(game.id, host, index, bot)
        return start(game.id, host, mailer)


def checked_options(game_rules, options: dict) -> dict:
    """``options`` completed with the defaults (LobbyError: one is not a
    choice of ``kind``): a league checks its options as a game would."""
    return _checked_options(game_rules, options)


def _checked_options(game_rules, options: dict) -> dict:
    chosen = {spec.name: spec.default for spec in game_rules.options}
    for name, value in options.items():
        spec = next((s for s in game_rules.options if s.name == name), None)
        if spec is None:
            if not game_rules.options:
                raise LobbyError(
                    msg(
                        "%(game)s has no option '%(name)s' (it has no options).",
                        game=game_rules.title,
                        name=name,
                    )
                )
            raise LobbyError(
                msg(
                    "%(game)s has no option '%(name)s' (its options: %(known)s).",
                    game=game_rules.title,
                    name=name,
                    known=", ".join(s.name for s in game_rules.options),
                )
            )
        if spec.canonical(value) is None:
            raise LobbyError(
                msg(
                    "%(option)s: '%(value)s' is not a choice; choose one of %(allowed)s.",
                    option=term(spec.label),
                    value=value,
                    allowed=spec.allowed(),
                )
            )
        chosen[name] = spec.canonical(value)
    return chosen


def set_option(game_id: int, user: User, name: str, value: str) -> Game:
    with db.atomic():
        game = get_open_game(game_id)
        _require_host(game, user)
        game.options = _checked_options(get_game(game.kind), dict(game.options, **{name: value}))
        game.save(only=[Game.options])
    return game


def invite(game_id: int, user: User, emails: list[str], mailer: Mailer) -> int:
    """The number of invitations mailed now (see ``invite_all``)."""
    return len(invite_all(game_id, user, emails, mailer).sent)


class Invited(NamedTuple):
    sent: list[str]  # mailed now
    refused: list[str]  # asked never to be invited here
    held: list[str]  # held back by the address's daily limit (held_invitations)


def invite_all(game_id: int, user: User, emails: list[str], mailer: Mailer) -> Invited:
    """Invite ``emails`` (lower case) to the game by mail: all of them, or
    none when the inviter's own daily limit would be passed.  An address
    that had its day's invitation already is held: its invitation goes in
    one mail with the others held for it when the limit allows
    (services/held_invitations.py).  An address that asked never to be
    invited here is left out, and the host is told no more than that (not
    why)."""
    emails = list(dict.fromkeys(emails))
    refused = [e for e in emails if limits.never_invite(e)]
    emails = [e for e in emails if e not in refused]
    with db.atomic():
        game = get_open_game(game_id)
        _require_host(game, user)
        held = check_invitation_limits(mailer.settings, user, emails)
        for email in emails:
            if email in held:
                until = held_invitations.hold_until(mailer.settings, email)
                Invitation.create(game=game, email=email, held_until=until)
                continue
            Invitation.create(game=game, email=email)
            mailer.invitation(
                game,
                get_game(game.kind).title,
                user,
                email,
                reply_menu.lobby_address(mailer.settings, game),
            )
    return Invited([e for e in emails if e not in held], refused, held)


def check_invitation_limits(settings, user: User, emails: list[str]) -> list[str]:
    """TooManyInvitations unless the inviter may send every one of these
    invitations; the addresses among them to hold back (their daily limit
    is full, or invitations are held for them already: one mail)."""
    limits.serialize(f"user:{user.id}")
    per_user = limits.Limit(settings["INVITES_PER_USER_PER_DAY"], limits.DAY, limits.INVITE)
    done = limits.sent_by(user.id, per_user) + held_invitations.held_by(user.id, per_user.window)
    left = max(per_user.count - done, 0)
    if len(emails) > left:
        raise TooManyInvitations(
            msg(
                "Nothing was sent: one player may send %(limit)s invitations in 24 hours, and "
                "you have %(left)s left. Share the game's join link instead.",
                limit=per_user.count,
                left=left,
            )
        )
    # In sorted order: each check locks its address (limits.serialize).
    # An address that agreed to hear from the host is not limited (limits.agreed).
    return [e for e in sorted(emails) if _to_hold(settings, user, e)]


def _to_hold(settings, user: User, address: str) -> bool:
    if not limits.allows(settings, "invite", address, stranger=True, author_id=user.id):
        return True
    # Room today, yet invitations wait for the address already: with them, in one mail.
    return held_invitations.waiting(address).exists() and not limits.agreed(user.id, address)


def may_sit(game: Game, user: User) -> bool:
    """Whether ``user`` may take a seat without a join link: the lobby is
    listed among the open games, or it is theirs, or they sit there already,
    or their own address was invited.  (A mail to the lobby's reply address
    proves no more than this: the address is shared by everyone it reached,
    forwarded invitations included.)"""
    if game.public or game.host_id == user.id:
        return True
    if Seat.select().where((Seat.game == game.id) & (Seat.user == user.id)).exists():
        return True
    return (
        Invitation.select()
        .where((Invitation.game == game.id) & (Invitation.email == user.email))
        .exists()
    )


def join(game_id: int, user: User, index: int) -> Seat:
    """Take seat ``index`` (0-based), leaving the seat the user had."""
    with db.atomic():
        game = get_open_game(game_id)
        seat = Seat.get_or_none((Seat.game == game.id) & (Seat.index == index))
        if seat is None:
            raise LobbyError(msg("This game has no seat %(number)s.", number=index + 1))
        if seat.user_id == user.id:
            return seat
        if seat.user_id is not None:
            raise LobbyError(msg("Seat %(number)s is taken.", number=index + 1))
        Seat.update(user=None, joined_at=None).where(
            (Seat.game == game.id) & (Seat.user == user.id)
        ).execute()
        taken = (
            Seat.update(user=user, joined_at=utcnow(), bot=None)  # a person beats a bot
            .where((Seat.id == seat.id) & Seat.user.is_null())
            .execute()
        )
        if taken != 1:
            raise LobbyError(msg("Seat %(number)s was just taken.", number=index + 1))
    return Seat.get_by_id(seat.id)


def leave(game_id: int, user: User) -> bool:
    """Give up the user's seat in a lobby.  Someone without a seat is refused
    (nothing changes): saying "you left" would tell them they had one."""
    with db.atomic():
        game = get_open_game(game_id)
        if game.host_id == user.id:
            raise LobbyError(N_("The host cannot leave; start the game or cancel it."))
        left = (
            Seat.update(user=None, joined_at=None)
            .where((Seat.game == game.id) & (Seat.user == user.id))
            .execute()
        )
        if not left:
            raise LobbyError(N_("You have no seat in this game."))
        return True


def start(game_id: int, user: User, mailer: Mailer) -> Game:
    """Begin with the filled seats, renumbered 0..n-1 in seat order."""
    with db.atomic():
        game = get_open_game(game_id)
        _require_host(game, user)
        game_rules = get_game(game.kind)
        seats = list(Seat.select().where(Seat.game == game.id).order_by(Seat.index))
        filled = [s for s in seats if s.user_id is not None or s.bot]
        if len(filled) < game_rules.min_players:
            raise LobbyError(
                nmsg(
                    "%(game)s needs at least %(least)s players; %(n)s seat is filled.",
                    "%(game)s needs at least %(least)s players; %(n)s seats are filled.",
                    len(filled),
                    game=game_rules.title,
                    least=game_rules.min_players,
                )
            )
        try:
            state = game_rules.new_game(len(filled), game.options, game.seed)
        except IllegalMove as exc:
            raise LobbyError(exc.args[0] if exc.args else str(exc)) from None
        _compact_seats(game, seats, filled)
        tenures.begin_game(game, list(Seat.select().where(Seat.game == game.id)))
        now = utcnow()
        claimed = (
            Game.update(
                status="active",
                seat_count=len(filled),
                started_at=now,
                to_move=game_rules.to_move(state),
                prompt=game_rules.prompt(state)[:250],
            )
            .where((Game.id == game.id) & (Game.status == "open"))
            .execute()
        )
        if claimed != 1:
            raise LobbyError(N_("This game has already started."))
        game = Game.get_by_id(game.id)
        save_snapshot(game, game_rules, state, 0)
        _announce_start(game, game_rules, mailer, now)
    return game


def _compact_seats(game: Game, seats: list[Seat], filled: list[Seat]) -> None:
    Seat.delete().where((Seat.game == game.id) & Seat.user.is_null() & Seat.bot.is_null()).execute()
    # Two passes so the unique (game, index) index never sees a duplicate.
    for seat in filled:
        Seat.update(index=-1 - seat.index).where(Seat.id == seat.id).execute()
    for new_index, seat in enumerate(filled):
        Seat.update(index=new_index).where(Seat.id == seat.id).execute()


def _announce_start(game: Game, game_rules, mailer: Mailer, now) -> None:
    seats = list(
        Seat.select(Seat, User).join(User).where(Seat.game == game.id).order_by(Seat.index)
    )  # bots' seats have no user to mail
    if game.to_move is None:
        raise ValueError(f"game {game.id} started with nobody to move")
    to_move_name = seat_names(game)[game.to_move]
    for seat in seats:
        if seat.index != game.to_move:
            mailer.started(game, game_rules.title, seat, to_move_name)
    next_turn(game, now, mailer)


def _require_host(game: Game, user: User) -> None:
    if game.host_id != user.id:
        raise LobbyError(N_("Only the host of this game may do that."))


def renew_links(game_id: int, user: User, mailer: Mailer) -> Seat:
    """Revoke every link sent for the user's seat and mail a fresh one."""
    with db.atomic():
        seat = Seat.get_or_none((Seat.game == game_id) & (Seat.user == user.id))
        if seat is None:
            raise NotFound(N_("You have no seat in this game."))
        Seat.update(link_version=Seat.link_version + 1).where(Seat.id == seat.id).execute()
        seat = Seat.get_by_id(seat.id)
        game = Game.get_by_id(game_id)
        mailer.new_link(game, get_game(game.kind).title, seat)
    return seat
