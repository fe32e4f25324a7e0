"""Accounts: signing up with an address its owner confirms, checking a
password in the same time whether or not the address is known, resetting and
changing a password, a name or an address, and the per-user token the login
cookie carries (changing it signs the user out everywhere).

Nothing here tells a caller whether an address has an account: sign-up and
reset answer the same every time, and the mail to the address says the rest.
"""

from __future__ import annotations

import datetime as dt
import secrets

from peewee import IntegrityError
from werkzeug.security import check_password_hash, generate_password_hash

from engine.words import N_, Words, msg
from server.db import Prepared, db
from server.mail.compose import Mailer
from server.models import BrowserSession, SignUpAttempt, User, utcnow
from server.services import api_tokens, sessions

# What the forms accept as an email address: one @, a dot in the domain, and
# none of the characters that would split an address list or a header.
EMAIL = r"^[^@\s<>,;\"]+@[^@\s<>,;\"]+\.[^@\s<>,;\"]+$"
PASSWORD_MIN = 8
# Compared against when the address is unknown or the account has no password,
# so a wrong address costs as long as a wrong password.
_DUMMY_HASH = generate_password_hash("pbem: no such account")
NO_PASSWORD = "!"


class AccountError(ValueError):
    """A change that cannot be made; the message is for the user."""


def normal_email(text: str) -> str:
    return text.strip().lower()


def sign_up(
    email: str,
    name: str,
    password: str,
    mailer: Mailer,
    next_path: str = "/",
    language: str = "",
    timezone: str = "UTC",
) -> None:
    """Queue the mail that completes a sign-up; the caller learns nothing.
    ``language`` and ``timezone``: the browser's, the account's first guesses
    (Settings changes them).

    A new address gets an unconfirmed account and a confirmation link.  An
    unconfirmed account keeps the name and password it was made with (anyone
    may type an address; changing them would let a stranger take over the
    account the owner is about to confirm): its link is mailed again, within
    the mail limits.  A confirmed one is left alone and its owner is told."""
    email, password_hash = normal_email(email), generate_password_hash(password)
    name = " ".join(name.split()) or email.split("@")[0]
    if is_pseudonym(name):  # "Former player 7" is a deleted account's (services/erasure.py)
        name = email.split("@")[0]
    with db.atomic():
        user = User.get_or_none(User.email == email)
        if user is None:
            try:
                with db.atomic():
                    user = User.create(
                        email=email,
                        name=name,
                        password_hash=password_hash,
                        language=language,
                        timezone=timezone,
                    )
            except IntegrityError:  # signed up at the same moment
                return
        elif user.verified:
            mailer.account_exists(user)
            return
        else:  # the same answer; the account waits for whoever confirms
            expired = utcnow() - dt.timedelta(seconds=mailer.links.confirm_max_age)
            SignUpAttempt.delete().where(
                (SignUpAttempt.user == user.id) & (SignUpAttempt.created_at < expired)
            ).execute()  # their links no longer work
            attempt = SignUpAttempt.create(
                user=user,
                name=name,
                password_hash=password_hash,
                language=language,
                timezone=timezone,
            )
            mailer.confirm(user, next_path, attempt)
            return
        mailer.confirm(user, next_path)


def is_pseudonym(name: str) -> bool:
    return isinstance(User.name.python_value(name), Words)


def authenticate(email: str, password: str) -> User | None:
    """The account for these credentials, or None, in the same time either way."""
    user = User.get_or_none(User.email == normal_email(email))
    usable = user is not None and user.password_hash != NO_PASSWORD
    matches = check_password_hash(user.password_hash if usable else _DUMMY_HASH, password)
    return user if usable and matches else None


def confirm(user: User, attempt_id: int | None = None) -> None:
    """The owner opened the link mailed to the address and said yes.  A link
    mailed for a later sign-up (``attempt_id``) gives the account that
    sign-up's name and password; the other attempts are void."""
    with db.atomic():
        attempt = SignUpAttempt.get_or_none(
            (SignUpAttempt.id == attempt_id) & (SignUpAttempt.user == user.id)
        )
        if attempt is not None and not user.verified:
            user.name, user.password_hash = attempt.name, attempt.password_hash
            user.language, user.timezone = attempt.language, attempt.timezone
            user.save(only=[User.name, User.password_hash, User.language, User.timezone])
        User.update(email_verified_at=utcnow()).where(
            (User.id == user.id) & User.email_verified_at.is_null()
        ).execute()
        SignUpAttempt.delete().where(SignUpAttempt.user == user.id).execute()
    user.email_verified_at = user.email_verified_at or utcnow()


def request_reset(email: str, mailer: Mailer, language: str | None = None) -> None:
    """Mail a reset link to the account, or say to the address that it has
    none (in ``language``, the page's that asked: the address has no setting)."""
    user = User.get_or_none(User.email == normal_email(email))
    if user is None:
        mailer.reset_unknown(normal_email(email), language)
    else:
        mailer.reset(user)


def set_password(user: User, password: str) -> None:
    """A new password (from a reset link or Settings).  Every other session
    and every link mailed before ends; a reset link proves the address too."""
    _check_password(password)
    user.password_hash = generate_password_hash(password)
    user.session_token = secrets.token_hex(16)
    user.email_verified_at = user.email_verified_at or utcnow()
    with db.atomic():
        user.save(only=[User.password_hash, User.session_token, User.email_verified_at])
        signed_out_everywhere(user.id)


def has_password(user: User) -> bool:
    return user.password_hash != NO_PASSWORD


def set_first_password(user: User, new: str) -> None:
    """An account made without a password gets one (no current one to ask)."""
    if has_password(user):
        raise AccountError(N_("Your account has a password; give the current one to change it."))
    set_password(user, new)


def change_password(user: User, current: str, new: str) -> None:
    if authenticate(user.email, current) is None:
        raise AccountError(N_("Your current password is not right."))
    set_password(user, new)


def change_name(user: User, name: str) -> None:
    name = " ".join(name.split())
    if not 1 <= len(name) <= 40:
        raise AccountError(N_("A name has 1 to 40 characters."))
    if is_pseudonym(name):
        raise AccountError(N_("That name is kept for deleted accounts."))
    User.update(name=name).where(User.id == user.id).execute()


def request_address_change(
    user: User, current_password: str, new_email: str, mailer: Mailer
) -> None:
    """Mail a link to the new address and tell the old one.  Whether the new
    address has an account shows only when its link is used."""
    if authenticate(user.email, current_password) is None:
        raise AccountError(N_("Your current password is not right."))
    new_email = normal_email(new_email)
    if new_email == user.email:
        raise AccountError(N_("That is the address you have now."))
    mailer.address_change(user, new_email)


def change_address(user: User, new_email: str) -> None:
    """The new address's owner opened its link and said yes."""
    try:
        with db.atomic():
            User.update(
                email=new_email, email_verified_at=utcnow(), session_token=secrets.token_hex(16)
            ).where(User.id == user.id).execute()
            signed_out_everywhere(user.id)
    except IntegrityError:
        raise AccountError(N_("Another account uses that address now.")) from None


# Read on every request of a signed-in browser (flask-login's user loader):
# built once, not on each request (server/db.py Prepared).
SIGNED_IN = Prepared(
    lambda user_id, key: (
        User.select()
        .join(BrowserSession)
        .where((User.id == user_id) & (BrowserSession.key == key))
        .limit(1)
    ),
    kinds=(int, str),
)


def user_for_session(session_id: str, key) -> User | None:
    """The user a login cookie names (``User.get_id``), if its token still
    holds and its browser session ``key`` (services/sessions.py) is still
    theirs: one query."""
    ident, _, token = session_id.partition(":")
    if not ident.isascii() or not ident.isdigit() or len(ident) > 18 or not sessions.is_key(key):
        return None
    user = SIGNED_IN.first(int(ident), key)
    if user is None or not secrets.compare_digest(user.session_token, token):
        return None
    return user


def end_all_sessions(user: User) -> None:
    """A new token and no sessions left: every cookie, every seat link a
    browser holds for the account, and every account link mailed on the old
    token (confirm, reset, address change) stops working."""
    with db.atomic():
        User.update(session_token=secrets.token_hex(16)).where(User.id == user.id).execute()
        signed_out_everywhere(user.id)


def signed_out_everywhere(user_id: int) -> None:
    """No way in left but the password: every browser session and every API
    token of the account ends (call inside the transaction that changes the
    account's session token)."""
    sessions.end_all(user_id)
    api_tokens.revoke_all(user_id)


def _check_password(password: str) -> None:
    if not PASSWORD_MIN <= len(password) <= 200:
        raise AccountError(
            msg("A password has %(least)s to %(most)s characters.", least=PASSWORD_MIN, most=200)
        )
