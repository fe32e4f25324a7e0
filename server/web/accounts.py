"""Accounts: sign up (confirmed by a mailed link), sign in, sign out (here or
everywhere), password reset, and the account page (name, password, address).

Every link mailed here leads to a page with a button: opening a link changes
nothing (mail scanners open them all), the POST does.
"""

from __future__ import annotations

from flask import (
    Blueprint,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _
from flask_login import LoginManager, current_user, login_required

from engine.words import N_
from server.mail.links import LinkError, safe_next
from server.models import User
from server.services import accounts
from server.services.clock.deadlines import zone_names
from server.web import browser_session, languages, rate_limits, time_zones
from server.web.errors import link_error
from server.web.forms import (
    AddressForm,
    EmptyForm,
    EraseForm,
    FirstPasswordForm,
    LoginForm,
    NameForm,
    NewPasswordForm,
    PasswordChangeForm,
    ResetRequestForm,
    SignupForm,
)

bp = Blueprint("accounts", __name__)
login_manager = LoginManager()
login_manager.login_view = "accounts.login"
login_manager.login_message = N_("Please sign in to see that page.")
# A stolen cookie replayed from another network loses its session.
login_manager.session_protection = "basic"
MAIL_SENT = "check_mail"


def init_app(app) -> None:
    login_manager.init_app(app)


@login_manager.user_loader
def load_user(user_id: str):
    return accounts.user_for_session(user_id, browser_session.key())


def sign_in(user: User) -> None:
    browser_session.sign_in(user)
    rate_limits.remember_sign_in(user.email)


def mailer():
    return current_app.extensions["pbem_mailer"]


def check_mail(what: str):
    return render_template("accounts/check_mail.html", what=what)


@bp.route("/signup", methods=("GET", "POST"))
@rate_limits.per_client("RATELIMIT_SIGNUP_PER_CLIENT")
@rate_limits.per_address("RATELIMIT_MAIL_PER_ADDRESS", "mail-address")
def signup():
    form = SignupForm()
    form.timezone.choices = zone_names()
    guess = time_zones.zone_for(request.accept_languages)
    if form.validate_on_submit():
        zone = form.timezone.data if form.timezone.data in form.timezone.choices else guess
        accounts.sign_up(
            form.email.data,
            form.name.data,
            form.password.data,
            mailer(),
            safe_next(request.args.get("next")),
            languages.page_language(),
            zone,
        )
        return check_mail("signup")
    if not form.is_submitted():
        form.timezone.data = guess
    return render_template("accounts/signup.html", form=form), 400 if form.errors else 200


@bp.route("/login", methods=("GET", "POST"))
@rate_limits.sign_in_limits
def login():
    form = LoginForm()
    if form.validate_on_submit():
        user = accounts.authenticate(form.email.data, form.password.data)
        if user is not None and not user.verified:
            mailer().confirm(user, safe_next(request.args.get("next")))
            return check_mail("unconfirmed")
        if user is not None:
            sign_in(user)
            return redirect(safe_next(request.args.get("next")))
        form.password.errors.append("Unknown email address or wrong password.")
    return render_template("accounts/login.html", form=form), 400 if form.errors else 200


@bp.post("/logout")
def logout():
    if EmptyForm().validate_on_submit():
        browser_session.sign_out()
    return redirect(url_for("lobby.index"))


@bp.post("/logout-everywhere")
@login_required
def logout_everywhere():
    if EmptyForm().validate_on_submit():
        accounts.end_all_sessions(current_user)
        browser_session.sign_out()
        flash(
            N_(
                "You are signed out on every device, and the links mailed so far no longer "
                "sign anybody in."
            )
        )
    return redirect(url_for("lobby.index"))


@bp.route("/confirm/<token>", methods=("GET", "POST"))
def confirm(token: str):
    """The sign-up confirmation link: the button proves the address and signs in."""
    try:
        user, next_path, attempt = mailer().links.read_confirm(token)
    except LinkError as exc:
        return link_error(exc)
    form = EmptyForm()
    if form.validate_on_submit():
        accounts.confirm(user, attempt)
        sign_in(user)
        flash(_("Your address is confirmed. Welcome!"))
        return redirect(next_path)
    return render_template("accounts/confirm.html", form=form, email=user.email, what="signup")


@bp.route("/reset", methods=("GET", "POST"))
@rate_limits.per_client("RATELIMIT_SIGNUP_PER_CLIENT")
@rate_limits.per_address("RATELIMIT_MAIL_PER_ADDRESS", "mail-address")
def reset_request():
    form = ResetRequestForm()
    if form.validate_on_submit():
        accounts.request_reset(form.email.data, mailer(), languages.page_language())
        return check_mail("reset")
    return render_template("accounts/reset_request.html", form=form), 400 if form.errors else 200


@bp.route("/reset/<token>", methods=("GET", "POST"))
def reset(token: str):
    try:
        user = mailer().links.read_reset(token)
    except LinkError as exc:
        return link_error(exc)
    form = NewPasswordForm()
    if form.validate_on_submit():
        accounts.set_password(user, form.password.data)
        sign_in(user)
        flash(N_("Your new password is set; every other device is signed out."))
        return redirect(url_for("lobby.index"))
    return render_template(
        "accounts/reset.html", form=form, email=user.email
    ), 400 if form.errors else 200


@bp.get("/account")
@login_required
def account():
    return render_account()


def render_account(status: int = 200, **forms):
    has_password = accounts.has_password(current_user)
    forms = {
        "name_form": NameForm(name=current_user.name),
        "password_form": PasswordChangeForm() if has_password else FirstPasswordForm(),
        "address_form": AddressForm(),
        "erase_form": EraseForm(),
        **forms,
    }
    return render_template(
        "accounts/account.html", everywhere=EmptyForm(), has_password=has_password, **forms
    ), status


@bp.post("/account/name")
@login_required
def change_name():
    form = NameForm()
    if form.validate_on_submit():
        try:
            accounts.change_name(current_user, form.name.data)
        except accounts.AccountError as exc:
            form.name.errors.append(languages.say_here(exc.args[0]))
        else:
            flash(_("Your name is changed."))
            return redirect(url_for("accounts.account"))
    return render_account(400, name_form=form)


@bp.post("/account/password")
@login_required
@rate_limits.per_user("RATELIMIT_SIGNIN_PER_CLIENT_ADDRESS")
def change_password():
    first = not accounts.has_password(current_user)
    form = FirstPasswordForm() if first else PasswordChangeForm()
    if form.validate_on_submit():
        try:
            if first:
                accounts.set_first_password(current_user, form.password.data)
            else:
                accounts.change_password(current_user, form.current.data, form.password.data)
        except accounts.AccountError as exc:
            (form.password if first else form.current).errors.append(
                languages.say_here(exc.args[0])
            )
        else:
            sign_in(User.get_by_id(current_user.id))  # this device stays signed in
            flash(
                N_("Your password is set: sign in with your address and it.")
                if first
                else N_("Your password is changed; every other device is signed out.")
            )
            return redirect(url_for("accounts.account"))
    return render_account(400, password_form=form)


@bp.post("/account/address")
@login_required
@rate_limits.per_user("RATELIMIT_MAIL_PER_ADDRESS")
def change_address():
    form = AddressForm()
    if form.validate_on_submit():
        try:
            accounts.request_address_change(
                current_user, form.current.data, form.email.data, mailer()
            )
        except accounts.AccountError as exc:
            form.email.errors.append(languages.say_here(exc.args[0]))
        else:
            return check_mail("address")
    return render_account(400, address_form=form)


@bp.route("/account/address/<token>", methods=("GET", "POST"))
def confirm_address(token: str):
    try:
        user, new_email = mailer().links.read_address(token)
    except LinkError as exc:
        return link_error(exc)
    form = EmptyForm()
    if form.validate_on_submit():
        try:
            accounts.change_address(user, new_email)
        except accounts.AccountError as exc:
            return render_template(
                "accounts/confirm.html",
                form=None,
                email=new_email,
                what="address",
                problem=languages.say_here(exc.args[0]),
            ), 409
        browser_session.sign_out()
        flash(_("Your account now uses %(email)s. Sign in with it.", email=new_email))
        return redirect(url_for("accounts.login"))
    return render_template("accounts/confirm.html", form=form, email=new_email, what="address")
