"""The Exim 4 configuration for the operator's reply and bounce domains, for
Debian's split configuration (``dc_use_split_config='true'``), written by
``pbem deploy-files`` beside the Postfix files (docs/operators/mail.md,
"Exim instead of Postfix"):

- ``pbem-exim-main``: /etc/exim4/conf.d/main/00_pbem, the domain list and
  the macro that has Debian's RCPT ACL include the file below;
- ``pbem-exim-rcpt-acl``: /etc/exim4/pbem-exim-rcpt-acl, each recipient of
  these domains asked of the receiver at RCPT (a callout): an unknown one is
  refused there, so Exim never bounces a forged mail to the address it claims
  to come from (backscatter).  No ``defer_ok``: a receiver that is down gives
  451, the sender retries;
- ``pbem-exim-router``: /etc/exim4/conf.d/router/190_pbem, ahead of Debian's
  ``dnslookup_relay_to_domains`` (200), routing the domains to the receiver;
- ``pbem-exim-transport``: /etc/exim4/conf.d/transport/30_pbem, the smtp
  transport in the protocol the receiver speaks, one recipient per delivery.

Pure text from the settings; nothing is run here."""

from __future__ import annotations

from server.postfix_files import domains, lmtp

MAIN = "pbem-exim-main"
ACL = "pbem-exim-rcpt-acl"
ROUTER = "pbem-exim-router"
TRANSPORT = "pbem-exim-transport"
PLACES = {
    MAIN: "/etc/exim4/conf.d/main/00_pbem",
    ACL: "/etc/exim4/pbem-exim-rcpt-acl",
    ROUTER: "/etc/exim4/conf.d/router/190_pbem",
    TRANSPORT: "/etc/exim4/conf.d/transport/30_pbem",
}


def main(settings, acl_path: str = PLACES[ACL]) -> str:
    listed = " : ".join(domains(settings))
    return f"""\
# pbem: mail for these domains goes to the pbem receiver ({PLACES[MAIN]}).
# Name them in dc_relay_domains of /etc/exim4/update-exim4.conf.conf too
# (Debian's RCPT ACL refuses "relay not permitted" before it includes ours).
domainlist pbem_domains = {listed}
CHECK_RCPT_LOCAL_ACL_FILE = {acl_path}
"""


def rcpt_acl(settings) -> str:
    return """\
  # pbem: each recipient of pbem_domains is asked of the receiver (a callout
  # that ends after RCPT): an address it does not know is refused here with
  # 550, never bounced later to a forged sender.  No defer_ok: a receiver
  # that is down answers 451 and the sender tries again.
  deny
    domains = +pbem_domains
    !verify = recipient/callout=30s
"""


def router(settings) -> str:
    # A colon separates Exim's host list: an IPv6 address's are doubled.
    host = str(settings["RECEIVER_HOST"]).replace(":", "::")
    return f"""\
# pbem: the reply and bounce domains go to the receiver ({PLACES[ROUTER]},
# before Debian's dnslookup_relay_to_domains, which would look up their MX).
pbem_receiver:
  debug_print = "R: pbem_receiver for $local_part@$domain"
  driver = manualroute
  domains = +pbem_domains
  route_list = * {host}
  transport = pbem_receiver
  # The receiver is on this host: deliver there all the same.
  self = send
  no_more
"""


def transport(settings) -> str:
    protocol = "lmtp" if lmtp(settings) else "smtp"
    return f"""\
# pbem: the receiver, RECEIVER_PROTOCOL={settings["RECEIVER_PROTOCOL"]} ({PLACES[TRANSPORT]}).
pbem_receiver:
  driver = smtp
  protocol = {protocol}
  port = {int(settings["RECEIVER_PORT"])}
  allow_localhost
  # The receiver answers each mail once: one recipient per delivery.
  max_rcpt = 1
"""


def files(settings, acl_path: str = PLACES[ACL]) -> dict[str, str]:
    """File name → text."""
    return {
        MAIN: main(settings, acl_path),
        ACL: rcpt_acl(settings),
        ROUTER: router(settings),
        TRANSPORT: transport(settings),
    }
