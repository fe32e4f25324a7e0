"""Commands by mail about no game: ``/league join NAME``, ``/league
standings NAME``, ``/club join NAME [CODE]``.  They go to an account's own
commands address (mail/reply_address.py, COMMANDS; league mails carry it
as their Reply-To), and act only on a mail authenticated for its From:
(as moves by reply, services/replies.py) whose sender is that account.
The answer, one line per command, goes to the account's own address."""

from __future__ import annotations

from engine.words import N_, Words, msg, term
from server.i18n import ordinal, say
from server.mail.compose import Mailer
from server.mail.inbound import ParsedMail
from server.mail.reply_address import ReplyTarget
from server.models import Club, InboundMail, User
from server.services import clubs, leagues, reply_menu
from server.services.moves import MoveRejected
from server.typography import number

USAGE = N_(
    "Commands here: /league join NAME, /league standings NAME, /club join NAME "
    "(a public club) or /club join NAME CODE (with an invitation link's code)."
)
MAX_COMMANDS = 10


def address(settings, user: User) -> str:
    replies = reply_menu.addresses(settings)
    return replies.for_commands(user.id) if replies.enabled else ""


def receive(
    mail: ParsedMail, target: ReplyTarget, row: InboundMail, mailer: Mailer, verdict
) -> tuple[str, Words | str]:
    """(status, reason) for the mail's record; the answer is queued."""
    user = User.get_or_none(User.id == target.user_id)
    if user is None or not user.verified or user.email != mail.sender:
        return "ignored", N_("Not from the account this commands address belongs to; not answered.")
    row.user_id = user.id
    if not verdict.authenticated:
        return "ignored", msg(
            "Not authenticated (%(why)s); commands by mail need a mail the sender's provider "
            "signs. Not answered.",
            why=verdict.how,
        )
    lines = [line for line in mail.commands if line.startswith("/")][:MAX_COMMANDS]
    said = [words for line in lines for words in run(line, user, mailer.settings)] or [term(USAGE)]
    mailer.queue(
        "reply_commands",
        user.email,
        "[pbem] " + mailer.words(user, "Your commands"),
        {"name": user.name, "lines": [say(user.language, s) for s in said]},
        None,
        user,
        reply_to=address(mailer.settings, user),
    )
    return "applied", msg("%(n)s commands answered.", n=len(lines))


def run(line: str, user: User, settings) -> list[Words]:
    """One command's answer, in lines of words."""
    words = line.split()
    verb = " ".join(w.lower() for w in words[:2])
    rest = " ".join(words[2:])
    try:
        if verb == "/league join":
            league = leagues.by_name(rest)
            leagues.join(league, user)
            return [msg("You are in the league %(league)s.", league=league.name)]
        if verb == "/league standings":
            return standings(leagues.by_name(rest), user.language)
        if verb == "/club join":
            return [join_club(rest, user, settings)]
    except MoveRejected as exc:
        return [msg("%(line)s: %(why)s", line=line[:80], why=_words(exc.args[0]))]
    return [msg("%(line)s: %(why)s", line=line[:80], why=term(USAGE))]


def _words(text) -> Words:
    return text if isinstance(text, Words) else term(str(text))


def standings(league, language: str | None = None) -> list[Words]:
    """The league's standings, a line a place; the places and points
    written as the reader's language writes them ("1er", "10,5"), since a
    place's form depends on the language, not only on its words."""
    lines = leagues.standings(league)
    names = {
        u.id: u.name
        for u in User.select(User.id, User.name).where(User.id.in_([ln.player for ln in lines]))
    }
    return [msg("Standings of the league %(league)s:", league=league.name)] + [
        msg(
            "%(place)s: %(name)s, %(points)s points",
            place=ordinal(line.place, language),
            name=names.get(line.player, ""),
            points=number(leagues.points_shown(line.points), language),
        )
        for line in lines
    ]


def join_club(rest: str, user: User, settings) -> Words:
    """``NAME`` of a public club, or ``NAME CODE``: the code of an
    invitation link (what follows /clubs/join/ in it)."""
    words = rest.split()
    code = words[-1] if len(words) > 1 and len(words[-1]) > 20 else ""
    name = " ".join(words[:-1] if code else words)
    club = Club.get_or_none(Club.name_key == clubs.name_key(name)[:60])
    if club is None:
        raise clubs.ClubError(msg("There is no club named %(name)s.", name=name[:60]))
    if code:
        secret = settings["SECRET_KEY"]
        max_age = settings["CLUB_INVITE_DAYS"] * 24 * 3600
        try:
            joined = clubs.club_of_token(code, secret, max_age)
        except clubs.LinkProblem:
            raise clubs.ClubError(N_("That invitation code cannot be used.")) from None
        if joined.id != club.id:
            raise clubs.ClubError(N_("That invitation code cannot be used."))
        clubs.join_by_link(code, user, secret, max_age)
    else:
        clubs.join_public(club, user)
    return msg("Welcome: you are a member of %(club)s.", club=club.name)
