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
# The compiled engine (scripts/build_fast_engine.py), when this machine has
# a C compiler and Python's headers: built once, and again only when the
# source changed (a build that does not match its source is never loaded,
# so a failed or skipped build leaves the pure Python engine running).
if [ "${PBEM_NO_COMPILE:-}" != "1" ] && command -v cc >/dev/null \
   && .venv/bin/python -c 'import sysconfig, os, sys; sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))'; then
    log=.venv/fast-engine.log
    if ! .venv/bin/python -c "import mypyc" 2>/dev/null; then
        .venv/bin/python -m pip install -c constraints.txt mypy setuptools >"$log" 2>&1 || true
    fi
    if .venv/bin/python -c "import mypyc" 2>/dev/null; then
        if [ ! -f engine/_compiled_source.json ]; then
            echo "Building the compiled engine once (a few minutes; PBEM_NO_COMPILE=1 skips it)..." >&2
        fi
        if ! .venv/bin/python scripts/build_fast_engine.py --if-stale --quiet >>"$log" 2>&1; then
            echo "The compiled engine did not build (see $log); the pure Python engine runs." >&2
        fi
    fi
fi
exec .venv/bin/python -m server.processes.serve "$@"
