"""Whether an incoming mail really comes from the address in its From:.

The From: header proves nothing: anybody can write any address there.  A
mail counts as sent by its From: address only when

- one of its DKIM signatures verifies (dkimpy, keys looked up in DNS) and its
  signing domain ``d=`` is aligned with the From: domain as that domain's
  DMARC record asks (``adkim=s``: the same domain; relaxed, the default: the
  same organizational domain, by the public suffix list); or
- the topmost ``Authentication-Results`` header written under an authserv-id
  the operator named (MAIL_AUTH_SERVERS: their own mail server, which checked
  DKIM/DMARC on arrival) says ``dmarc=pass``, or ``dkim=pass`` for a domain
  aligned with From:.  Headers under other ids, and any below the topmost one
  of a trusted id, were possibly written by the sender and are not read.

Anything else (no signature, a broken or misaligned one, no DNS answer) is
"not authenticated": services/reply_confirmations.py then asks the
account's own address to confirm.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import re
from dataclasses import dataclass
from email import message_from_bytes, policy
from email.utils import getaddresses
from functools import lru_cache

import authres
import dkim
import dns.exception
import dns.rdatatype
import dns.resolver
from publicsuffixlist import PublicSuffixList

log = logging.getLogger(__name__)
# Where a DMARC record's adkim tag is read from.
ADKIM = re.compile(r"(?:^|;)\s*adkim\s*=\s*([rs])\s*(?:;|$)", re.I)
CATCHER_ID_PREFIX = "pbem-catcher-"


@dataclass(frozen=True)
class Verdict:
    authenticated: bool
    how: str  # what proved it, or why nothing did (for the moderators' log)


@lru_cache(maxsize=1)
def _suffixes() -> PublicSuffixList:
    return PublicSuffixList()


def organizational_domain(domain: str) -> str:
    """``mail.example.co.uk`` -> ``example.co.uk`` (RFC 7489 section 3.2)."""
    domain = domain.strip(".").lower()
    return _suffixes().privatesuffix(domain) or domain


def aligned(from_domain: str, signer: str, strict: bool = False) -> bool:
    from_domain, signer = from_domain.strip(".").lower(), signer.strip(".").lower()
    if not from_domain or not signer:
        return False
    if strict:
        return from_domain == signer
    return organizational_domain(from_domain) == organizational_domain(signer)


def catcher_authserv_id(settings) -> str:
    """The id the dev mail catcher's Reply form writes its
    Authentication-Results under: derived from SECRET_KEY, so nobody outside
    can write it, and trusted only while MAIL_CATCHER_DIR is set."""
    digest = hmac.new(
        str(settings["SECRET_KEY"]).encode(), b"pbem-catcher-authserv", hashlib.sha256
    ).hexdigest()[:16]
    return f"{CATCHER_ID_PREFIX}{digest}.localhost"


def trusted_servers(settings) -> set[str]:
    ids = {s.strip().lower() for s in str(settings.get("MAIL_AUTH_SERVERS", "")).split(",")}
    if settings.get("MAIL_CATCHER_DIR"):
        ids.add(catcher_authserv_id(settings))
    return {i for i in ids if i}


def check(raw: bytes, sender: str, settings) -> Verdict:
    """Is ``raw`` authenticated for ``sender`` (the From: address as read)?"""
    try:
        msg = message_from_bytes(raw, policy=policy.compat32)
        from_domain = _single_from_domain(msg, sender)
    except Exception as exc:  # hostile mail: any parse failure means "not proven"
        return Verdict(False, f"unreadable headers ({type(exc).__name__})")
    if not from_domain:
        return Verdict(False, "not exactly one From: address, or it differs from the sender")
    reasons = []
    servers = trusted_servers(settings)
    if servers:
        verdict = _from_results(msg, from_domain, servers)
        if verdict.authenticated:
            return verdict
        reasons.append(verdict.how)
    if settings.get("MAIL_AUTH_DKIM", True):
        verdict = _from_dkim(raw, from_domain, _dns_function(settings))
        if verdict.authenticated:
            return verdict
        reasons.append(verdict.how)
    return Verdict(False, "; ".join(reasons) or "nothing to check it by")


def _single_from_domain(msg, sender: str) -> str:
    """The From: domain when there is exactly one From: with one address that
    is ``sender``; "" otherwise (two From: lines are a known way to show one
    address and have another checked)."""
    values = msg.get_all("From") or []
    addresses = [a for _, a in getaddresses([str(v) for v in values]) if a]
    if len(values) != 1 or len(addresses) != 1 or addresses[0].strip().lower() != sender:
        return ""
    return sender.rpartition("@")[2]


# -- Authentication-Results from the operator's own server ---------------------
def _from_results(msg, from_domain: str, servers: set[str]) -> Verdict:
    for value in msg.get_all("Authentication-Results") or []:
        text = " ".join(str(value).split())
        first = (text.split(";", 1)[0].split() or [""])[0].lower()
        try:
            header = authres.AuthenticationResultsHeader.parse("Authentication-Results: " + text)
        except Exception:  # authres raises its own and plain errors on junk
            if first in servers:
                # Ours but unreadable: what lies below it proves nothing.
                return Verdict(False, f"{first}: unreadable Authentication-Results")
            continue
        authserv = str(header.authserv_id or "").lower()
        if authserv not in servers:
            continue
        # The topmost header under a trusted id is the one our server wrote;
        # a sender can only have put theirs below it.
        return _results_verdict(header, authserv, from_domain)
    return Verdict(False, "no Authentication-Results from a trusted server")


def _results_verdict(header, authserv: str, from_domain: str) -> Verdict:
    for result in header.results:
        method, outcome = str(result.method).lower(), str(result.result).lower()
        props = {f"{p.type}.{p.name}".lower(): str(p.value).lower() for p in result.properties}
        if (
            method == "dmarc"
            and outcome == "pass"
            and props.get("header.from", "").strip(".") == from_domain
        ):
            return Verdict(True, f"{authserv}: dmarc=pass header.from={from_domain}")
        if method == "dkim" and outcome == "pass":
            signer = props.get("header.d") or props.get("header.i", "").rpartition("@")[2]
            if aligned(from_domain, signer):
                return Verdict(True, f"{authserv}: dkim=pass header.d={signer}")
    return Verdict(False, f"{authserv}: no dmarc=pass or aligned dkim=pass for {from_domain}")


# -- DKIM checked here ----------------------------------------------------------
def _dns_function(settings):
    """A TXT lookup for dkimpy and the DMARC record: through MAIL_AUTH_DNS
    ("host" or "host:port") when set, else the system's resolver."""
    try:
        resolver = dns.resolver.Resolver(configure=not settings.get("MAIL_AUTH_DNS"))
    except dns.exception.DNSException:
        # No resolv.conf: every lookup finds nothing, so nothing is proven by DKIM.
        resolver = dns.resolver.Resolver(configure=False)
    if settings.get("MAIL_AUTH_DNS"):
        host, port = _host_port(str(settings["MAIL_AUTH_DNS"]))
        try:
            resolver.nameservers, resolver.port = [host], int(port)
        except ValueError:  # not an IP address: nothing is looked up
            log.error("MAIL_AUTH_DNS=%r is not an IP address (and port)", host)
            resolver.nameservers = []
    lifetime = float(settings.get("MAIL_AUTH_DNS_TIMEOUT", 5.0))

    def txt(name, timeout=5):
        name = name.decode("ascii") if isinstance(name, bytes) else name
        try:
            answer = resolver.resolve(
                name, dns.rdatatype.TXT, lifetime=lifetime, raise_on_no_answer=False, search=False
            )
        except (dns.exception.DNSException, ValueError):
            return None
        for rrset in answer.response.answer:
            if rrset.rdtype == dns.rdatatype.TXT:
                return b"".join(next(iter(rrset)).strings)
        return None

    return txt


def _host_port(text: str) -> tuple[str, str]:
    """``1.2.3.4``, ``1.2.3.4:5353``, ``::1``, ``[::1]:5353``."""
    text = text.strip()
    if text.startswith("["):
        host, _, rest = text[1:].partition("]")
        return host, rest.lstrip(":") or "53"
    host, _, port = text.rpartition(":")
    if text.count(":") != 1 or not port.isdigit():
        return text, "53"
    return host, port


def _from_dkim(raw: bytes, from_domain: str, txt) -> Verdict:
    try:
        signer = dkim.DKIM(raw, timeout=5)
        count = sum(1 for name, _ in signer.headers if name.lower() == b"dkim-signature")
    except Exception as exc:
        return Verdict(False, f"DKIM: unreadable ({type(exc).__name__})")
    if not count:
        return Verdict(False, "no DKIM signature")
    strict = _strict_alignment(from_domain, txt)
    seen = []
    for idx in range(min(count, 5)):
        try:
            good = signer.verify(idx=idx, dnsfunc=txt)
        except Exception as exc:  # dkim.DKIMException and DNS trouble alike
            seen.append(f"#{idx + 1}: {type(exc).__name__}")
            continue
        domain = (signer.domain or b"").decode("ascii", "replace").lower()
        if not good:
            seen.append(f"#{idx + 1} d={domain}: does not verify")
        elif b"l" in signer.signature_fields:
            # A body length limit lets anyone add text below what was signed.
            seen.append(f"#{idx + 1} d={domain}: signs only part of the body (l=)")
        elif not aligned(from_domain, domain, strict):
            seen.append(f"#{idx + 1} d={domain}: not aligned with {from_domain}")
        else:
            return Verdict(True, f"DKIM d={domain} aligned with {from_domain}")
    return Verdict(False, "DKIM: " + "; ".join(seen))


def _strict_alignment(from_domain: str, txt) -> bool:
    """Whether the From: domain's DMARC record asks for strict DKIM
    alignment (``adkim=s``); the record of the organizational domain counts
    when the domain has none of its own (RFC 7489 section 6.6.3)."""
    for domain in dict.fromkeys([from_domain, organizational_domain(from_domain)]):
        record = txt(f"_dmarc.{domain}.".encode())
        if record and record.decode("ascii", "replace").lower().startswith("v=dmarc1"):
            found = ADKIM.search(record.decode("ascii", "replace"))
            return bool(found and found.group(1).lower() == "s")
    return False
