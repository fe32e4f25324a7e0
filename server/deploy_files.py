"""The files of the README's Deploy steps (deploy/ in a checkout, shipped
inside the package as server/_deploy): ``pbem deploy-files DIR`` writes them
out, so a server needs the package and nothing else."""

from __future__ import annotations

from pathlib import Path

from server.settings import CHECKOUT, SHIPPED

DEPLOY = SHIPPED / ("deploy" if CHECKOUT else "_deploy")
SHIPPED_NAMES = ("*.service", "*.conf", "env.example")


def shipped() -> list[Path]:
    return sorted(path for pattern in SHIPPED_NAMES for path in DEPLOY.glob(pattern))


def write_all(folder: str | Path) -> list[Path]:
    """Copy every shipped file into ``folder`` (made if missing); nothing is
    written when one of them is there already (FileExistsError)."""
    folder = Path(folder)
    targets = [(source, folder / source.name) for source in shipped()]
    for _, target in targets:
        if target.exists():
            raise FileExistsError(17, "exists", str(target))
    folder.mkdir(parents=True, exist_ok=True)
    for source, target in targets:
        target.write_bytes(source.read_bytes())
    return [target for _, target in targets]
