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

A proven From: is not enough for a mail to act on the address it was sent
to: a player's signed mail to anybody, re-sent to their seat's reply
address, would play.  So when ``to_addr`` is given, the signature that
proves the sender must also sign a To: or Cc: header (``h=``) that holds
that address (the instances DKIM signs: the bottom ones); a trusted
Authentication-Results pass needs the address in the mail's single To: or
Cc: line, and a DKIM signature of the mail that covers that header.

Checking costs what the sender chooses, so it is bounded (a key's RSA work
holds the interpreter lock; a name server that never answers holds the
mail): keys above MAX_KEY_BITS bits or with another exponent than 65537 are
refused before dkimpy sees them, at most MAX_SIGNATURES signatures are
tried, and all DNS lookups of one mail share MAIL_AUTH_DNS_BUDGET seconds.

Anything else (no signature, a broken or misaligned one, no DNS answer) is
"not authenticated": services/reply_confirmations.py then asks the
account's own address to confirm.  A key that cannot be had is named as
RFC 8601 does: ``temperror`` (timeout, SERVFAIL, budget used up: may work
later) or ``permerror`` (no such record, a refused key).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import logging
import re
import time
from dataclasses import dataclass
from email import message_from_bytes, policy
from email.utils import getaddresses
from functools import lru_cache

import authres
import dkim
import dns.exception
import dns.rdatatype
import dns.resolver
from dkim.crypto import parse_public_key
from publicsuffixlist import PublicSuffixList

from server.mail import inbound

log = logging.getLogger(__name__)
# Where a DMARC record's adkim tag is read from.
ADKIM = re.compile(r"(?:^|;)\s*adkim\s*=\s*([rs])\s*(?:;|$)", re.I)
CATCHER_ID_PREFIX = "pbem-catcher-"
# What one mail may cost: RSA keys larger than this, or with another public
# exponent, are not verified (a 16,384-bit key with a 16,384-bit exponent
# took 10 s a signature); no more signatures than this are tried.
MAX_KEY_BITS = 4096
EXPONENT = 65537
MAX_SIGNATURES = 3
# dkimpy looks up each header name of h= across all headers: 20,000 names
# over 4,000 headers took 5 s a signature.  Real signatures name a few dozen.
MAX_SIGNED_HEADERS = 64


class LookupFailed(Exception):
    """A DNS record for DKIM could not be had, or was refused; ``str`` says
    which (``temperror: ...`` or ``permerror: ...``)."""


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


def check(raw: bytes, sender: str, settings, to_addr: str = "") -> Verdict:
    """Is ``raw`` authenticated for ``sender`` (the From: address as read),
    and, when ``to_addr`` is given, signed as sent to that address?"""
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
        if verdict.authenticated and to_addr:
            verdict = _results_addressed(msg, from_domain, to_addr, verdict)
        if verdict.authenticated:
            return verdict
        reasons.append(verdict.how)
    if settings.get("MAIL_AUTH_DKIM", True):
        verdict = _from_dkim(raw, from_domain, Lookups(settings), to_addr.strip().lower())
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
class Lookups:
    """The TXT lookups of one mail: through MAIL_AUTH_DNS ("host" or
    "host:port") when set, else the system's resolver; each at most
    MAIL_AUTH_DNS_TIMEOUT seconds and all of them together at most
    MAIL_AUTH_DNS_BUDGET seconds."""

    def __init__(self, settings):
        try:
            self.resolver = dns.resolver.Resolver(configure=not settings.get("MAIL_AUTH_DNS"))
        except dns.exception.DNSException:
            # No resolv.conf: every lookup finds nothing, so nothing is proven by DKIM.
            self.resolver = dns.resolver.Resolver(configure=False)
        if settings.get("MAIL_AUTH_DNS"):
            host, port = _host_port(str(settings["MAIL_AUTH_DNS"]))
            try:
                self.resolver.nameservers, self.resolver.port = [host], int(port)
            except ValueError:  # not an IP address: nothing is looked up
                log.error("MAIL_AUTH_DNS=%r is not an IP address (and port)", host)
                self.resolver.nameservers = []
        self.timeout = float(settings.get("MAIL_AUTH_DNS_TIMEOUT", 5.0))
        self.budget = float(settings.get("MAIL_AUTH_DNS_BUDGET", 6.0))
        self.deadline = time.monotonic() + self.budget

    def txt(self, name) -> bytes | None:
        """The TXT record at ``name``; None when there is none; LookupFailed
        (temperror) when DNS does not answer in time or fails."""
        name = name.decode("ascii") if isinstance(name, bytes) else name
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise LookupFailed(f"temperror: DNS budget of {self.budget:g} s used up")
        try:
            answer = self.resolver.resolve(
                name,
                dns.rdatatype.TXT,
                lifetime=min(self.timeout, left),
                raise_on_no_answer=False,
                search=False,
            )
        except dns.resolver.NXDOMAIN:
            return None
        except dns.exception.Timeout:
            raise LookupFailed(f"temperror: no DNS answer for {name} in time") from None
        except (dns.exception.DNSException, ValueError) as exc:
            # SERVFAIL, no name server, a name that is no name: maybe later.
            raise LookupFailed(f"temperror: DNS failed for {name} ({type(exc).__name__})") from None
        for rrset in answer.response.answer:
            if rrset.rdtype == dns.rdatatype.TXT:
                return b"".join(next(iter(rrset)).strings)
        return None

    def dkim_key(self, name, timeout=5) -> bytes:
        """dkimpy's ``dnsfunc``: the key record at ``name``, judged before
        dkimpy does any RSA work with it."""
        record = self.txt(name)
        if not record:
            shown = name.decode("ascii", "replace") if isinstance(name, bytes) else name
            raise LookupFailed(f"permerror: no key record at {shown}")
        reason = unverifiable_key(record)
        if reason:
            raise LookupFailed(f"permerror: {reason}")
        return record


def unverifiable_key(record: bytes) -> str:
    """Why a DKIM key record is refused ("" when it may be used): an RSA key
    above MAX_KEY_BITS bits or with another exponent than 65537 costs the
    verifier what the sender chooses.  A record dkimpy cannot read passes
    here: dkimpy refuses it itself, at no cost."""
    try:
        tags = dict(
            (k.strip().lower(), v.strip())
            for k, _, v in (t.partition(b"=") for t in record.split(b";"))
        )
    except ValueError:
        return ""
    if tags.get(b"k", b"rsa").lower() != b"rsa" or not tags.get(b"p"):
        return ""
    try:
        key = parse_public_key(base64.b64decode(b"".join(tags[b"p"].split())))
        bits, exponent = int(key["modulus"]).bit_length(), int(key["publicExponent"])
    except Exception:  # noqa: BLE001 - unreadable: dkimpy says so
        return ""
    if bits > MAX_KEY_BITS:
        return f"RSA key of {bits} bits refused (at most {MAX_KEY_BITS})"
    if exponent != EXPONENT:
        return f"RSA key with exponent other than {EXPONENT} refused"
    return ""


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


def _from_dkim(raw: bytes, from_domain: str, lookups: Lookups, to_addr: str = "") -> Verdict:
    try:
        signer = dkim.DKIM(raw, timeout=5)
        count = sum(1 for name, _ in signer.headers if name.lower() == b"dkim-signature")
    except Exception as exc:
        return Verdict(False, f"DKIM: unreadable ({type(exc).__name__})")
    if not count:
        return Verdict(False, "no DKIM signature")
    strict = _strict_alignment(from_domain, lookups)
    seen = []
    if count > MAX_SIGNATURES:
        seen.append(f"only the first {MAX_SIGNATURES} of {count} signatures tried")
    signatures = [v for n, v in signer.headers if n.lower() == b"dkim-signature"]
    for idx in range(min(count, MAX_SIGNATURES)):
        names = _tags(signatures[idx].decode("ascii", "replace")).get("h", "").count(":") + 1
        if names > MAX_SIGNED_HEADERS:
            seen.append(f"#{idx + 1}: permerror: h= names {names} headers")
            continue
        try:
            good = signer.verify(idx=idx, dnsfunc=lookups.dkim_key)
        except LookupFailed as exc:
            domain = (signer.domain or b"").decode("ascii", "replace").lower()
            log.info("DKIM key lookup for d=%s: %s", domain, exc)
            seen.append(f"#{idx + 1} d={domain}: {exc}")
            continue
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
        elif to_addr and not _signed_to(signer.headers, signer.signature_fields, to_addr):
            seen.append(f"#{idx + 1} d={domain}: {to_addr} is not among its signed To:/Cc:")
        else:
            return Verdict(True, f"DKIM d={domain} aligned with {from_domain}")
    return Verdict(False, "DKIM: " + "; ".join(seen))


def _signed_to(headers, fields, to_addr: str) -> bool:
    """Whether a signature with ``fields`` signs a To: or Cc: header of
    ``headers`` that holds ``to_addr``.  DKIM signs a header name's
    instances from the bottom up, as often as h= names it: a To: added on
    top of a signed mail is not signed."""
    names = [n.strip().lower() for n in fields.get(b"h", b"").split(b":")]
    for name in (b"to", b"cc"):
        instances = [v for n, v in headers if n.strip().lower() == name]
        signed = instances[len(instances) - min(names.count(name), len(instances)) :]
        if to_addr in _addresses(b", ".join(signed).decode("utf-8", "replace")):
            return True
    return False


def _addresses(value: str) -> set[str]:
    """The addresses of a To:/Cc: value, read as inbound.py reads them (cut
    first: the address parser is slow on long values and recurses on nested
    comments)."""
    text = " ".join(value[: inbound.MAX_HEADER].split())
    try:
        found = [a for _, a in getaddresses([text])]
    except (RecursionError, ValueError, IndexError):
        found = inbound.ADDR_SPEC.findall(text)
    return {a.strip().lower() for a in found if "@" in a}


def _results_addressed(msg, from_domain: str, to_addr: str, verdict: Verdict) -> Verdict:
    """A trusted server's pass counts for ``to_addr`` only when the mail has
    one To: and at most one Cc: line, one of them holds the address, and a
    DKIM signature of a domain aligned with From: signs that header (the
    server checked the signature; a mail whose signature leaves To: and Cc:
    unsigned could have been re-addressed)."""
    to_addr = to_addr.strip().lower()
    lines = {name: msg.get_all(name) or [] for name in ("To", "Cc")}
    if len(lines["To"]) > 1 or len(lines["Cc"]) > 1:
        return Verdict(False, f"{verdict.how}, but the mail has two To: or Cc: lines")
    holder = next((n for n, v in lines.items() if v and to_addr in _addresses(str(v[0]))), "")
    if not holder:
        return Verdict(False, f"{verdict.how}, but {to_addr} is not in its To:/Cc:")
    signatures = msg.get_all("DKIM-Signature") or []
    for value in signatures[:MAX_SIGNATURES]:
        tags = _tags(str(value))
        if aligned(from_domain, tags.get("d", "")) and holder.lower() in tags.get("h", "").split(
            ":"
        ):
            return verdict
    if not signatures:
        # Passed without DKIM (SPF): sent by the From: domain's own servers,
        # which a replay from elsewhere is not.
        return verdict
    return Verdict(False, f"{verdict.how}, but no aligned DKIM signature covers its {holder}:")


def _tags(value: str) -> dict[str, str]:
    """A DKIM-Signature's tags, white space removed, lower case."""
    return {
        k.strip().lower(): "".join(v.split()).lower()
        for k, _, v in (t.partition("=") for t in value.split(";"))
    }


def _strict_alignment(from_domain: str, lookups: Lookups) -> bool:
    """Whether the From: domain's DMARC record asks for strict DKIM
    alignment (``adkim=s``); the record of the organizational domain counts
    when the domain has none of its own (RFC 7489 section 6.6.3).  No
    answer in time: relaxed, as without a record."""
    for domain in dict.fromkeys([from_domain, organizational_domain(from_domain)]):
        try:
            record = lookups.txt(f"_dmarc.{domain}.")
        except LookupFailed as exc:
            log.info("DMARC record of %s: %s", domain, exc)
            return False
        if record and record.decode("ascii", "replace").lower().startswith("v=dmarc1"):
            found = ADKIM.search(record.decode("ascii", "replace"))
            return bool(found and found.group(1).lower() == "s")
    return False
