"""A rematch of a finished game with the same players and
options.  Any player proposes it; everybody else is asked on the game page
and by mail; it starts when all agree; one no, or silence for REMATCH_HOURS,
ends it.  No invitation limit refuses one; after a no the next waits a day."""

from __future__ import annotations

import datetime as dt

from clock_helpers import outbox, run_sweep, sign_in, started_game, user
from web_helpers import csrf, form_for, forms, post_form, text_of

from server.db import db
from server.models import Game, Rematch, Seat
from server.services import moderation


def finished_game(app, tag: str) -> Game:
    """A started 3-player game a site moderator abandoned: it is over."""
    started = started_game(app, players=3, tag=tag)
    with app.app_context(), db.connection_context():
        moderator = user(f"mod-{tag}@example.org", is_moderator=True)
        game = Game.get_by_id(started.id)
        Game.update(options={"buildings": "extended"}).where(Game.id == game.id).execute()
        moderation.abandon(
            game.id, moderator, game.seq, "test over", mailer=app.extensions["pbem_mailer"]
        )
        return Game.get_by_id(game.id)


def propose(app, email: str, game_id: int):
    client = sign_in(app, email)
    page = client.get(f"/games/{game_id}")
    return client, post_form(client, form_for(page.text, f"/games/{game_id}/rematch"))


def answer(app, email: str, game_id: int, word: str):
    client = sign_in(app, email)
    page = client.get(f"/games/{game_id}")
    assert "proposes a rematch" in page.text
    (form,) = [f for f in forms(page.text) if f["action"].endswith(f"/{word}")]
    return post_form(client, form)


def test_everybody_agrees_and_the_same_table_plays_again(app, smtp, send_mail):
    old = finished_game(app, "r")
    _, proposed = propose(app, "r1@example.org", old.id)
    assert "Your rematch is proposed" in proposed.text
    asked = {m.to_addr for m in outbox(app, "rematch")}
    assert asked == {"r0@example.org", "r2@example.org"}
    send_mail(app)
    (mail,) = smtp.to("r2@example.org")[-1:]
    assert "R 2 proposes a rematch" in text_of(mail) and f"/games/{old.id}#rematch" in text_of(mail)

    assert "waits for the other players" in answer(app, "r0@example.org", old.id, "yes").text
    done = answer(app, "r2@example.org", old.id, "yes")
    assert "Everybody agreed: the new game has started." in done.text
    with app.app_context(), db.connection_context():
        rematch = Rematch.get(Rematch.game == old.id)
        new = Game.get_by_id(rematch.new_game_id)

        def seats(game_id):
            return [
                s.user_id for s in Seat.select().where(Seat.game == game_id).order_by(Seat.index)
            ]

        assert rematch.status == "started" and new.status == "active"
        assert seats(new.id) == seats(old.id) and new.options == {"buildings": "extended"}
        assert (new.kind, new.move_hours, new.host_id) == (old.kind, old.move_hours, old.host_id)
    assert done.request.path == f"/games/{new.id}"
    page = sign_in(app, "r1@example.org").get(f"/games/{old.id}")
    assert f'href="/games/{new.id}"' in page.text and "Propose a rematch" not in page.text


def test_one_no_ends_it_and_a_second_request_is_limited(app, smtp, send_mail):
    old = finished_game(app, "n")
    propose(app, "n0@example.org", old.id)
    refused = answer(app, "n2@example.org", old.id, "no")
    assert "You said no: there is no rematch." in refused.text
    with app.app_context(), db.connection_context():
        assert Rematch.get(Rematch.game == old.id).status == "refused"
        assert Game.select().count() == 1
    send_mail(app)
    for n in range(3):
        assert any(
            "N 3 said no: there is no rematch." in text_of(m) for m in smtp.to(f"n{n}@example.org")
        ), n
    # After a no, another request must wait a day (a rematch is not an invitation,
    # so the invitation limits do not apply).
    _, again = propose(app, "n1@example.org", old.id)
    assert again.status_code == 400 and "less than a day ago" in again.text
    assert len(outbox(app, "rematch")) == 2


def test_silence_ends_it(app, smtp, send_mail):
    old = finished_game(app, "s")
    propose(app, "s0@example.org", old.id)
    with app.app_context(), db.connection_context():
        rematch = Rematch.get(Rematch.game == old.id)
    assert run_sweep(app, rematch.expires_at - dt.timedelta(minutes=1)).rematches == 0
    assert run_sweep(app, rematch.expires_at).rematches == 1
    assert run_sweep(app, rematch.expires_at).rematches == 0
    with app.app_context(), db.connection_context():
        assert Rematch.get_by_id(rematch.id).status == "lapsed"
    assert len(outbox(app, "rematch_ended")) == 3
    late = sign_in(app, "s1@example.org")
    page = late.get(f"/games/{old.id}")
    assert "lapsed" in page.text and "Propose a rematch" in page.text
    token = form_for(page.text, f"/games/{old.id}/rematch")["fields"]["csrf_token"]
    gone = late.post(f"/games/{old.id}/rematch/{rematch.id}/yes", data={"csrf_token": token})
    assert gone.status_code == 400 and "no longer holds" in gone.text
    stranger = sign_in(app, "mod-s@example.org")  # no player of the game
    denied = stranger.post(
        f"/games/{old.id}/rematch", data={"csrf_token": csrf(stranger.get("/account").text)}
    )
    assert denied.status_code == 403 and "Only the players" in denied.text
