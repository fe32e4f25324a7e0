"""Invitations people asked for.  The per-address daily
limit is for addresses that never agreed to hear from the inviter; a player
who shared a table with the host, or took a seat the host invited them to,
may be invited to any number of tables, and a rematch is never refused by an
invitation limit (it was: "Propose a rematch" answered 429 after a game that
began with invitations)."""

from __future__ import annotations

from clock_helpers import outbox, user
from test_rematches import answer, propose

from server.db import db
from server.models import Game, Rematch, User
from server.services import games, moderation


def in_db(app, fn):
    with app.app_context(), db.connection_context():
        return fn()


def lobby(app, host, name: str) -> Game:
    mailer = app.extensions["pbem_mailer"]
    return games.create_game(host, "puerto_rico", name, 3, {}, 48, [24], mailer)


def invited_game(app, tag: str) -> Game:
    """A 3-player game that began with mail invitations, then ended."""
    mailer = app.extensions["pbem_mailer"]

    def build():
        people = [user(f"{tag}{i}@example.org", f"{tag.upper()} {i + 1}") for i in range(3)]
        game = lobby(app, people[0], f"Game {tag}")
        games.invite(game.id, people[0], [p.email for p in people[1:]], mailer)
        for i, person in enumerate(people[1:], start=1):
            games.join(game.id, person, i)
        games.start(game.id, people[0], mailer)
        moderator = user(f"mod-{tag}@example.org", is_moderator=True)
        game = Game.get_by_id(game.id)
        moderation.abandon(game.id, moderator, game.seq, "test over", mailer=mailer)
        return Game.get_by_id(game.id)

    return in_db(app, build)


def test_a_rematch_after_a_game_begun_with_invitations_is_proposed(app):
    old = invited_game(app, "iv")
    assert len(outbox(app, "invite")) == 2  # today: the addresses' daily invitation
    _, proposed = propose(app, "iv0@example.org", old.id)
    assert proposed.status_code == 200, proposed.text
    assert "Your rematch is proposed" in proposed.text
    assert {m.to_addr for m in outbox(app, "rematch")} == {"iv1@example.org", "iv2@example.org"}


def test_after_a_no_the_next_rematch_waits_a_day_not_an_invitation_limit(app):
    old = invited_game(app, "nw")
    propose(app, "nw0@example.org", old.id)
    answer(app, "nw1@example.org", old.id, "no")
    _, again = propose(app, "nw2@example.org", old.id)
    assert again.status_code == 400 and "less than a day ago" in again.text
    assert in_db(app, lambda: Rematch.select().count()) == 1


def test_table_mates_may_be_invited_to_many_tables_strangers_held_after_one(app):
    old = invited_game(app, "tm")
    mailer = app.extensions["pbem_mailer"]

    def second_and_third_tables():
        host = User.get(User.email == "tm0@example.org")
        for n in (2, 3):
            game = lobby(app, host, f"Table {n}")
            assert games.invite(game.id, host, ["tm1@example.org", "tm2@example.org"], mailer) == 2
        return game

    later = in_db(app, second_and_third_tables)
    assert old.status == "finished"
    assert len(outbox(app, "invite", "tm1@example.org")) == 3
    assert len(outbox(app, "invite", "tm2@example.org")) == 3

    def a_stranger_twice():
        host = User.get(User.email == "tm0@example.org")
        assert games.invite(later.id, host, ["new@example.org"], mailer) == 1
        other = lobby(app, host, "Table 4")
        return games.invite_all(other.id, host, ["new@example.org"], mailer)

    assert in_db(app, a_stranger_twice) == ([], [], ["new@example.org"])
    assert len(outbox(app, "invite", "new@example.org")) == 1


def test_someone_elses_table_mate_is_still_a_stranger_to_this_host(app):
    invited_game(app, "sm")
    mailer = app.extensions["pbem_mailer"]

    def other_host_invites():
        other = user("other@example.org")
        game = lobby(app, other, "Elsewhere")
        return games.invite_all(game.id, other, ["sm1@example.org"], mailer).held

    assert in_db(app, other_host_invites) == ["sm1@example.org"]
