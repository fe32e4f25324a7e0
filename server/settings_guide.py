"""The settings guide (docs/operators/settings.md), written from
config/settings.py: each setting with its type, default and the comment
above it, so the guide cannot fall behind the file.  Refresh it with
``python -m server.settings_guide > docs/operators/settings.md``
(tests/server/processes/test_settings_guide.py fails when it is stale)."""

from __future__ import annotations

import re

from server.settings import CONFIG_FILE

SETTING = re.compile(r"^([A-Z][A-Z0-9_]*): ([^=]+?) = (.*)$")

HEAD = """# Settings

<!-- Written by `python -m server.settings_guide` from config/settings.py; do not edit. -->

Every setting below is read from the environment variable of the same name
(for a deployment: the environment file, /etc/pbem/env, see
[Deploying](deploy.md)); without one, the default of config/settings.py
applies.  A value that does not parse as the setting's type stops the start
with a message naming it.  SECRET_KEY has no default on purpose: it comes
from the environment or from a key file made once in the instance folder.

| Setting | Type | Default | Meaning |
|---|---|---|---|
"""


def settings_with_comments(text: str) -> list[tuple[str, str, str, str]]:
    """(name, type, default, meaning) of each setting in the text of
    config/settings.py; a setting under another without a comment of its
    own shares the comment of its group."""
    found: list[tuple[str, str, str, str]] = []
    comment: list[str] = []
    last_was_setting = False
    for line in text.splitlines():
        if not line.strip():
            comment, last_was_setting = [], False
        elif line.startswith("#"):
            if last_was_setting:
                comment, last_was_setting = [], False
            comment.append(line.lstrip("#").strip())
        elif match := SETTING.match(line):
            name, kind, default = match.groups()
            found.append((name, kind.strip(), default.strip(), " ".join(comment)))
            last_was_setting = True
    return found


def cell(text: str) -> str:
    return text.replace("|", "\\|") or " "


def markdown() -> str:
    rows = [
        f"| `{name}` | {cell(kind)} | `{cell(default)}` | {cell(meaning)} |"
        for name, kind, default, meaning in settings_with_comments(CONFIG_FILE.read_text())
    ]
    return HEAD + "\n".join(rows) + "\n"


if __name__ == "__main__":
    print(markdown(), end="")
