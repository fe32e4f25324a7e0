"""Your data, from the account page: download it (an archive built in the
background, services/data_export.py) or delete the account
(services/erasure.py).  Every change is a POST; the links mailed for them
only show a page with a button, or hand over the archive to its owner."""

from __future__ import annotations

from flask import Blueprint, Response, flash, redirect, render_template, url_for
from flask_babel import gettext as _
from flask_login import current_user, login_required

from server.mail.links import LinkError
from server.services import accounts, data_export, erasure
from server.web import browser_session, languages, rate_limits
from server.web.accounts import check_mail, mailer, render_account
from server.web.errors import link_error
from server.web.forms import EmptyForm, EraseForm

bp = Blueprint("your_data", __name__)


@bp.post("/account/delete")
@login_required
@rate_limits.per_user("RATELIMIT_SIGNIN_PER_CLIENT_ADDRESS")
def erase():
    if not accounts.has_password(current_user):
        if not EmptyForm().validate_on_submit():
            return render_account(400)
        mailer().erase_confirm(current_user)
        return check_mail("erase")
    form = EraseForm()
    if form.validate_on_submit():
        if accounts.authenticate(current_user.email, form.current.data) is not None:
            return _erased(current_user)
        form.current.errors.append(_("Your current password is not right."))
    return render_account(400, erase_form=form)


@bp.route("/account/delete/<token>", methods=("GET", "POST"))
def confirm_erase(token: str):
    """The mailed link: the GET asks, the button deletes."""
    try:
        user = mailer().links.read_erase(token)
    except LinkError as exc:
        return link_error(exc)
    form = EmptyForm()
    if form.validate_on_submit():
        return _erased(user)
    return render_template("accounts/erase.html", form=form)


def _erased(user):
    erasure.erase(user, mailer())
    browser_session.sign_out()
    flash(_("Your account is deleted. Thank you for playing."))
    return redirect(url_for("lobby.index"))


@bp.post("/account/data")
@login_required
@rate_limits.per_user("RATELIMIT_MAIL_PER_ADDRESS")
def request_export():
    if EmptyForm().validate_on_submit():
        data_export.request(current_user)
        flash(_("We are gathering your data; a link to download it comes by mail shortly."))
    return redirect(url_for("accounts.account"))


@bp.get("/account/data/<token>")
@login_required
def download(token: str):
    try:
        owner, export_id = mailer().links.read_export(token, data_export.EXPORT_HOURS * 3600)
        data = data_export.ready_archive(current_user, owner, export_id)
    except LinkError as exc:
        return link_error(exc)
    except data_export.ExportError as exc:
        message = languages.say_here(exc.args[0])
        return render_template(
            "errors/error.html", title=_("Download my data"), message=message
        ), 404
    return Response(
        data,
        mimetype="application/zip",
        headers={
            "Content-Disposition": f'attachment; filename="pbem-data-{current_user.id}.zip"',
            "Cache-Control": "no-store",
        },
    )


def init_cli(app) -> None:
    app.cli.add_command(erasure.erase_command)  # also ``pbem erase-account`` (server/cli.py)
