"""The Settings page: one page that three areas fill (preferences, chat
channels, access tokens), each with its own forms and blueprint.  Whichever
area answers a POST renders the whole page again, so the sections are drawn
here and the three blueprints import this module, never each other."""

from __future__ import annotations

from flask import current_app, render_template
from flask_babel import gettext as _
from flask_login import current_user
from wtforms.fields.choices import SelectChoice

from server.mail.links import Links
from server.models import Vacation, utcnow
from server.notify import channels
from server.services import api_tokens, outbox
from server.services.clock import deadlines, vacations
from server.web.forms import HOURS, ChannelForm, EmptyForm, SettingsForm, TokenForm, VacationForm
from server.web.languages import page_language


def settings_form() -> SettingsForm:
    form = SettingsForm(obj=current_user)
    form.timezone.choices = deadlines.zone_names()
    site = current_app.config["DIGEST_HOUR"]
    form.digest_hour.choices = [
        SelectChoice("", _("%(hour)s (the site's hour)", hour=f"{site:02d}:00"))
    ] + HOURS
    if form.quiet_until.data is None:  # no quiet hours yet: offer a morning end
        form.quiet_until.data = form.quiet_until.default
    return form


def channel_form(formdata=None) -> ChannelForm:
    form = ChannelForm() if formdata is None else ChannelForm(formdata=formdata)
    form.events.choices = [(e, _(channels.EVENT_NAMES[e])) for e in channels.EVENTS]
    return form


def own_channels() -> list[dict]:
    return [
        {
            "channel": c,
            "health": channels.health(c),
            "events": [_(channels.EVENT_NAMES[e]) for e in c.events or ()],
        }
        for c in channels.own(current_user)
    ]


def token_section(form: TokenForm | None = None, made: str = "") -> dict:
    """What the page's token section shows."""
    return {
        "token_form": form or TokenForm(),
        "tokens": api_tokens.of(current_user),
        "made_token": made,
    }


def links() -> Links:
    return Links.from_settings(current_app.config)


def render_settings(
    form: SettingsForm,
    vacation_form: VacationForm | None,
    channel: ChannelForm | None = None,
    **tokens,
):
    now = utcnow()
    mine = list(
        Vacation.select()
        .where((Vacation.user == current_user.id) & (Vacation.ends_at > now))
        .order_by(Vacation.starts_at)
    )
    allowance = current_app.config["VACATION_DAYS_PER_YEAR"]
    return render_template(
        "preferences/settings.html",
        form=form,
        vacation_form=vacation_form or VacationForm(),
        channel_form=channel or channel_form(),
        channels=own_channels(),
        vacations=mine,
        now=now,
        local=lambda when, zone: deadlines.local_text(when, zone, page_language()),
        used=vacations.days_used(current_user, now.year),
        allowance=allowance,
        button=EmptyForm(),
        away=vacations.is_away(current_user, now),
        mails=outbox.recent_mails(current_user),
        calendar_url=links().calendar_url(current_user),
        **(tokens or token_section()),
    )
