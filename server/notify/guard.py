"""No channel may make the server post to its own network (SSRF): the host
of every URL whose host the player chooses is resolved, and every address it
resolves to must be a public one.  Checked when a channel is saved and
again right before each notice goes out (a name may resolve elsewhere
later).  NOTIFY_ALLOW_PRIVATE_HOSTS lifts it, for tests and for sites whose
chat server lives beside them."""

from __future__ import annotations

import ipaddress
import socket

from engine.words import N_


class Refused(ValueError):
    """A destination the server may not post to; the message is for people."""


def check_host(settings, host: str, port: int | None) -> None:
    if settings.get("NOTIFY_ALLOW_PRIVATE_HOSTS"):
        return
    if not host:
        raise Refused(N_("The address names no host."))
    try:
        found = socket.getaddrinfo(host.strip("[]"), port or 443, proto=socket.IPPROTO_TCP)
    except (OSError, UnicodeError):
        raise Refused(N_("The host of that address cannot be found.")) from None
    for *_, sockaddr in found:
        if not is_public(str(sockaddr[0])):
            raise Refused(
                N_("That address points into a private network; the server does not post there.")
            )


def is_public(address: str) -> bool:
    ip = ipaddress.ip_address(address.split("%")[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_global and not ip.is_multicast
