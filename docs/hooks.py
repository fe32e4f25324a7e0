"""MkDocs hooks (mkdocs.yml): the settings reference, written from
config/settings.py at every build, so it cannot drift from the code; and
the changelog, the repository's CHANGELOG.md, as a page.

    python docs/hooks.py     prints the settings reference (the same text)
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SETTINGS = ROOT / "config" / "settings.py"
PAGE = "operators/settings.md"


def settings_reference(source: str) -> str:
    """Markdown: each comment block of the settings module with the settings
    under it (name, type, default), in the module's order."""
    tree = ast.parse(source)
    lines = source.splitlines()
    out = [
        "# Settings reference",
        "",
        "Generated from `config/settings.py` at every build of these pages "
        "(docs/hooks.py). Every name can be overridden by an environment "
        "variable of the same name; the type says how its text is read "
        "(bool: 1/0, true/false, yes/no, on/off; `X | None`: empty or "
        '"none" is None).',
        "",
    ]
    table_open = False
    for node in tree.body:
        if not (isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)):
            continue
        comment = _comment_above(lines, node.lineno - 1)
        if comment or not table_open:
            out += ["", comment or "", "", "| setting | type | default |", "|---|---|---|"]
            table_open = True
        default = ast.get_source_segment(source, node.value) if node.value is not None else ""
        kind = ast.get_source_segment(source, node.annotation)
        out.append(f"| `{node.target.id}` | `{kind}` | `{_cell(default or '')}` |")
    return "\n".join(out).replace("\n\n\n", "\n\n") + "\n"


def _comment_above(lines: list[str], index: int) -> str:
    """The comment lines right above line ``index`` (0-based), joined."""
    found = []
    i = index - 1
    while i >= 0 and lines[i].lstrip().startswith("#"):
        found.append(lines[i].lstrip()[1:].strip())
        i -= 1
    return " ".join(reversed(found))


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def on_files(files, config):
    from mkdocs.structure.files import File

    files.append(File.generated(config, PAGE, content=settings_reference(SETTINGS.read_text())))
    files.append(
        File.generated(config, "changelog.md", content=(ROOT / "CHANGELOG.md").read_text())
    )
    return files


if __name__ == "__main__":
    print(settings_reference(SETTINGS.read_text()), end="")
