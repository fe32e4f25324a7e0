""" "Never invite me here": every invitation mail carries a signed
link to this page.  Its GET only asks; the POST stores the address (as a
hash, models.NeverInvite) and from then on no invitation mail goes to it,
whoever invites (services/games.invite_all, mail/compose.Mailer.queue)."""

from __future__ import annotations

from flask import Blueprint, abort, current_app, render_template
from peewee import IntegrityError

from engine.words import N_
from server.db import db
from server.mail import limits
from server.mail.links import LinkError, Links
from server.models import NeverInvite
from server.web.forms import EmptyForm
from server.web.protection import csrf

bp = Blueprint("never_invite", __name__)


def _address(token: str) -> str:
    try:
        return Links.from_settings(current_app.config).read_never_invite(token)
    except LinkError:
        abort(404, N_("This link is not valid"))


@bp.get("/mail/never-invite/<token>")
def ask(token: str):
    address = _address(token)
    return render_template(
        "mail_choices/never_invite.html", address=address, done=False, form=EmptyForm()
    )


@bp.post("/mail/never-invite/<token>")
@csrf.exempt
def stop(token: str):
    """One click: a mail provider may POST here (RFC 8058) without a session
    or a CSRF token, so the signed token is the authority; all it can do is
    stop invitations to the address it names."""
    address = _address(token)
    with db.atomic():
        if not limits.never_invite(address):
            try:
                with db.atomic():
                    NeverInvite.create(address_hash=limits.address_hash(address))
            except IntegrityError:
                pass  # two clicks at once: one row
    return render_template("mail_choices/never_invite.html", address=address, done=True, form=None)
