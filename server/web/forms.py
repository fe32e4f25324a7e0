"""The web forms.  Every POST carries Flask-WTF's CSRF token."""

from __future__ import annotations

import re

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from markupsafe import Markup, escape
from wtforms import (
    BooleanField,
    DateField,
    EmailField,
    HiddenField,
    IntegerField,
    PasswordField,
    SelectField,
    SelectMultipleField,
    StringField,
    TextAreaField,
)
from wtforms.csrf.core import CSRFTokenField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import InputRequired, Length, NumberRange, Optional, Regexp
from wtforms.widgets import CheckboxInput, HiddenInput, ListWidget, TextArea
from wtforms.widgets.core import clean_key

from server.i18n import LANGUAGES
from server.services import api_tokens
from server.services.accounts import EMAIL
from server.services.clock.mail_hours import own_reminders_text

HOURS = [SelectChoice(h, f"{h:02d}:00") for h in range(24)]


def optional_hour(value):
    """ "" (none chosen) -> None; else the hour as an int (ValueError: not a choice)."""
    return None if value in ("", None, "None") else int(value)


class TokenInput(HiddenInput):
    """The CSRF token's input, the same HTML as HiddenInput's, written
    directly: WTForms' general path (sorting the attributes, asking the
    field's flags, formatting) took about 40 µs, and a game page shows the
    token in each of its forms.  Anything unusual takes the general path."""

    def __call__(self, field, **kwargs):
        value = field._value()
        if kwargs or value is None:
            return super().__call__(field, **kwargs)
        return Markup(
            f'<input id="{escape(field.id)}" name="{escape(field.name)}" '
            f'type="hidden" value="{escape(value)}">'
        )


QUOTE = '"'


def html_params(**attrs) -> str:
    """The text of WTForms' ``html_params`` (sorted by name, ``class_`` and
    ``data_x`` cleaned, True written bare, False left out, every name and
    value escaped, a quote in a Markup value as ``&quot;``), written with
    an f-string: WTForms formats each attribute with ``Markup.format``,
    about 5 µs each."""
    params: list[str] = []
    for key, value in sorted(attrs.items()):
        name = escape(clean_key(key))
        if value is True:
            params.append(name)
        elif value is not False:
            params.append(f'{name}="{str(escape(value)).replace(QUOTE, "&quot;")}"')
    return " ".join(params)


class FastHiddenInput(HiddenInput):
    """WTForms' HiddenInput (the same HTML), its attributes written by
    html_params above."""

    html_params = staticmethod(html_params)


class FastTextArea(TextArea):
    """WTForms' TextArea (the same HTML: its ``__call__`` as WTForms 3.3
    writes it), its attributes written by html_params above; a game page
    shows two (the table talk, resigning)."""

    def __call__(self, field, **kwargs):
        kwargs.setdefault("id", field.id)
        flags = getattr(field, "flags", {})
        for k in dir(flags):
            if k in self.validation_attrs and k not in kwargs:
                kwargs[k] = getattr(flags, k)
        params = html_params(name=field.name, **kwargs)
        return Markup(f"<textarea {params}>\r\n{escape(field._value())}</textarea>")


class TokenField(CSRFTokenField):
    widget = TokenInput()


class Form(FlaskForm):
    """Flask-WTF's form with the CSRF token rendered by TokenInput."""

    class Meta:
        def build_csrf(self, form):
            csrf = super().build_csrf(form)
            csrf.field_class = TokenField
            return csrf


class HoursListField(StringField):
    """The player's reminder hours: stored as a list, typed as "24, 6"."""

    @property
    def text(self) -> str:
        return self.data if isinstance(self.data, str) else own_reminders_text(self.data)

    def _value(self) -> str:
        return self.text


class SignupForm(Form):
    name = StringField(_l(_l("Name shown to other players")), [InputRequired(), Length(1, 40)])
    email = EmailField(
        _l("Email"),
        [
            InputRequired(),
            Length(max=254),
            Regexp(EMAIL, message=_l("This is not an email address.")),
        ],
    )
    password = PasswordField(_l("Password"), [InputRequired(), Length(8, 200)])
    # Guessed (web/time_zones.py, static/timezone.js); an unknown or missing
    # value falls back to the guess, so the choice is checked in the view.
    timezone = SelectField(_l("Time zone for deadlines"), validate_choice=False)


class LoginForm(Form):
    email = EmailField(_l("Email"), [InputRequired(), Length(max=254)])
    password = PasswordField(_l("Password"), [InputRequired(), Length(max=200)])


class ResetRequestForm(Form):
    email = EmailField(
        _l("Email"),
        [
            InputRequired(),
            Length(max=254),
            Regexp(EMAIL, message=_l("This is not an email address.")),
        ],
    )


class NewPasswordForm(Form):
    password = PasswordField(_l("New password"), [InputRequired(), Length(8, 200)])


class NameForm(Form):
    name = StringField(_l("Name shown to other players"), [InputRequired(), Length(1, 40)])


class PasswordChangeForm(Form):
    current = PasswordField(_l("Current password"), [InputRequired(), Length(max=200)])
    password = PasswordField(_l("New password"), [InputRequired(), Length(8, 200)])


class FirstPasswordForm(Form):
    """An account made for a player (a replacement, an invitation) has no
    password yet: it sets one without a current one."""

    password = PasswordField(_l("New password"), [InputRequired(), Length(8, 200)])


class AddressForm(Form):
    current = PasswordField(_l("Current password"), [InputRequired(), Length(max=200)])
    email = EmailField(
        _l("New email address"),
        [
            InputRequired(),
            Length(max=254),
            Regexp(EMAIL, message=_l("This is not an email address.")),
        ],
    )


class EraseForm(Form):
    current = PasswordField(_l("Current password"), [InputRequired(), Length(max=200)])


class TalkForm(Form):
    text = TextAreaField(
        _l("Say something to the table"), [InputRequired(), Length(1, 500)], widget=FastTextArea()
    )


class EmptyForm(Form):
    """Just the CSRF token: for buttons such as start, leave, log out."""


class NewGameForm(Form):
    kind = SelectField(_l("Game"), validators=[InputRequired()])
    name = StringField(_l("Name of this game"), [InputRequired(), Length(1, 80)])
    seats = IntegerField(_l("Seats"), [InputRequired(), NumberRange(1, 20)])
    move_hours = IntegerField(_l("Hours per move"), [InputRequired(), NumberRange(1, 24 * 30)])
    reminder_hours = StringField(
        _l('Reminders: "half" (halfway) or hours before the deadline, comma separated'),
        [
            Optional(),
            Regexp(
                r"^\s*(half|\d+)(\s*,\s*(half|\d+))*\s*$",
                re.IGNORECASE,
                message='"half" or numbers of hours, separated by commas',
            ),
        ],
    )
    # Choices (running_hours.choices) come from the NIGHT_* settings: set by the view.
    clock_policy = SelectField(
        _l("When the clock runs (judged in each player's own time zone)"), default="always"
    )
    # Choices (bot_seats.PRACTICE_BOTS) set by the view; "" = invite people.
    practice = SelectField(_l("Practice alone against bots?"), default="")
    public = BooleanField(_l("List it among the open games: anybody signed in may join"))
    # Choices (server/i18n.LANGUAGES) set by the view; the host's language first.
    language = SelectField(_l("Language of the table"), [Optional()])
    # A select, not a checkbox: a form sent back as shown keeps the default.
    visibility = SelectField(
        _l("Who may see it"),
        default="public",
        choices=[
            # Short words: a phone's select shows them whole; the page says
            # what each means below it (lobby/new.html).
            SelectChoice("public", _l("Everyone signed in")),
            SelectChoice("private", _l("Only its players")),
        ],
    )
    # The clubs the host is a member of (set by the view); "" = no club.
    club = SelectField(_l("For a club"), default="", validate_choice=False)
    departed_seat = SelectField(
        _l("If a player deletes their account during the game"),
        default="bot",
        choices=[
            SelectChoice("bot", _l("A bot plays their seat")),
            SelectChoice("passes", _l("Their seat passes")),
        ],
    )


class BotSeatForm(Form):
    seat = IntegerField("Seat", [InputRequired(), NumberRange(1, 20)])
    bot = SelectField("Bot")


class InviteForm(Form):
    emails = TextAreaField(
        _l("Email addresses, one per line or separated by commas"),
        [InputRequired(), Length(max=4000)],
    )


class JoinForm(Form):
    seat = IntegerField("Seat", [InputRequired(), NumberRange(1, 20)])
    token = HiddenField()


class OptionForm(Form):
    name = StringField("Option", [InputRequired(), Length(max=60)])
    value = StringField("Value", [InputRequired(), Length(max=60)])


class MoveForm(Form):
    seq = IntegerField("seq", [InputRequired(), NumberRange(0, 10**9)])
    action = StringField("action", [InputRequired(), Length(max=2000)])


class SettingsForm(Form):
    language = SelectField(
        _l("Language of pages and mails"),
        choices=[
            SelectChoice("", _l("As my browser says (mails in English)")),
            *(SelectChoice(code, name) for code, name in LANGUAGES.items()),
        ],
    )
    timezone = SelectField(_l("Time zone for deadlines"), [InputRequired()])
    mail_mode = SelectField(
        _l("Turn mails"),
        [InputRequired()],
        choices=[
            SelectChoice("every", _l("A mail for every turn")),
            SelectChoice("digest", _l("One mail a day listing the games that wait for me")),
        ],
    )
    optional_mail = BooleanField(_l("Also reminders, timeout notices and results"))
    board_as_text = BooleanField(_l("Show the board as text only, without the drawing"))
    reminder_hours = HoursListField(
        _l(
            'Reminders: hours before a deadline, e.g. "24, 6" ("half": halfway); '
            "empty: each game's own schedule"
        ),
        [Optional(), Length(max=100)],
    )
    quiet_from = SelectField(
        _l("No reminders or digests from"),
        coerce=optional_hour,
        choices=[SelectChoice("", _l("no quiet hours"))] + HOURS,
    )
    # Only read with a start: "no quiet hours" needs no end.
    quiet_until = SelectField(_l("until"), coerce=int, choices=HOURS, default=7)
    digest_hour = SelectField(_l("Daily digest at"), coerce=optional_hour)


class VacationForm(Form):
    starts = DateField(_l("First day away"), [InputRequired()])
    ends = DateField(_l("Last day away"), [InputRequired()])


class TakebackForm(Form):
    """A player asks to take back their own move at log row ``back_to``."""

    seq = HiddenField()
    back_to = StringField(_l("Move to take back"), [InputRequired(), Length(1, 9)])


class TakebackAnswerForm(Form):
    seq = HiddenField()


class ProfileForm(Form):
    """What the player's profile shows to others (services/profiles.py)."""

    languages = SelectMultipleField(
        _l("Languages I play in"),
        choices=[SelectChoice(code, name) for code, name in LANGUAGES.items()],
        widget=ListWidget(prefix_label=False),
        option_widget=CheckboxInput(),
    )
    show_languages = BooleanField(_l("Show my languages"))
    show_playing = BooleanField(_l("Show my games in progress (names and players only)"))
    show_finished = BooleanField(_l("Show my finished games and results"))
    show_ratings = BooleanField(_l("Show my ratings (and put me on the leaderboards)"))


class ChannelForm(Form):
    """A chat or push channel (server/notify): its address, the events it
    hears of, quiet hours.  The address is never shown again."""

    url = StringField(_l("Channel address"), [InputRequired(), Length(max=1000)])
    events = SelectMultipleField(
        _l("What it tells you"),
        choices=[],
        default=["turn", "last_call"],
        option_widget=CheckboxInput(),
        widget=ListWidget(prefix_label=False),
    )
    quiet_from = SelectField(
        _l("Quiet from (in your time zone)"),
        coerce=optional_hour,
        choices=[SelectChoice("", _l("no quiet hours"))] + HOURS,
    )
    quiet_until = SelectField(_l("until"), coerce=int, choices=HOURS, default=7)


class TableChannelForm(Form):
    url = StringField(_l("The table's channel address"), [InputRequired(), Length(max=1000)])


class TableChoiceForm(Form):
    only = BooleanField(_l("Let the table channel tell me of my turns instead of turn mails"))


class ClubForm(Form):
    """Founding a club (services/clubs.py checks every field and says what
    is wrong; the form only reads them)."""

    name = StringField(_l("Name of the club"))
    description = TextAreaField(_l("What the club is about"))
    languages = SelectMultipleField(
        _l("Languages the club plays in"),
        choices=[SelectChoice(code, name) for code, name in LANGUAGES.items()],
        widget=ListWidget(prefix_label=False),
        option_widget=CheckboxInput(),
        validate_choice=False,  # the service answers an unknown one in words
    )
    # A select, not a checkbox: a form sent back as shown keeps the default.
    access = SelectField(
        _l("Who may join"),
        default="public",
        choices=[
            SelectChoice("public", _l("Public: listed, and anybody signed in may join")),
            SelectChoice(
                "invite", _l("Invite-only: by invitation link, or by a request an admin accepts")
            ),
        ],
    )


class TokenForm(FlaskForm):
    name = StringField(
        _l("Name (what the token is for)"), [InputRequired(), Length(1, api_tokens.NAME_MAX)]
    )
    scopes = SelectMultipleField(
        _l("It may"),
        choices=[
            SelectChoice("read", _l("read: my games and how they stand")),
            SelectChoice("play", _l("play: moves and table talk")),
            SelectChoice("lobby", _l("lobby: join, leave and start games")),
        ],
        default=["read", "play"],
        widget=ListWidget(prefix_label=False),
        option_widget=CheckboxInput(),
    )
    days = SelectField(
        _l("Works for"),
        coerce=int,
        default=90,
        choices=[
            SelectChoice(7, _l("7 days")),
            SelectChoice(30, _l("30 days")),
            SelectChoice(90, _l("90 days")),
            SelectChoice(365, _l("a year")),
        ],
    )
