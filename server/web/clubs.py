"""Clubs: the list of public clubs, founding one, a club's page, joining
(directly, by request, by invitation link) and the admins' buttons.  Views
read the form, call services/clubs.py and redirect; a refused action comes
back as a page that says why (services.clubs.ClubError), nothing changed."""

from __future__ import annotations

from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _
from flask_login import current_user, login_required

from engine.words import N_
from server.i18n import LANGUAGES
from server.services import club_pages, clubs
from server.services.what_a_seat_sees import deadline_text
from server.web import rate_limits
from server.web.errors import link_error
from server.web.forms import ClubForm, EmptyForm
from server.web.languages import page_language, say_here

bp = Blueprint("clubs", __name__)


def checked_form() -> None:
    if not EmptyForm().validate_on_submit():
        abort(400, N_("The form was not understood; reload the page and try again."))


def invite_max_age() -> int:
    return current_app.config["CLUB_INVITE_DAYS"] * 24 * 3600


def to_club(club, anchor: str = ""):
    return redirect(url_for("clubs.club", slug=club.slug) + anchor)


@bp.get("/clubs")
def listing():
    return render_template(
        "clubs/list.html", clubs=clubs.public_clubs(), mine=clubs.clubs_of(current_user)
    )


@bp.route("/clubs/new", methods=("GET", "POST"))
@login_required
@rate_limits.limiter.limit(
    rate_limits.setting("RATELIMIT_CLUB_FOUND_PER_USER"),
    key_func=rate_limits.signed_in_user,
    methods=["POST"],
    deduct_when=lambda response: response.status_code == 302,  # only clubs founded count
)
def new():
    form = ClubForm()
    if request.method == "GET":
        form.languages.data = [page_language()]
        return render_template("clubs/new.html", form=form)
    if not form.validate_on_submit():
        abort(400, N_("The form was not understood; reload the page and try again."))
    try:
        club = clubs.found(
            current_user,
            form.name.data or "",
            form.description.data or "",
            form.languages.data or [],
            form.access.data == "invite",
        )
    except clubs.ClubError as exc:
        return render_template("clubs/new.html", form=form, problem=say_here(exc.args[0])), 400
    flash(_("Your club is founded; you are its admin."))
    return to_club(club)


@bp.get("/clubs/<slug>")
def club(slug: str):
    found = clubs.by_slug(slug)
    member = clubs.membership(found, current_user)
    if not clubs.may_see_all(found, current_user):
        return render_template(
            "clubs/outside.html",
            club=found,
            asked=clubs.open_request(found, current_user),
            form=EmptyForm(),
        )
    ids = clubs.member_ids(found)
    admin = member is not None and member.role == "admin"
    return render_template(
        "clubs/club.html",
        club=found,
        member=member,
        admin=admin,
        form=EmptyForm(),
        languages=[LANGUAGES[c] for c in found.languages or [] if c in LANGUAGES],
        members=club_pages.members(found),
        games=club_pages.games(found, current_user),
        boards=club_pages.leaderboards(found, ids, current_user, current_app.config),
        deadlines=club_pages.deadlines(ids, current_user) if member else [],
        record=club_pages.record(found),
        requests=club_pages.open_requests(found) if admin else [],
        when=local_time,
    )


def local_time(when) -> str:
    zone = current_user.timezone if current_user.is_authenticated else "UTC"
    return deadline_text(when, zone, page_language())


@bp.post("/clubs/<slug>/join")
@login_required
def join(slug: str):
    checked_form()
    found = clubs.by_slug(slug)
    clubs.join_public(found, current_user)
    flash(_("Welcome: you are a member of %(club)s.", club=found.name))
    return to_club(found)


@bp.post("/clubs/<slug>/ask")
@login_required
def ask(slug: str):
    checked_form()
    found = clubs.by_slug(slug)
    clubs.ask_to_join(found, current_user)
    flash(_("Your request is sent; an admin of the club will answer it."))
    return to_club(found)


@bp.post("/clubs/<slug>/requests/<int:request_id>/<answer>")
@login_required
def answer(slug: str, request_id: int, answer: str):
    if answer not in ("accept", "decline"):
        abort(404)
    checked_form()
    found = clubs.by_slug(slug)
    person = clubs.answer_request(found, current_user, request_id, answer == "accept")
    flash(
        _("%(name)s is a member now.", name=person.name)
        if answer == "accept"
        else _("The request of %(name)s is declined.", name=person.name)
    )
    return to_club(found, "#requests")


@bp.post("/clubs/<slug>/invitation")
@login_required
@rate_limits.per_user("RATELIMIT_CLUB_INVITE_PER_USER")
def invitation(slug: str):
    """A new invitation link, shown once to the admin who asked for it."""
    checked_form()
    found = clubs.by_slug(slug)
    if not clubs.is_admin(found, current_user):
        raise clubs.ClubError(N_("Only an admin of this club may do that."))
    token = clubs.invitation_token(found, current_app.config["SECRET_KEY"])
    link = current_app.config["PUBLIC_BASE_URL"].rstrip("/") + url_for("clubs.invited", token=token)
    return render_template(
        "clubs/invitation.html",
        club=found,
        link=link,
        days=current_app.config["CLUB_INVITE_DAYS"],
        form=EmptyForm(),
    )


@bp.post("/clubs/<slug>/revoke-links")
@login_required
def revoke(slug: str):
    checked_form()
    found = clubs.by_slug(slug)
    clubs.revoke_links(found, current_user)
    flash(_("Every invitation link made so far no longer works."))
    return to_club(found, "#invite")


@bp.get("/clubs/join/<token>")
def invited(token: str):
    """The club an invitation link names, with a Join button (a GET joins nobody)."""
    try:
        found = clubs.club_of_token(token, current_app.config["SECRET_KEY"], invite_max_age())
    except clubs.LinkProblem as exc:
        return link_error(exc)
    return render_template(
        "clubs/invited.html",
        club=found,
        token=token,
        member=clubs.membership(found, current_user),
        form=EmptyForm(),
    )


@bp.post("/clubs/join/<token>")
@login_required
def join_by_link(token: str):
    checked_form()
    try:
        found = clubs.join_by_link(
            token, current_user, current_app.config["SECRET_KEY"], invite_max_age()
        )
    except clubs.LinkProblem as exc:
        return link_error(exc)
    flash(_("Welcome: you are a member of %(club)s.", club=found.name))
    return to_club(found)


@bp.post("/clubs/<slug>/members/<int:user_id>/admin")
@login_required
def make_admin(slug: str, user_id: int):
    checked_form()
    found = clubs.by_slug(slug)
    person = clubs.make_admin(found, current_user, user_id)
    flash(_("%(name)s is an admin of the club now.", name=person.name))
    return to_club(found, "#members")


@bp.post("/clubs/<slug>/members/<int:user_id>/remove")
@login_required
def remove(slug: str, user_id: int):
    checked_form()
    found = clubs.by_slug(slug)
    person = clubs.remove(found, current_user, user_id)
    flash(_("%(name)s is no longer a member.", name=person.name))
    return to_club(found, "#members")


@bp.post("/clubs/<slug>/leave")
@login_required
def leave(slug: str):
    checked_form()
    found = clubs.by_slug(slug)
    clubs.leave(found, current_user)
    flash(_("You have left %(club)s.", club=found.name))
    return redirect(url_for("clubs.listing"))
