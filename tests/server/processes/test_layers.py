"""server/ is layered, and imports run one way (server/__init__.py):

    web → services → mail → bottom (settings, db, models); processes → services.

Nothing imports web/ but the app factory; nothing imports processes/.  Every
package says in its docstring what lives there and what it may import.
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
SERVER = ROOT / "server"
BOTTOM = {
    "server.settings",
    "server.db",
    "server.models",
    "server.i18n",
    "server.envfile",
    "server.database_check",
    "server.deploy_files",
    "server.postfix_files",
    "server.exim_files",
    "server.dns_records",
    "server.version",
    "server.wakeup",
    "server.typography",
    "server.settings_guide",
    "server.language_codes",
    "server.catalogs",
}
# The app factory and the entry points that need the whole app: gunicorn's
# module, the ``pbem`` command and the kit for games' tests (a whole server).
FACTORY = {"server", "server.wsgi", "server.cli", "server.testing"}

# layer -> the layers it may import (itself included)
ALLOWED = {
    "bottom": {"bottom"},
    "notify": {"notify", "bottom"},
    "mail": {"mail", "notify", "bottom"},
    "services": {"services", "mail", "notify", "bottom"},
    "web": {"web", "services", "mail", "notify", "bottom"},
    "processes": {"processes", "services", "mail", "notify", "bottom"},
    "factory": {"factory", "web", "services", "mail", "notify", "bottom"},
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def layer_of(module: str) -> str:
    if module in FACTORY:
        return "factory"
    if module in BOTTOM:
        return "bottom"
    package = module.split(".")[1]
    if package in ("notify", "mail", "services", "web", "processes"):
        return package
    raise AssertionError(f"{module} belongs to no layer: put it in a package or the bottom")


def is_module(name: str) -> bool:
    relative = Path(*name.split("."))
    return (ROOT / relative).with_suffix(".py").exists() or (
        ROOT / relative / "__init__.py"
    ).exists()


def imported_modules(path: Path) -> set[str]:
    """Every server module ``path`` imports, at any depth in the file;
    ``from server.x import y`` counts as server.x.y when y is a module."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            for alias in node.names:
                sub = f"{node.module}.{alias.name}"
                found.add(sub if is_module(sub) else node.module)
        elif isinstance(node, ast.ImportFrom):
            raise AssertionError(f"{path}: relative import; write the full module path")
    return {name for name in found if name == "server" or name.startswith("server.")}


def server_files():
    files = sorted(SERVER.rglob("*.py"))
    assert len(files) > 20
    return files


@pytest.mark.parametrize("path", server_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_imports_point_down(path):
    mine = layer_of(module_name(path))
    for target in imported_modules(path):
        theirs = layer_of(target)
        assert theirs in ALLOWED[mine], (
            f"{module_name(path)} ({mine}) imports {target} ({theirs}); "
            f"{mine} may import only {sorted(ALLOWED[mine])}"
        )


def test_every_package_says_what_lives_there():
    packages = [SERVER, *(p.parent for p in SERVER.rglob("__init__.py"))]
    for package in set(packages):
        doc = ast.get_docstring(ast.parse((package / "__init__.py").read_text()))
        assert doc and len(doc) > 80, (
            f"{package} needs a docstring: what lives here, what it may import"
        )
        if package != SERVER:
            assert "import" in doc, f"{package}'s docstring must say what it may import"


def test_no_two_modules_share_a_name_within_a_layer():
    by_layer: dict[tuple[str, str], list[Path]] = {}
    for path in server_files():
        if path.name != "__init__.py":
            by_layer.setdefault((layer_of(module_name(path)), path.stem), []).append(path)
    twins = {key: paths for key, paths in by_layer.items() if len(paths) > 1}
    assert not twins


def test_the_rule_catches_an_upward_import(tmp_path):
    """The check itself: a service importing a page is refused."""
    bad = tmp_path / "bad.py"
    bad.write_text("from server.web import play\n")
    assert "server.web.play" in imported_modules(bad)
    assert layer_of("server.web.play") not in ALLOWED[layer_of("server.services.moves")]
