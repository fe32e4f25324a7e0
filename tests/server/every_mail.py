"""Every kind of mail, queued into a site's outbox in one language: a
started game of three (a move played, a seat that changed hands, a finished
game), an open lobby and a moderator, then each mail the server writes.
The mail tests read the outbox rows (nothing is sent)."""

from __future__ import annotations

import datetime as dt
import random

from clock_helpers import random_move, user
from conftest import make_app
from moderation_helpers import make_moderator

from engine.words import N_, msg
from server.db import db
from server.i18n import say
from server.models import Game, League, Outbox, Rematch, Seat, User, utcnow
from server.services import (
    games,
    leagues,
    lobby_replies,
    moderation,
    move_replies,
    moves,
    proposals,
    rematches,
    table_talk,
    takebacks,
)
from server.services.clock import deadlines
from server.services.clock.sweep import prompt_for, waiting_games
from server.services.state_store import load_state, rules

DAY = dt.timedelta(days=1)

# The template files that are parts of others, not mails of their own.
PARTS = {"_board", "_footer", "_layout", "_menu"}


def site(tmp, language: str, base_url: str = "http://127.0.0.1:18010", **extra):
    """An app whose people all read ``language``, with the games every mail
    kind needs; answers the app and the ids (game, lobby, ships, over)."""
    smtp = type("NoSmtp", (), {"port": 9})()
    app = make_app(
        f"sqlite:///{tmp / 'mails.sqlite3'}", smtp, tmp, PUBLIC_BASE_URL=base_url, **extra
    )
    with app.app_context(), db.connection_context():
        people = [
            user(f"p{i}@example.org", name, language=language, timezone="Europe/Paris")
            for i, name in enumerate(["Ana Alba", "Bo Berg", "Cy Cole"])
        ]
        mailer = app.extensions["pbem_mailer"]
        game = games.create_game(people[0], "puerto_rico", "Sugar Cane", 3, {}, 48, [24, 6], mailer)
        for i, person in enumerate(people[1:], start=1):
            games.join(game.id, person, i)
        games.start(game.id, people[0], mailer)
        lobby = games.create_game(people[1], "new_found_land", "Lobby Tea", 3, {}, 48, [24], mailer)
        ships = games.create_game(
            people[2], "new_found_land", "Sugar Cane", 3, {}, 48, [24], mailer
        )
        for i, person in enumerate(people[:2], start=1):
            games.join(ships.id, person, i)
        games.start(ships.id, people[2], mailer)
        over = games.create_game(people[0], "puerto_rico", "Lobby Tea", 3, {}, 48, [24], mailer)
        for i, person in enumerate(people[1:], start=1):
            games.join(over.id, person, i)
        games.start(over.id, people[0], mailer)
        user("mod@example.org", "Mo Mod", language=language)
        user("dee@example.org", "Dee Dow", language=language)
        leagues.create(people[0], "Liga Boreal", "puerto_rico", starts_at=utcnow() + DAY)
    make_moderator(app, "mod@example.org")
    random_move(app, game.id, random.Random(1))
    with app.app_context(), db.connection_context():
        ships = Game.get_by_id(ships.id)
        holder = Seat.get((Seat.game == ships.id) & (Seat.index == ships.to_move))
        moves.play(
            ships.id,
            ships.to_move,
            rules(ships).legal_actions(load_state(ships), ships.to_move)[0],
            ships.seq,
            "player",
            mailer=mailer,
            user_id=holder.user_id,
        )
        mod = User.get(User.email == "mod@example.org")
        moderation.replace(
            over.id, mod, Game.get_by_id(over.id).seq, 2, "dee@example.org", "Dee Dow",
            "Holidays", mailer=mailer,
        )  # fmt: skip
        moderation.abandon(over.id, mod, Game.get_by_id(over.id).seq, "Holidays", mailer=mailer)
    return app, (game.id, lobby.id, ships.id, over.id)


def queue_every_kind(app, ids) -> list[Outbox]:
    """Queue each kind of mail the site writes; answers the whole outbox."""
    game_id, lobby_id, ships_id, over_id = ids
    mailer = app.extensions["pbem_mailer"]
    with app.app_context(), db.connection_context():
        game = Game.get_by_id(game_id)
        seats = list(Seat.select().where(Seat.game == game_id).order_by(Seat.index))
        host, mod = seats[0].user, User.get(User.email == "mod@example.org")
        title = rules(game).title
        table_talk.post(game_id, seats[1], "Good luck, all", mailer)
        proposals.propose(game_id, host, game.seq, "undo", {"count": 1}, "A slip", mailer=mailer)
        moderation.extend(game_id, mod, Game.get_by_id(game_id).seq, 24, "Holidays", mailer=mailer)
        seat = Seat.get_by_id(seats[game.to_move].id)
        winner = {"winner": True, "name": "Bo Berg", "seat": 2, "total": 31, "breakdown": []}
        mailer.final(game, title, seats[1], [winner], "")
        mailer.timeout(game, title, seats[2], [], True)
        mailer.new_link(game, title, seats[2])
        mailer.stalling(game, title, mod, "Cy Cole", 3)
        lobby = Game.get_by_id(lobby_id)
        lobby_title = rules(lobby).title
        mailer.lobby_reminder(lobby, lobby_title, seats[1].user, lobby.created_at)
        mailer.lobby_closed(lobby, lobby_title, seats[1].user, 14, True)
        mailer.lobby_news(
            lobby,
            lobby_title,
            seats[1].user,
            msg("%(name)s left the game.", name="Cy Cole"),
            ["Bo Berg", None],
        )
        mailer.lobby_cancelled(lobby, lobby_title, seats[2].user, "Bo Berg")
        mailer.invitation(lobby, lobby_title, seats[1].user, "p2@example.org")
        mailer.held_invitations("dee@example.org", [(lobby, lobby_title, seats[1].user)])
        over = Game.get_by_id(over_id)
        rematch = Rematch.create(
            game=over.id, proposer=host.id, asked=[seats[1].user_id], expires_at=utcnow()
        )
        rematches.mail_request(mailer, over, rematch, title, seats[1].user, host)
        mailer.rematch_ended(
            over,
            title,
            seats[1].user,
            msg("Not every player answered in time: there is no rematch."),
            None,
        )
        mailer.outage(game, title, seat, "x", "y", "z")
        mailer.reset(host)
        mailer.address_change(host, "ana.new@example.org")
        mailer.account_exists(host)
        mailer.erase_confirm(host)
        mailer.export_ready(host, 1, 24)
        prompt = prompt_for(mailer, game, seat.user)
        deadline = deadlines.local_text(seat.deadline, seat.user.timezone, seat.user.language)
        mailer.reminder(game, title, seat, prompt, deadline)
        mailer.reminder(game, title, seat, prompt, deadline, last_call=True)
        mailer.digest(seat.user, waiting_games(mailer, seat.user))
        mailer.confirm(host)
        mailer.reset_unknown("nobody@example.org", seat.user.language)
        mailer.outage_summary(mod, deadline, deadline, 2, ["Sugar Cane"], 0)
        move_replies.answer(
            game, seats[1], mailer, "refused", N_("No command was found at the top of your mail.")
        )
        move_replies.answer(game, seats[1], mailer, "applied", "", ["Ana Alba took the Mayor"])
        lobby_replies.answer(
            seats[1].user.email, seats[1].user, lobby, mailer, "refused",
            N_("This lobby address was revoked by the host."), [],
        )  # fmt: skip
        mailer.queue(
            "reply_confirm",
            host.email,
            "[pbem] " + mailer.words(host, "Please confirm your mail"),
            {"name": host.name, "title": title, "what": "move", "lines": ["1"], "seat": 1,
             "sender": host.email, "hours": 72},
            game,
            host,
        )  # fmt: skip
        for what, final, subject in (
            ("started", False, N_("League %(league)s: round %(number)s begins")),
            ("ended", True, N_("League %(league)s is over")),
        ):
            mailer.queue(
                "league_round",
                host.email,
                mailer.words(host, subject, league="Liga Boreal", number=1),
                {"name": host.name, "league": "Liga Boreal", "title": title, "number": 1,
                 "rounds": 3, "what": what, "final": final, "table": ["Ana Alba", "Bo Berg"],
                 "game_url": f"{mailer.links.base_url}/games/{game.id}",
                 "standings": [{"place": 1, "name": "Bo Berg", "points": 10.5, "dropped": True}],
                 "league_url": f"{mailer.links.base_url}/leagues/{League.get().id}"},
                None,
                host,
            )  # fmt: skip
        mailer.queue(
            "reply_commands",
            host.email,
            "[pbem] " + mailer.words(host, "Your commands"),
            {
                "name": host.name,
                "lines": [
                    say(
                        host.language,
                        msg("You are in the league %(league)s.", league="Liga Boreal"),
                    )
                ],
            },
            None,
            host,
        )
        mailer.queue(
            "reply_answered",
            host.email,
            mailer.subject_for(game, title, N_("Your answer")),
            {"name": host.name, "title": title,
             "said": say(host.language, msg("Your yes is noted; it waits for the other players.")),
             "url": f"{mailer.links.base_url}/games/{game.id}"},
            game,
            host,
        )  # fmt: skip
        ships = Game.get_by_id(ships_id)
        mover, offer = next(
            (s, o)
            for s in Seat.select().where(Seat.game == ships_id)
            for o in takebacks.offers(ships, s)
        )
        takebacks.ask(ships_id, mover.user, ships.seq, offer.seq, mailer=mailer)
        return list(Outbox.select().order_by(Outbox.id))
