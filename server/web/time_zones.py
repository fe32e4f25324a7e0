"""A new account's first time zone, guessed so that deadlines read in local
time from the start (Settings changes it).  Without script the region of
the browser's languages says one (nl-NL: Europe/Amsterdam); with script,
static/timezone.js puts the browser's own zone in the sign-up form."""

from __future__ import annotations

from functools import cache
from importlib.resources import files

from server.services.clock.deadlines import zone_names

# Countries whose first zone in tzdata's zone.tab (listed from east to west,
# or north to south) is not where most of their people live.
MOST_PEOPLE = {
    "AU": "Australia/Sydney",
    "BR": "America/Sao_Paulo",
    "CA": "America/Toronto",
    "RU": "Europe/Moscow",
}


@cache
def zone_of_country() -> dict[str, str]:
    """Each country's zone, from the tzdata package's zone.tab."""
    zones: dict[str, str] = {}
    for line in files("tzdata").joinpath("zoneinfo", "zone.tab").read_text().splitlines():
        if line and not line.startswith("#"):
            country, _, zone = line.split("\t")[:3]
            zones.setdefault(country, zone)
    return zones | MOST_PEOPLE


def zone_for(languages) -> str:
    """The zone of the first language tag with a region (``de-AT``,
    ``pt_BR``) among the browser's ``(tag, quality)`` pairs, best first;
    UTC when none has one."""
    known = set(zone_names())
    for tag, _quality in languages:
        parts = tag.replace("_", "-").split("-")[1:]
        region = next((p.upper() for p in parts if len(p) == 2 and p.isalpha()), None)
        zone = zone_of_country().get(region or "")
        if zone in known:
            return zone
    return "UTC"
