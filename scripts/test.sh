#!/usr/bin/env bash
# Installs everything the tests need (Python packages, Debian's chromium) and runs them.
set -euo pipefail
cd "$(dirname "$0")/.."
# chromium for the browser tests, dovecot for the IMAP poller's tests, nginx
# and openssl for the https deployment test, systemd for systemd-analyze
# (the units' check), pg_dump/pg_restore for pbem backup's tests.
packages="chromium dovecot-imapd nginx-light openssl systemd postgresql-client"
if ! command -v chromium >/dev/null 2>&1 || ! [ -x /usr/sbin/dovecot ] \
        || ! command -v nginx >/dev/null 2>&1 || ! command -v systemd-analyze >/dev/null 2>&1 \
        || ! command -v pg_restore >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ]; then
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $packages >/dev/null
    else
        sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $packages >/dev/null
    fi
fi
python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -c constraints.txt -e '.[test]'
# A game that is not part of pbem, installed as its own package: it proves
# that games are plug-ins (tests/server/test_plugin_game.py).
.venv/bin/python -m pip install -q -c constraints.txt -e tests/plugin_game
exec .venv/bin/python -m pytest "$@"
