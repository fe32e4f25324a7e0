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


# NAT64 prefixes: RFC 6052's well-known /96 (IPv4 in the last 32 bits) and
# RFC 8215's local-use /48 (its operator may place the IPv4 address after a
# /48, /56, /64 or /96 prefix, so each place is judged).
NAT64 = ipaddress.ip_network("64:ff9b::/96")
NAT64_LOCAL = ipaddress.ip_network("64:ff9b:1::/48")


def is_public(address: str) -> bool:
    ip = ipaddress.ip_address(address.split("%")[0])
    return all(a.is_global and not a.is_multicast for a in [ip, *embedded_ipv4(ip)])


def embedded_ipv4(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> list:
    """The IPv4 addresses an IPv6 address may lead to: ``ipaddress`` calls
    ``::7f00:1``, ``64:ff9b::7f00:1`` and ``2002:7f00:1::`` global, yet each
    reaches 127.0.0.1.  IPv4-mapped ``::ffff:a.b.c.d``, IPv4-compatible
    ``::a.b.c.d``, NAT64, 6to4 (2002::/16) and Teredo (2001::/32: its server
    and its client)."""
    if not isinstance(ip, ipaddress.IPv6Address):
        return []
    value, found = int(ip), []
    if ip.ipv4_mapped is not None:
        found.append(ip.ipv4_mapped)
    if ip.sixtofour is not None:
        found.append(ip.sixtofour)
    if ip.teredo is not None:
        found.extend(ip.teredo)
    if ip in NAT64 or (value >> 32 == 0 and value > 1):
        # NAT64, or IPv4-compatible (deprecated; not :: or ::1, judged as they are).
        found.append(ipaddress.IPv4Address(value & 0xFFFFFFFF))
    if ip in NAT64_LOCAL:
        octets = ip.packed
        # RFC 6052 section 2.2: the IPv4 octets skip bits 64-71 (the "u" octet).
        for start in (6, 7, 8, 12):  # a /48, /56, /64 and /96 prefix
            v4 = (octets[start : start + 4] if start >= 9 else octets[start:8] + octets[9:])[:4]
            found.append(ipaddress.IPv4Address(bytes(v4)))
    return found
