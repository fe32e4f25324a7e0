"""engine/ imports run one way: no module imports, directly or round about, a
module that imports it back.

Every import statement counts, at the top of a module or inside a function;
and none may be inside a function, where it hides a cycle (the import only
runs at the call).  ``from pkg import name`` is an edge to the submodule
``pkg.name`` when there is one, else to ``pkg`` itself (its ``__init__``).
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "engine"


def engine_modules() -> dict[str, Path]:
    """Dotted module name -> file, for every module under engine/."""
    modules = {}
    for path in sorted(ENGINE.rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    assert len(modules) > 10
    return modules


def imported(
    node: ast.Import | ast.ImportFrom, name: str, path: Path, modules: dict[str, Path]
) -> list[str]:
    """The engine modules one import statement in module ``name`` stands for."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names if a.name in modules]
    base = node.module or ""
    if node.level:  # relative: from . / .. import
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for _ in range(node.level - 1):
            package = package.rpartition(".")[0]
        base = f"{package}.{base}" if base else package
    found = []
    for alias in node.names:
        if f"{base}.{alias.name}" in modules:
            found.append(f"{base}.{alias.name}")
        elif base in modules:
            found.append(base)
    return found


def import_graph() -> dict[str, set[str]]:
    modules = engine_modules()
    graph = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(), str(path))
        graph[name] = {
            target
            for node in ast.walk(tree)
            if isinstance(node, (ast.Import, ast.ImportFrom))
            for target in imported(node, name, path, modules)
        }
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str]:
    """One cycle as [a, b, …, a], or [] when there is none (depth first)."""
    done: set[str] = set()
    path: list[str] = []

    def visit(node: str) -> list[str]:
        if node in path:
            return path[path.index(node) :] + [node]
        if node in done:
            return []
        path.append(node)
        for target in sorted(graph.get(node, ())):
            cycle = visit(target)
            if cycle:
                return cycle
        path.pop()
        done.add(node)
        return []

    for start in sorted(graph):
        cycle = visit(start)
        if cycle:
            return cycle
    return []


def test_engine_modules_import_each_other_without_a_cycle():
    cycle = find_cycle(import_graph())
    assert not cycle, "import cycle in engine/: " + " -> ".join(cycle)


def test_engine_imports_only_at_module_level():
    """An import inside a function hides a cycle until the function runs."""
    hidden = {}  # (file, line) -> the innermost function or class
    for path in engine_modules().values():
        tree = ast.parse(path.read_text(), str(path))
        for scope in ast.walk(tree):  # outer scopes come first
            if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                for node in ast.walk(scope):
                    if isinstance(node, (ast.Import, ast.ImportFrom)):
                        hidden[str(path.relative_to(ROOT)), node.lineno] = scope.name
    assert not hidden, "imports inside functions or classes:\n" + "\n".join(
        f"{where}:{line} in {scope}" for (where, line), scope in sorted(hidden.items())
    )


def test_the_cycle_check_finds_and_names_a_cycle():
    graph = {"a": {"b"}, "b": {"c", "d"}, "c": {"a"}, "d": set()}
    assert find_cycle(graph) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": {"d"}, "c": {"b"}, "d": set()}) == []
