"""The Postfix configuration for the operator's reply and bounce domains,
written by ``pbem deploy-files`` next to the units (docs/operators/mail.md):

- ``pbem-postfix-main.cf``: lines to add to /etc/postfix/main.cf.  The
  domains are relay domains (so mail from the internet is taken for them, not
  refused with "Relay access denied"), routed to the receiver in the protocol
  it speaks, each recipient verified against the receiver at RCPT (an
  unknown address is refused there, so no bounce goes to a forged sender),
  and a milter that fails defers the mail instead of passing it unchecked;
- ``pbem-postfix-master.cf``: a line to add to /etc/postfix/master.cf, the
  ``pbem`` transport: Postfix's lmtp (or smtp) client, one recipient per
  delivery (the receiver answers a mail's data once, not once per
  recipient as LMTP would have it);
- ``pbem-postfix-transport``: the route of each domain (texthash: no postmap);
- ``pbem-postfix-recipients``: which domains' recipients are verified.

Pure text from the settings; nothing is run here."""

from __future__ import annotations

# What deploy/env.example sets; used when the settings name no domain yet.
EXAMPLE_DOMAINS = {
    "REPLY_DOMAIN": "reply.pbem.example.org",
    "BOUNCE_DOMAIN": "bounce.pbem.example.org",
}
MAIN = "pbem-postfix-main.cf"
MASTER = "pbem-postfix-master.cf"
TRANSPORT = "pbem-postfix-transport"
RECIPIENTS = "pbem-postfix-recipients"


def domains(settings) -> list[str]:
    """The domains whose mail goes to the receiver, reply domain first."""
    named = [settings.get(name, "").strip().lower() for name in ("REPLY_DOMAIN", "BOUNCE_DOMAIN")]
    if not any(named):
        named = list(EXAMPLE_DOMAINS.values())
    return list(dict.fromkeys(name for name in named if name))


def lmtp(settings) -> bool:
    return str(settings["RECEIVER_PROTOCOL"]).strip().lower() == "lmtp"


def nexthop(settings) -> str:
    """The receiver as a Postfix transport (the ``pbem`` service of
    master.cf, which speaks the protocol the receiver speaks)."""
    host, port = settings["RECEIVER_HOST"], int(settings["RECEIVER_PORT"])
    if lmtp(settings):
        return f"pbem:inet:[{host}]:{port}" if ":" in host else f"pbem:inet:{host}:{port}"
    return f"pbem:[{host}]:{port}"  # brackets: no MX lookup for the receiver


def master_cf(settings) -> str:
    client = "lmtp" if lmtp(settings) else "smtp"
    protocol = settings["RECEIVER_PROTOCOL"]
    return (
        f"# pbem: the transport to the receiver, RECEIVER_PROTOCOL={protocol}\n"
        "# (add to master.cf; pbem_destination_recipient_limit = 1 is in main.cf)\n"
        f"pbem      unix  -       -       n       -       -       {client}\n"
    )


def main_cf(settings, postfix_dir: str = "/etc/postfix") -> str:
    listed = ", ".join(domains(settings))
    return f"""\
# pbem: mail for {listed} goes to the pbem receiver
# ({nexthop(settings)}, RECEIVER_PROTOCOL={settings["RECEIVER_PROTOCOL"]}).
# Add these lines to {postfix_dir}/main.cf (merge them into settings of the
# same name you have already) and the line of {MASTER} to master.cf, copy
# {TRANSPORT} and {RECIPIENTS} to {postfix_dir}/, then
# `postfix check && postfix reload`.

# Taken from the internet (without this: "454 4.7.1 Relay access denied").
relay_domains = {listed}
transport_maps = texthash:{postfix_dir}/{TRANSPORT}
# The receiver answers each mail once: one recipient per delivery.
pbem_destination_recipient_limit = 1

# Each recipient of these domains is asked of the receiver first (a probe that
# ends after RCPT; the answer is cached): an address the receiver does not
# know is refused at RCPT, so Postfix never bounces a forged mail to the
# address it claims to come from (backscatter).
smtpd_recipient_restrictions =
    permit_mynetworks,
    reject_unauth_destination,
    check_recipient_access texthash:{postfix_dir}/{RECIPIENTS}
# The receiver's "no" is final (the address's signature is wrong): refuse for
# good, not the default 450 that has the sending server try again for days.
unverified_recipient_reject_code = 550

# A milter (OpenDKIM, OpenDMARC, rspamd) that is down or fails must defer the
# mail (4xx, the sender retries), never pass it: the receiver trusts the
# Authentication-Results header such a milter writes (MAIL_AUTH_SERVERS), and
# one written by the sender would then go through unremoved.
milter_default_action = tempfail
# smtpd_milters = inet:localhost:8891
# non_smtpd_milters = $smtpd_milters
"""


def transport(settings) -> str:
    lines = [f"{domain}    {nexthop(settings)}" for domain in domains(settings)]
    return "# pbem: the receiver takes the mail of these domains\n" + "\n".join(lines) + "\n"


def recipients(settings) -> str:
    lines = [f"{domain}    reject_unverified_recipient" for domain in domains(settings)]
    return (
        "# pbem: recipients of these domains are verified against the receiver at RCPT\n"
        + "\n".join(lines)
        + "\n"
    )


def files(settings, postfix_dir: str = "/etc/postfix") -> dict[str, str]:
    """File name → text."""
    return {
        MAIN: main_cf(settings, postfix_dir),
        MASTER: master_cf(settings),
        TRANSPORT: transport(settings),
        RECIPIENTS: recipients(settings),
    }
