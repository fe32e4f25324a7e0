"""Clubs: founding one, joining (by invitation link, by a request an admin
accepts, or directly when the club is public), admins and members, leaving
and removal, each on the club's record.

Rules kept here, in one place:
- a club's name is unique with case and spacing folded (``name_key``);
- the founder is its first admin; a club always keeps an admin: its last
  admin can neither leave nor be removed (another member is made admin first);
- an invitation link is signed, names the club and its ``invite_version``,
  and only joins (a GET shows the club; the join is a POST); an admin
  revokes every link by bumping the version;
- a public club is joined directly; an invite-only club by link or by a
  request that an admin accepts or declines.
"""

from __future__ import annotations

import re
import unicodedata

from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer
from peewee import IntegrityError

from engine.words import N_, msg
from server.db import db, locked
from server.i18n import LANGUAGES
from server.models import Club, ClubMember, ClubRecord, ClubRequest, User, utcnow
from server.services.moves import MoveRejected, NotFound

NAME_MIN, NAME_MAX = 2, 60
DESCRIPTION_MAX = 1000
SLUG_MAX = 50
INVITE_SALT = "pbem-club-invite"


class ClubError(MoveRejected):
    status = 400


class LinkProblem(Exception):
    """An invitation link that cannot be used: ``reason`` is expired,
    invalid or revoked (the words of mail/links.LinkError's page)."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def name_key(name: str) -> str:
    """The name as compared: spacing collapsed, case folded."""
    return " ".join(name.split()).casefold()


def slug_for(name: str) -> str:
    """Letters and digits of the name in ASCII, joined by hyphens ("club"
    when nothing is left, e.g. a name in another script)."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")[:SLUG_MAX].strip("-")
    return slug or "club"


def free_slug(name: str) -> str:
    base = slug_for(name)
    slug, n = base, 1
    while Club.select().where(Club.slug == slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


def checked_fields(name: str, description: str, languages: list[str]) -> tuple[str, str, list]:
    name = " ".join((name or "").split())
    if len(name) < NAME_MIN:
        raise ClubError(msg("A club's name needs at least %(least)s characters.", least=NAME_MIN))
    if len(name) > NAME_MAX:
        raise ClubError(msg("A club's name has at most %(most)s characters.", most=NAME_MAX))
    description = (description or "").strip()
    if len(description) > DESCRIPTION_MAX:
        raise ClubError(
            msg("The description has at most %(most)s characters.", most=DESCRIPTION_MAX)
        )
    if any(code not in LANGUAGES for code in languages):
        raise ClubError(N_("Choose the club's languages from the list."))
    return name, description, list(dict.fromkeys(languages))


def found(user: User, name: str, description: str, languages: list[str], invite_only: bool) -> Club:
    """A new club with ``user`` as its admin, on the record."""
    name, description, languages = checked_fields(name, description, languages)
    taken = N_("A club of that name exists already; choose another name.")
    if Club.select().where(Club.name_key == name_key(name)).exists():
        raise ClubError(taken)
    try:
        with db.atomic():
            club = Club.create(
                name=name,
                name_key=name_key(name),
                slug=free_slug(name),
                description=description,
                languages=languages,
                invite_only=invite_only,
                founder=user,
            )
            ClubMember.create(club=club, user=user, role="admin")
            ClubRecord.create(club=club, user=user, action="founded")
    except IntegrityError:  # somebody founded the same name a moment before
        raise ClubError(taken) from None
    return club


def by_slug(slug: str) -> Club:
    club = Club.get_or_none(Club.slug == slug[:64])
    if club is None:
        raise NotFound(N_("There is no such club."))
    return club


def membership(club: Club, user) -> ClubMember | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return ClubMember.get_or_none((ClubMember.club == club.id) & (ClubMember.user == user.id))


def is_admin(club: Club, user) -> bool:
    found_row = membership(club, user)
    return found_row is not None and found_row.role == "admin"


def may_see_all(club: Club, user) -> bool:
    """Everyone sees a public club's page; an invite-only club shows
    outsiders its name and description only."""
    return not club.invite_only or membership(club, user) is not None


def member_ids(club: Club) -> list[int]:
    return [m.user_id for m in ClubMember.select(ClubMember.user).where(ClubMember.club == club.id)]


def clubs_of(user) -> list[Club]:
    if not getattr(user, "is_authenticated", False):
        return []
    return list(
        Club.select()
        .join(ClubMember, on=(ClubMember.club == Club.id))
        .where(ClubMember.user == user.id)
        .order_by(Club.name_key)
    )


def public_clubs(limit: int = 200) -> list[tuple[Club, int]]:
    """Public clubs with their member counts, the largest first."""
    counts: dict[int, int] = {}
    for row in ClubMember.select(ClubMember.club):
        counts[row.club_id] = counts.get(row.club_id, 0) + 1
    clubs = list(Club.select().where(Club.invite_only == False))  # noqa: E712 (SQL)
    clubs.sort(key=lambda c: (-counts.get(c.id, 0), c.name_key))
    return [(c, counts.get(c.id, 0)) for c in clubs[:limit]]


def _admin(club: Club, user: User) -> None:
    if not is_admin(club, user):
        raise ClubError(N_("Only an admin of this club may do that."))


def _add(club: Club, user: User, how: str, actor: User | None = None) -> None:
    """``user`` becomes a member (refused when they are one already)."""
    if membership(club, user) is not None:
        raise ClubError(N_("You are a member of this club already."))
    try:
        with db.atomic():
            ClubMember.create(club=club, user=user)
            ClubRecord.create(club=club, user=user, actor=actor, action="joined", how=how)
            (
                ClubRequest.update(status="accepted", decided_by=actor, decided_at=utcnow())
                .where(
                    (ClubRequest.club == club.id)
                    & (ClubRequest.user == user.id)
                    & (ClubRequest.status == "open")
                )
                .execute()
            )
    except IntegrityError:  # the same join sent twice at once
        raise ClubError(N_("You are a member of this club already.")) from None


def join_public(club: Club, user: User) -> None:
    if club.invite_only:
        raise ClubError(
            N_("This club is invite-only: ask to join, or use an invitation link from an admin.")
        )
    _add(club, user, "direct")


# -- invitation links ----------------------------------------------------------
def invitation_token(club: Club, secret: str) -> str:
    return URLSafeTimedSerializer(secret, salt=INVITE_SALT).dumps([club.id, club.invite_version])


def club_of_token(token: str, secret: str, max_age: int) -> Club:
    """The club an invitation link names (LinkProblem when it cannot be used)."""
    serializer = URLSafeTimedSerializer(secret, salt=INVITE_SALT)
    try:
        club_id, version = serializer.loads(token[:200], max_age=max_age)
    except SignatureExpired:
        raise LinkProblem("expired") from None
    except (BadSignature, ValueError, TypeError):
        raise LinkProblem("invalid") from None
    club = Club.get_or_none(Club.id == club_id) if isinstance(club_id, int) else None
    if club is None:
        raise LinkProblem("invalid")
    if club.invite_version != version:
        raise LinkProblem("revoked")
    return club


def join_by_link(token: str, user: User, secret: str, max_age: int) -> Club:
    club = club_of_token(token, secret, max_age)
    _add(club, user, "link")
    return club


def revoke_links(club: Club, admin: User) -> None:
    _admin(club, admin)
    Club.update(invite_version=Club.invite_version + 1).where(Club.id == club.id).execute()


# -- requests ------------------------------------------------------------------
def open_request(club: Club, user) -> ClubRequest | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return ClubRequest.get_or_none(
        (ClubRequest.club == club.id)
        & (ClubRequest.user == user.id)
        & (ClubRequest.status == "open")
    )


def ask_to_join(club: Club, user: User) -> None:
    if not club.invite_only:
        raise ClubError(N_("This club is public: join it directly."))
    if membership(club, user) is not None:
        raise ClubError(N_("You are a member of this club already."))
    if open_request(club, user) is not None:
        raise ClubError(N_("You have asked already; an admin of the club will answer."))
    ClubRequest.create(club=club, user=user)


def answer_request(club: Club, admin: User, request_id: int, accept: bool) -> User:
    _admin(club, admin)
    if not 0 < request_id <= ID_MAX:
        raise ClubError(N_("That request has been answered already."))
    with db.atomic():
        asked = locked(
            ClubRequest.select().where(
                (ClubRequest.id == request_id)
                & (ClubRequest.club == club.id)
                & (ClubRequest.status == "open")
            )
        ).first()
        if asked is None:
            raise ClubError(N_("That request has been answered already."))
        person = User.get_by_id(asked.user_id)
        if accept:
            _add(club, person, "request", actor=admin)
        else:
            asked.status, asked.decided_by, asked.decided_at = "declined", admin, utcnow()
            asked.save()
            ClubRecord.create(club=club, user=person, actor=admin, action="declined")
    return person


# -- roles, leaving, removal -----------------------------------------------------
ID_MAX = 2**63 - 1  # a bigger id from a URL would overflow the database's integer


def _member(club: Club, user_id: int) -> ClubMember:
    row = (
        None
        if not 0 < user_id <= ID_MAX
        else ClubMember.get_or_none((ClubMember.club == club.id) & (ClubMember.user == user_id))
    )
    if row is None:
        raise ClubError(N_("That player is not a member of this club."))
    return row


def _admins(club: Club) -> int:
    return (
        ClubMember.select()
        .where((ClubMember.club == club.id) & (ClubMember.role == "admin"))
        .count()
    )


def make_admin(club: Club, admin: User, user_id: int) -> User:
    _admin(club, admin)
    row = _member(club, user_id)
    if row.role == "admin":
        raise ClubError(N_("That member is an admin already."))
    with db.atomic():
        ClubMember.update(role="admin").where(ClubMember.id == row.id).execute()
        ClubRecord.create(club=club, user=row.user_id, actor=admin, action="admin")
    return User.get_by_id(user_id)


def _drop(club: Club, row: ClubMember, actor: User | None, action: str) -> None:
    """Take ``row`` out of the club, refused when it would leave no admin."""
    with db.atomic():
        list(locked(ClubMember.select().where(ClubMember.club == club.id)))
        if row.role == "admin" and _admins(club) <= 1:
            raise ClubError(
                N_("A club needs an admin: make another member admin first.")
                if action == "left"
                else N_("That member is the club's last admin.")
            )
        ClubMember.delete().where(ClubMember.id == row.id).execute()
        ClubRecord.create(club=club, user=row.user_id, actor=actor, action=action)


def remove(club: Club, admin: User, user_id: int) -> User:
    _admin(club, admin)
    if user_id == admin.id:
        raise ClubError(N_("To go, leave the club yourself."))
    _drop(club, _member(club, user_id), admin, "removed")
    return User.get_by_id(user_id)


def leave(club: Club, user: User) -> None:
    row = membership(club, user)
    if row is None:
        raise ClubError(N_("You are not a member of this club."))
    _drop(club, row, None, "left")


# -- games made for a club -------------------------------------------------------
def club_for_new_game(user: User, club_id: str | int | None) -> Club | None:
    """The club a new game is made for (None: no club); only its members may."""
    if club_id in (None, "", 0):
        return None
    text = str(club_id)
    wrong = not (text.isascii() and text.isdigit()) or len(text) > 18
    club = None if wrong else Club.get_or_none(Club.id == int(text))
    if club is None or membership(club, user) is None:
        raise ClubError(N_("You can make games only for clubs you are a member of."))
    return club
