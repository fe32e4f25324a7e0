#!/usr/bin/env bash
# Runs pbem on the embedded defaults: migrates the SQLite file, then starts the
# web server, the mail sender and the built-in mail catcher on loopback.
# Ctrl-C stops everything.  Settings: config/settings.py and environment
# variables of the same names (README).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
# Reinstall only when the package description changed since the last run.
stamp=.venv/.pbem-installed
want="$(sha256sum pyproject.toml | cut -d' ' -f1)"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ] || ! .venv/bin/python -c "import server, flask" 2>/dev/null; then
    .venv/bin/python -m pip install -q --upgrade pip
    .venv/bin/python -m pip install -q -e .
    echo "$want" > "$stamp"
fi
exec .venv/bin/python -m server.processes.serve "$@"
