"""pbem's version, as installed: setuptools-scm makes it from the git tag at
build time (pyproject.toml); `pbem --version` and every page's footer show it."""

from __future__ import annotations

from functools import lru_cache
from importlib.metadata import PackageNotFoundError, version

UNKNOWN = "unknown"


@lru_cache(maxsize=1)
def pbem_version() -> str:
    """The installed distribution's version; "unknown" when pbem runs from a
    checkout that was never installed."""
    try:
        return version("pbem")
    except PackageNotFoundError:
        return UNKNOWN
