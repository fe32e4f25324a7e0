"""How SpamAssassin scores every kind of mail the site writes: each mail as
the sender hands it to SMTP (DKIM-signed with a key made here, Date of the
moment), behind one Received line as the receiving MTA adds it, scored by
Debian's spamassassin with local rules only (``-L``: no DNS blocklists,
no DKIM key lookups, no Razor/Pyzor).  Prints the score and the rules hit
per kind, and whether a content rule fired: a body, rawbody, uri or full
rule, or a header rule on Subject, with a score above 0.01 (rules scored
0.001, such as HTML_MESSAGE, are building blocks of other rules and change
nothing).  Exits 1 when one did.

    .venv/bin/python bench/spam_scores.py [language]

Needs the ``spamassassin`` Debian package: when it is missing and we are
root, it is installed with apt-get first.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from email.utils import format_datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "server"), str(ROOT / "tests")]

RULES = Path("/usr/share/spamassassin")
CONTENT_TYPES = {"body", "rawbody", "uri", "full"}
RULE = re.compile(r"^\s*(body|rawbody|uri|full|header|meta|mimeheader)\s+(\w+)\s+(.*)$")
REPORT = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s+([A-Z0-9_]+)\s")
FROM = "pbem <pbem@games.example.org>"


def ensure_spamassassin() -> str:
    found = shutil.which("spamassassin")
    if found:
        return found
    if os.geteuid() != 0:
        sys.exit("spamassassin is missing: apt-get install spamassassin")
    subprocess.run(
        ["apt-get", "install", "-y", "--no-install-recommends", "spamassassin"],
        check=True,
        env=dict(os.environ, DEBIAN_FRONTEND="noninteractive"),
    )
    return shutil.which("spamassassin") or sys.exit("spamassassin did not install")


def content_rules() -> set[str]:
    """The names of the rules that read what a mail says."""
    found = set()
    for cf in RULES.glob("*.cf"):
        for line in cf.read_text(errors="replace").splitlines():
            match = RULE.match(line)
            if not match:
                continue
            kind, name, test = match.groups()
            if kind in CONTENT_TYPES or (kind == "header" and test.startswith("Subject")):
                found.add(name)
    return found


def score(spamassassin: str, raw: bytes) -> tuple[float, list[tuple[str, float]]]:
    done = subprocess.run(
        [spamassassin, "-L", "-t"], input=raw, capture_output=True, check=True, timeout=120
    )
    text = done.stdout.decode("utf-8", "replace")
    status = re.search(r"X-Spam-Status: \w+, score=(-?[\d.]+)", text)
    report = text.split("Content analysis details:", 1)[-1]
    hits = [(m.group(2), float(m.group(1))) for m in map(REPORT.match, report.splitlines()) if m]
    return float(status.group(1)), hits


def mails(language: str, folder: Path) -> list[tuple[str, bytes]]:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa
    from every_mail import queue_every_kind, site

    from server.mail import dkim_signing, smtp_sender
    from server.models import utcnow

    key = folder / "dkim.pem"
    key.write_bytes(
        rsa.generate_private_key(public_exponent=65537, key_size=2048).private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.TraditionalOpenSSL,
            serialization.NoEncryption(),
        )
    )
    app, ids = site(
        folder,
        language,
        base_url="https://games.example.org",
        MAIL_FROM=FROM,
        MAIL_ID_DOMAIN="games.example.org",
        DKIM_PRIVATE_KEY_FILE=str(key),
    )
    signer = dkim_signing.check(app.config)
    received = (
        "Received: from mx.games.example.org (mx.games.example.org [93.184.216.34])\r\n"
        "\tby mx.example.net (Postfix) with ESMTPS id 4ABCDE1234;\r\n"
        f"\t{format_datetime(utcnow().replace(tzinfo=None), usegmt=False)} +0000\r\n"
    ).encode()
    out = []
    for row in queue_every_kind(app, ids):
        raw = signer.sign(smtp_sender.wire_bytes(smtp_sender.build_message(row, FROM)))
        out.append((row.kind, received + raw))
    return out


def main() -> int:
    language = sys.argv[1] if len(sys.argv) > 1 else "en"
    spamassassin = ensure_spamassassin()
    content = content_rules()
    version = subprocess.run([spamassassin, "--version"], capture_output=True, text=True)
    print(version.stdout.splitlines()[0], f"; {len(content)} content rules; language {language}")
    fired = []
    with tempfile.TemporaryDirectory() as tmp:
        scored = [(kind, *score(spamassassin, raw)) for kind, raw in mails(language, Path(tmp))]
    width = max(len(kind) for kind, _, _ in scored)
    for kind, total, hits in scored:
        rules = ", ".join(f"{name}={points:g}" for name, points in hits) or "-"
        print(f"{kind:<{width}}  {total:5.1f}  {rules}")
        fired += [(kind, name) for name, points in hits if name in content and points > 0.01]
    totals = [total for _, total, _ in scored]
    print(f"{len(scored)} mails: score {min(totals):.1f} to {max(totals):.1f}")
    if fired:
        print("content rules fired:", ", ".join(f"{kind}: {name}" for kind, name in fired))
        return 1
    print("no content rule fired")
    return 0


if __name__ == "__main__":
    sys.exit(main())
