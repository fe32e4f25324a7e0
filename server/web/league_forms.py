"""The form that makes a league (services/leagues.py checks every choice
and says what is wrong; the form only reads them)."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from wtforms import DateTimeLocalField, IntegerField, SelectField, StringField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import InputRequired, Optional

from server.web.forms import Form

# A phone shows a select's chosen words on one line: the choices are short,
# and what each means is said beside them (FORMAT_HELP, ROUND_START_HELP).
FORMAT_HELP = (
    _l("Round-robin: meet as many players as the rounds allow"),
    _l("Swiss: players of like standing meet"),
)
ROUND_START_HELP = (
    _l("All tables at once, when the round before is over"),
    _l("Each table as soon as its players are free"),
)


class LeagueForm(Form):
    name = StringField(_l("Name of the league"))
    kind = SelectField(_l("Game"), validators=[InputRequired()])
    club = SelectField(_l("For a club"), default="")
    access = SelectField(
        _l("Who may join"),
        default="open",
        choices=[
            SelectChoice("open", _l("Anybody signed in")),
            SelectChoice("club", _l("Members of the club only")),
        ],
    )
    format = SelectField(
        _l("Format"),
        default="round_robin",
        choices=[
            SelectChoice("round_robin", _l("Round-robin")),
            SelectChoice("swiss", _l("Swiss")),
        ],
    )
    rounds = IntegerField(_l("Rounds"), default=3, validators=[Optional()])
    table_min = IntegerField(_l("Smallest table (players)"), default=3, validators=[Optional()])
    table_max = IntegerField(_l("Largest table (players)"), default=3, validators=[Optional()])
    max_players = IntegerField(
        _l("Most players in the league"), default=12, validators=[Optional()]
    )
    starts_at = DateTimeLocalField(
        _l("Start (your time)"), format="%Y-%m-%dT%H:%M", validators=[Optional()]
    )
    move_hours = IntegerField(_l("Hours per move"), default=48, validators=[Optional()])
    round_start = SelectField(
        _l("How a round begins"),
        default="all_at_once",
        choices=[
            SelectChoice("all_at_once", _l("All tables at once")),
            SelectChoice("each_table", _l("Each table on its own")),
        ],
    )
    same_deal = SelectField(
        _l("Deal"),
        default="no",
        choices=[
            SelectChoice("no", _l("Each table its own deal")),
            SelectChoice("yes", _l("The same deal at every table of a round")),
        ],
    )
    dropout = SelectField(
        _l("A player who drops out"),
        default="autopass",
        choices=[
            SelectChoice("autopass", _l("Their seats pass automatically")),
            SelectChoice("bot", _l("A bot plays their seats")),
        ],
    )
