#!/usr/bin/env bash
# Installs everything the tests need (Python packages, Debian's chromium) and runs them.
set -euo pipefail
cd "$(dirname "$0")/.."
# chromium for the browser tests, dovecot for the IMAP poller's tests,
# pg_dump/pg_restore for pbem backup's (test_backup_restore.py).
if ! command -v chromium >/dev/null 2>&1 || ! [ -x /usr/sbin/dovecot ] \
        || ! command -v pg_restore >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ]; then
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium dovecot-imapd postgresql-client >/dev/null
    else
        sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium dovecot-imapd postgresql-client >/dev/null
    fi
fi
python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e '.[test]'
exec .venv/bin/python -m pytest "$@"
