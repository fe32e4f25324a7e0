"""The project's habits, held by the test command: the
linter, the formatter and the type checker find nothing (their settings are
in pyproject.toml), the guides build without a broken link, migrations
are numbered without gaps, the players' guides stay short and in players'
words, and no tracker number stands in for a reason."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str, timeout: int = 300) -> subprocess.CompletedProcess:
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")  # mkdocs' banner about its successor
    return subprocess.run(
        [sys.executable, "-m", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
    )


def test_ruff_finds_nothing():
    done = run("ruff", "check", "--no-cache", ".")
    assert done.returncode == 0, done.stdout + done.stderr


def test_ruff_format_would_change_nothing():
    done = run("ruff", "format", "--no-cache", "--check", ".")
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_finds_nothing():
    done = run("mypy", "--no-incremental", "--cache-dir", "/dev/null", timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_guides_build_without_a_broken_link(tmp_path):
    """mkdocs --strict fails on a link to a page or anchor that is not there;
    docs/hooks.py writes the settings reference from config/settings.py first."""
    done = run("mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert (tmp_path / "site" / "operators" / "settings" / "index.html").exists()


def test_migrations_from_0019_on_are_numbered_without_gaps():
    """Migrations run in the order of their names and each is recorded by
    name, so a gap breaks nothing; it only hides a migration a branch
    promised and did not write.  0018 was never written (the branch that had
    the number needed no schema change) and sites have run 0019 onwards since,
    so that gap stays; from 0019 on every number follows the one before."""
    numbers = sorted(
        int(m.group(1))
        for path in (ROOT / "migrations").glob("*.py")
        if (m := re.match(r"(\d{4})_\w+\.py$", path.name))
    )
    later = [n for n in numbers if n >= 19]
    assert later == list(range(19, 19 + len(later))), later
    assert len(numbers) == len(set(numbers)), "two migrations share a number"


# -- import circles in server/ ------------------------------------------------
# Two kinds of import are told apart.  One at the top of a module runs when
# the module is first imported: in a circle, one of the two is still half
# built when the other reads a name from it, and which one depends on which
# was imported first, so a circle of these breaks at random entry points.
# One inside a function runs when the function is called: it breaks nothing
# at import, which is why circles get hidden that way; but the two modules
# still cannot be read, tested or moved apart, so those circles fail too,
# in their own test, which names the imports that hide them.
# Only module-to-module edges count: importing server.web.x also runs
# server/web/__init__.py, the app factory's side of the layers (test_layers).


def server_modules() -> dict[str, Path]:
    found = {}
    for path in (ROOT / "server").rglob("*.py"):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def imports_of(path: Path, modules: dict[str, Path]) -> tuple[set[str], set[str]]:
    """The server modules ``path`` imports at module level, and those it
    imports only inside a function (an ``if TYPE_CHECKING`` block runs never)."""
    at_top: set[str] = set()
    in_functions: set[str] = set()

    def nearest_module(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    def targets(node: ast.Import | ast.ImportFrom) -> list[str]:
        if isinstance(node, ast.Import):
            return [a.name for a in node.names]
        # test_layers refuses relative imports in server/, so module is whole.
        return [f"{node.module}.{a.name}" for a in node.names]

    def walk(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                for name in targets(child):
                    if (module := nearest_module(name)) is not None:
                        (in_functions if in_function else at_top).add(module)
            elif isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                continue
            else:
                walk(
                    child,
                    in_function
                    or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda),
                )

    walk(ast.parse(path.read_text(), str(path)), False)
    me = next(name for name, p in modules.items() if p == path)
    return at_top - {me}, in_functions - {me} - at_top


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for target in sorted(edges.get(module, ())):
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            group = []
            while True:
                group.append(stack.pop())
                if group[-1] == module:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for module in sorted(edges):
        if module not in index:
            visit(module)
    return found


def import_graph() -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    modules = server_modules()
    at_top, in_functions = {}, {}
    for name, path in modules.items():
        at_top[name], in_functions[name] = imports_of(path, modules)
    return at_top, in_functions


def describe(group: list[str], *graphs: dict[str, set[str]]) -> str:
    lines = []
    for module in group:
        for graph, how in zip(graphs, ("imports", "imports in a function"), strict=False):
            for target in sorted(graph[module] & set(group)):
                lines.append(f"  {module} {how} {target}")
    return "\n".join([", ".join(group), *lines])


def test_no_import_circle_among_the_modules_of_server_at_module_level():
    at_top, _ = import_graph()
    found = circles(at_top)
    assert not found, "import circles:\n" + "\n".join(describe(g, at_top) for g in found)


def test_no_import_circle_hidden_in_a_function_either():
    """Move what both sides need to a module of its own, or hand a function
    in from the caller; a deferred import only hides the circle."""
    at_top, in_functions = import_graph()
    every = {m: at_top[m] | in_functions[m] for m in at_top}
    found = circles(every)
    assert not found, "import circles:\n" + "\n".join(
        describe(g, at_top, in_functions) for g in found
    )


def test_the_circle_finder_finds_a_circle():
    """The two tests above pass on a graph with no circle; this one shows
    they would see one."""
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def players_pages() -> dict[str, str]:
    """Each page of docs/players/ as the reader sees its prose: rendered by
    the same Markdown the guides use, code blocks left out (commands and
    examples are not reading), tags stripped."""
    import html

    import markdown

    pages = {}
    for page in sorted((ROOT / "docs" / "players").glob("*.md")):
        rendered = markdown.markdown(page.read_text(encoding="utf-8"), extensions=["tables"])
        prose = re.sub(r"<pre>.*?</pre>", " ", rendered, flags=re.S)
        pages[page.name] = html.unescape(re.sub(r"<[^>]+>", " ", prose))
    return pages


def column_names() -> set[str]:
    """Every column of server.models as code names it: `Model.field`, and each
    field and column name with an underscore (a one-word column such as
    `status` or `name` is also a plain English word, so it cannot be told
    apart from prose)."""
    import peewee

    from server import models

    names: set[str] = set()
    for model in vars(models).values():
        if (
            isinstance(model, type)
            and issubclass(model, peewee.Model)
            and model is not peewee.Model
        ):
            for name, field in model._meta.fields.items():
                names.add(f"{model.__name__}.{name}")
                names.update(n for n in (name, field.column_name) if "_" in n)
    return names


def test_players_pages_are_short_enough_to_read_through():
    """A player opens a guide to learn one thing; past about 800 words of
    prose a page is a reference nobody reads.  Longer matters belong on a
    page of their own, technical ones in the contributors' guide."""
    too_long = {name: n for name, text in players_pages().items() if (n := len(text.split())) > 800}
    assert not too_long, f"players' pages over 800 words (outside code blocks): {too_long}"


def test_players_pages_name_no_database_column():
    """Players' guides speak players' words: a column name (Seat.mail_hold_since,
    clock_policy) tells a player nothing and goes stale when the schema
    changes.  How the server does it goes to docs/contributors/."""
    columns = column_names()
    found = {}
    for name, text in players_pages().items():
        words = set(re.findall(r"\b[A-Za-z][A-Za-z0-9]*(?:[._][A-Za-z0-9]+)+\b", text))
        if hits := sorted(words & columns):
            found[name] = hits
    assert not found, f"players' pages name database columns: {found}"


def test_the_column_check_knows_the_clock_columns():
    """The check above is only as good as its list: it must hold the names a
    players' guide once used."""
    assert {"Seat.mail_hold_since", "mail_hold_since", "clock_policy"} <= column_names()


def test_no_tracker_numbers_in_code_tests_or_guides():
    """A comment, docstring or guide says why in its own words: a number in
    the issue tracker tells a reader nothing without the tracker at hand, and
    the tracker's numbering may not outlive a move of the project.  The
    history of what was done for which request is CHANGELOG.md's, which is
    outside these folders and keeps its numbers."""
    listed = subprocess.run(
        [
            "git",
            "ls-files",
            "--cached",
            "--others",
            "--exclude-standard",
            "server",
            "engine",
            "tests",
            "docs",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    pattern = re.compile(r"\bissue\s+#?\d+", re.IGNORECASE)
    found = []
    for name in listed:
        path = ROOT / name
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, FileNotFoundError, IsADirectoryError):
            continue  # compiled catalogs, images: no prose to read
        found += [
            f"{name}:{text.count(chr(10), 0, m.start()) + 1}: {m.group()}"
            for m in pattern.finditer(text)
        ]
    assert not found, "say why instead of naming a tracker number:\n" + "\n".join(found)
