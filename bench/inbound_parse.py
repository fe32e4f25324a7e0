"""How long reading one hostile mail takes (server/mail/inbound.py): each
shape an attacker may send within INBOUND_MAX_BYTES (256 KB), parsed into
sender, recipients and command lines, with the time of the best of three
runs.  No shape may take a large part of a second: the receiver reads mails
one at a time in the time that others wait.

    .venv/bin/python bench/inbound_parse.py
    .venv/bin/python bench/inbound_parse.py --raw-parser   # the reply parser alone, for comparison
"""

from __future__ import annotations

import argparse
import random
import string
import sys
import time
from email import message_from_bytes, policy
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from server.mail import inbound  # noqa: E402

HEAD = (
    b"From: Player <player@example.org>\r\nTo: play+abc@reply.test\r\n"
    b"Subject: Re: your turn\r\nMessage-ID: <bench@example.org>\r\n"
)
LIMIT = 256 * 1024


def mail(body: str, head: bytes = HEAD) -> bytes:
    return head + b"Content-Type: text/plain; charset=utf-8\r\n\r\n" + body.encode()


def words(size: int) -> str:
    rng = random.Random(1)
    vocabulary = "the a to move settler mayor builder pass take quarry corn regards".split()
    out, length = [], 0
    while length < size:
        line = " ".join(rng.choice(vocabulary) for _ in range(9))
        out.append(line)
        length += len(line) + 1
    return "\n".join(out)


def shapes() -> dict[str, bytes]:
    """Mails of at most 256 KB, each aimed at a super-linear path."""
    rng = random.Random(2)
    many_parts = b"".join(b"--q\r\nContent-Type: text/plain\r\n\r\nx\r\n" for _ in range(5000))
    return {
        "1 and 10,000 blank lines": mail("1\n" + "\n" * 10_000),
        "1 and 120,000 blank lines": mail("1\n" + "\r\n" * 120_000),
        "40 KB of text": mail("1\n" + words(40_000)),
        "250 KB of text": mail("1\n" + words(250_000)),
        "lines of one space": mail("1\n" + " \n" * 100_000),
        "a line of 200 KB of spaces": mail("1\na" + " \t" * 100_000 + "b"),
        "no-break spaces": mail("1\na" + "\xa0" * 80_000 + "b"),
        "signature words a line": mail("1\n" + "Regards\n" * 30_000),
        "'On ... wrote:' a line": mail("1\n" + "On Mon wrote:\n" * 18_000),
        "printable noise": mail("".join(rng.choice(string.printable) for _ in range(250_000))),
        "From with 20,000 '('": HEAD.replace(b"From: Player", b"From: " + b"(" * 20_000) + b"\r\n1",
        "To with 10,000 addresses": HEAD
        + b"Cc: "
        + b", ".join(b"x%d@r.test" % i for i in range(10_000))
        + b"\r\n\r\n1",
        "Subject of 15,000 encoded words": HEAD
        + b"Subject: "
        + b" ".join(b"=?utf-8?q?a?=" for _ in range(15_000))
        + b"\r\n\r\n1",
        "20,000 header lines": HEAD + b"X-A: b\r\n" * 20_000 + b"\r\n1",
        "5,000 MIME parts": HEAD
        + b'Content-Type: multipart/mixed; boundary="q"\r\n\r\n'
        + many_parts
        + b"--q--\r\n",
        "32 nested multiparts": HEAD
        + b"".join(
            b'Content-Type: multipart/mixed; boundary="b%d"\r\n\r\n--b%d\r\n' % (i, i)
            for i in range(32)
        )
        + b"Content-Type: text/plain\r\n\r\n1\r\n",
    }


def best_of(runs: int, action) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--raw-parser",
        action="store_true",
        help="also time mail-parser-reply on the whole text (slow: minutes)",
    )
    args = parser.parse_args()
    worst = 0.0
    for name, raw in shapes().items():
        assert len(raw) <= LIMIT, (name, len(raw))
        took = best_of(3, lambda: inbound.parse(raw, ["play+abc@reply.test"]))
        worst = max(worst, took)
        line = f"{name:34} {len(raw) / 1024:6.0f} KB {took * 1000:8.1f} ms"
        if args.raw_parser:
            message = message_from_bytes(raw, policy=policy.compat32)
            text = inbound.plain_text(message)
            took = best_of(1, lambda: inbound._parser.read(text[:40_000]))
            line += f"   parser on the first 40 KB: {took:8.1f} s"
        print(line, flush=True)
    print(f"worst: {worst * 1000:.1f} ms")


if __name__ == "__main__":
    main()
