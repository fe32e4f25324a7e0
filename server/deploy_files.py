"""The files of the README's Deploy steps (deploy/ in a checkout, shipped
inside the package as server/_deploy): ``pbem deploy-files DIR`` writes them
out, so a server needs the package and nothing else.  With them go the
Postfix and Exim files for the operator's domains (server/postfix_files.py,
server/exim_files.py), made from the settings."""

from __future__ import annotations

from pathlib import Path

from server import exim_files, postfix_files
from server.settings import CHECKOUT, SHIPPED

DEPLOY = SHIPPED / ("deploy" if CHECKOUT else "_deploy")
SHIPPED_NAMES = ("*.service", "*.conf", "env.example")


def shipped() -> list[Path]:
    return sorted(path for pattern in SHIPPED_NAMES for path in DEPLOY.glob(pattern))


def write_all(folder: str | Path, settings: dict | None = None) -> list[Path]:
    """Copy every shipped file into ``folder`` (made if missing), and with
    ``settings`` the Postfix and Exim files for its domains; nothing is written when
    one of them is there already (FileExistsError)."""
    folder = Path(folder)
    contents = {source.name: source.read_bytes() for source in shipped()}
    if settings is not None:
        made = postfix_files.files(settings) | exim_files.files(settings)
        for name, text in made.items():
            contents[name] = text.encode()
    targets = [folder / name for name in contents]
    for target in targets:
        if target.exists():
            raise FileExistsError(17, "exists", str(target))
    folder.mkdir(parents=True, exist_ok=True)
    for target in targets:
        target.write_bytes(contents[target.name])
    return targets
