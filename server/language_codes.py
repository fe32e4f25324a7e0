"""Which languages pbem speaks, by code, and how a code someone sends
(a setting, a browser's choice) becomes one of them.  Its own module because
both the catalogs (i18n.py) and the number formats (typography.py) need it,
and i18n.py polishes its catalogs with typography.py."""

from __future__ import annotations

DEFAULT = "en"
# In the order the settings page offers them, each in its own words.
LANGUAGES = {"en": "English", "nl": "Nederlands", "de": "Deutsch", "fr": "Français"}


def known(code: str | None) -> str | None:
    """``code`` if we speak it (a region is dropped: nl-BE is nl), else None."""
    base = (code or "").replace("_", "-").split("-")[0].lower()
    return base if base in LANGUAGES else None
