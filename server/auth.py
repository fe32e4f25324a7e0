"""Accounts: sign up, sign in (password or a link from an email), sign out."""
from __future__ import annotations

import secrets

from flask import (Blueprint, abort, current_app, flash, redirect, render_template, request,
                   session, url_for)
from flask_login import LoginManager, current_user, login_required, login_user, logout_user
from peewee import IntegrityError
from werkzeug.security import check_password_hash, generate_password_hash

from server.db import db
from server.forms import EmptyForm, LoginForm, SignupForm
from server.models import User
from server.tokens import LinkError, safe_next

bp = Blueprint("auth", __name__)
login_manager = LoginManager()
login_manager.login_view = "auth.login"
login_manager.login_message = "Please sign in to see that page."
# A stolen cookie replayed from another network loses its session.
login_manager.session_protection = "basic"


def init_app(app) -> None:
    login_manager.init_app(app)


@login_manager.user_loader
def load_user(user_id: str):
    ident, _, token = user_id.partition(":")
    if not ident.isdigit():
        return None
    user = User.get_or_none(User.id == int(ident))
    return user if user is not None and secrets.compare_digest(user.session_token, token) else None


def sign_in(user: User) -> None:
    session.permanent = True
    login_user(user)


def links():
    return current_app.extensions["pbem_mailer"].links


@bp.route("/signup", methods=("GET", "POST"))
def signup():
    form = SignupForm()
    if form.validate_on_submit():
        try:
            with db.atomic():
                user = User.create(email=form.email.data.strip().lower(),
                                   name=form.name.data.strip(),
                                   password_hash=generate_password_hash(form.password.data))
        except IntegrityError:
            form.email.errors.append("This address already has an account; sign in instead.")
        else:
            sign_in(user)
            return redirect(safe_next(request.args.get("next")))
    return render_template("auth/signup.html", form=form), 400 if form.errors else 200


@bp.route("/login", methods=("GET", "POST"))
def login():
    form = LoginForm()
    if form.validate_on_submit():
        user = User.get_or_none(User.email == form.email.data.strip().lower())
        if user is not None and check_password_hash(user.password_hash, form.password.data):
            sign_in(user)
            return redirect(safe_next(request.args.get("next")))
        form.password.errors.append("Unknown email address or wrong password.")
    return render_template("auth/login.html", form=form), 400 if form.errors else 200


@bp.post("/logout")
def logout():
    if EmptyForm().validate_on_submit():
        logout_user()
    return redirect(url_for("lobby.index"))


@bp.post("/logout-everywhere")
@login_required
def logout_everywhere():
    if EmptyForm().validate_on_submit():
        User.update(session_token=secrets.token_hex(16)).where(
            User.id == current_user.id).execute()
        logout_user()
        flash("You are signed out on every device.")
    return redirect(url_for("lobby.index"))


@bp.get("/l/<token>")
def signin_link(token: str):
    """A sign-in link from an email: signs in, changes nothing else."""
    try:
        user, next_path = links().read_signin(token)
    except LinkError as exc:
        return link_error(exc)
    sign_in(user)
    return redirect(next_path)


@bp.get("/s/<token>")
def seat_link(token: str):
    """A seat link from a turn email: signs in as that seat's player."""
    try:
        seat = links().read_seat(token)
    except LinkError as exc:
        return link_error(exc)
    if seat.user_id is None:
        abort(404)
    sign_in(seat.user)
    return redirect(url_for("play.game", game_id=seat.game_id))


def link_error(exc: LinkError):
    status = 404 if exc.reason == "invalid" else 410
    return render_template("errors/link.html", reason=exc.reason), status
