#!/usr/bin/env bash
# Runs pbem on the embedded defaults: migrates the SQLite file, then starts the
# web server, the mail sender and the built-in mail catcher on loopback.
# Ctrl-C stops everything.  Settings: config/settings.py and environment
# variables of the same names (README).  The address comes last, once the
# page answers.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
# Reinstall only when the package description or the pinned versions changed
# since the last run.  pip's own output goes to a log, shown only on failure.
stamp=.venv/.pbem-installed
want="$(cat pyproject.toml constraints.txt | sha256sum | cut -d' ' -f1)"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ] || ! .venv/bin/python -c "import server, flask" 2>/dev/null; then
    echo "Installing pbem and its dependencies into .venv (the first time: a minute or two)..."
    log=.venv/pip-install.log
    if ! { .venv/bin/python -m pip install --upgrade pip \
           && .venv/bin/python -m pip install -c constraints.txt -e .; } >"$log" 2>&1; then
        tail -n 30 "$log" >&2
        echo "The installation failed; the whole output is in $log." >&2
        exit 1
    fi
    echo "$want" > "$stamp"
fi
exec .venv/bin/python -m server.processes.serve "$@"
