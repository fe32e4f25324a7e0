"""The receiver logs one INFO line per mail, saying what became of
it and naming no address in full; aiosmtpd's SMTP chatter (every command,
addresses in full) only at DEBUG."""

from __future__ import annotations

import logging
import smtplib

import pytest
from reply_helpers import inbound, reply_app, send, start_receiver, write_reply
from test_mail_replies import turn_mail


@pytest.fixture
def rapp(db_url, smtp, tmp_path):
    return reply_app(db_url, smtp, tmp_path)


def lines(caplog, level=logging.INFO):
    return [r for r in caplog.records if r.levelno >= level]


def test_one_info_line_per_mail_and_no_address_in_full(duo, rapp, caplog):
    caplog.set_level(logging.INFO)
    receiver = start_receiver(rapp)
    try:
        email, mail = turn_mail(duo)
        reply = write_reply(mail, email, "2")
        caplog.clear()
        send(receiver.port, reply)
        with smtplib.SMTP("127.0.0.1", receiver.port, timeout=10) as client:
            client.ehlo()
            client.mail("someone@evil.example")
            code, _ = client.rcpt("play+zzzz@reply.test")
            assert code == 550
    finally:
        receiver.stop()
    assert duo.game().seq == 1 and inbound(rapp)[0].status == "applied"
    said = [r.getMessage() for r in lines(caplog)]
    assert len(said) == 2, said
    assert said[0].startswith("mail from …@example.org to play+…@reply.test: applied (250)")
    assert "refused at RCPT" in said[1] and "play+…@reply.test" in said[1]
    whole = "\n".join(said)
    for address in (email, str(reply["To"]), "someone@evil.example", "play+zzzz"):
        assert address not in whole
    assert all(r.name == "pbem.receiver" for r in lines(caplog))


def test_the_smtp_chatter_shows_at_debug(duo, rapp, caplog):
    caplog.set_level(logging.DEBUG)
    receiver = start_receiver(rapp)
    try:
        email, mail = turn_mail(duo)
        send(receiver.port, write_reply(mail, email, "2"))
    finally:
        receiver.stop()
    chatter = [r for r in caplog.records if r.name == "mail.log"]
    assert chatter and all(r.levelno == logging.DEBUG for r in chatter)
    assert any("recip" in r.getMessage() for r in chatter)
