"""The compiled engine (scripts/build_fast_engine.py) runs only while it
matches its source.

Python imports an extension module before the source file of the same
name, so a build left in place after the source changed (a ``git pull``
without a rebuild) would silently play the old rules.  The build records
the SHA-256 of every source file it compiled in ``engine/_compiled_source.json``;
when ``engine`` is imported and a build is present, each recorded file is
hashed again (about a millisecond).  If any differs, a file is missing or
the record is, a warning says so and those modules are imported from their
source: pure Python, slower, the rules as they are now.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.util
import json
import sys
import sysconfig
import warnings
from pathlib import Path

RECORD = "_compiled_source.json"
GROUP_GLOB = "_compiled*.so"  # the shared library the build puts beside this file


class StaleBuildWarning(RuntimeWarning):
    """The compiled engine does not match its source: pure Python runs."""


def file_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def module_name(relative: str) -> str:
    return relative.removesuffix(".py").removesuffix("/__init__").replace("/", ".")


def record(tree: Path, sources: list[str]) -> dict[str, str]:
    """What the build writes: each compiled source (relative to ``tree``) and its hash."""
    return {relative: file_hash(tree / relative) for relative in sources}


def compiled_modules(engine_dir: Path) -> list[Path]:
    """The build's extension modules in ``engine_dir``, the shared library first."""
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    return sorted(engine_dir.glob(GROUP_GLOB)) + sorted(
        p for p in engine_dir.rglob(f"*{suffix}") if not p.name.startswith("_compiled")
    )


def mismatch(engine_dir: Path) -> str:
    """Why the build in ``engine_dir`` must not run ("" when it matches, or there is none)."""
    built = compiled_modules(engine_dir)
    if not built:
        return ""
    tree = engine_dir.parent
    try:
        recorded = json.loads((engine_dir / RECORD).read_text())
    except (OSError, ValueError):
        return f"no record of the source it was built from ({RECORD})"
    for relative, digest in sorted(recorded.items()):
        path = tree / relative
        if not path.is_file():
            return f"{relative} is gone"
        if file_hash(path) != digest:
            return f"{relative} changed since the build"
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    for extension in built:
        name = extension.name
        if name.startswith("_compiled"):
            continue
        relative = str(extension.relative_to(tree)).removesuffix(suffix) + ".py"
        if relative not in recorded:
            return f"{relative} was compiled but is not in the record"
    return ""


class SourceFirst(importlib.abc.MetaPathFinder):
    """Imports the named modules from their .py files, never the extension beside them."""

    def __init__(self, sources: dict[str, Path]):
        self.sources = sources

    def find_spec(self, fullname, path=None, target=None):
        source = self.sources.get(fullname)
        if source is None:
            return None
        if source.name == "__init__.py":  # a package: its submodules are found beside it
            return importlib.util.spec_from_file_location(
                fullname, source, submodule_search_locations=[str(source.parent)]
            )
        return importlib.util.spec_from_file_location(fullname, source)


def guard(package_file: str) -> bool:
    """Called by ``engine/__init__.py`` with its ``__file__``: True when a
    build is present and used; with a stale one, warn and import the source
    instead."""
    engine_dir = Path(package_file).parent
    reason = mismatch(engine_dir)
    if not reason:
        return bool(compiled_modules(engine_dir))
    tree = engine_dir.parent
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    sources = {}
    for extension in compiled_modules(engine_dir):
        if extension.name.startswith("_compiled"):
            continue
        relative = str(extension.relative_to(tree)).removesuffix(suffix) + ".py"
        if (tree / relative).is_file():
            sources[module_name(relative)] = tree / relative
    sys.meta_path.insert(0, SourceFirst(sources))
    warnings.warn(
        f"the compiled engine in {engine_dir} does not match its source ({reason}): "
        "running the pure Python engine; rebuild it with scripts/build_fast_engine.py "
        "or remove it with --clean",
        StaleBuildWarning,
        stacklevel=2,
    )
    return False
