#!/usr/bin/env bash
# Installs everything the tests need (Python packages, Debian's chromium) and runs them.
set -euo pipefail
cd "$(dirname "$0")/.."
# chromium for the browser tests, dovecot for the IMAP poller's tests, nginx
# and openssl for the https deployment test, systemd for systemd-analyze
# (the units' check), pg_dump/pg_restore for pbem backup's tests, npm for
# axe-core (the accessibility tests), postfix for the mail recipe's test
# (its own instance; the system's /etc/postfix is not used).
# Only what is missing is installed: a machine may carry Node.js from another
# source (NodeSource's nodejs bundles npm and conflicts with Debian's npm).
missing=""
need() { command -v "$1" >/dev/null 2>&1 || [ -x "$1" ] || missing="$missing $2"; }
need chromium chromium
need /usr/sbin/dovecot dovecot-imapd
need nginx nginx-light
need openssl openssl
need systemd-analyze systemd
need pg_restore postgresql-client
need /usr/sbin/postfix postfix
need node nodejs
need npm npm
if [ -n "$missing" ]; then
    sudo=""
    [ "$(id -u)" = 0 ] || sudo=sudo
    $sudo apt-get update -qq
    # postfix asks nothing and sets up no system mail server:
    echo "postfix postfix/main_mailer_type select No configuration" | $sudo debconf-set-selections
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
fi
# axe-core from the npm registry, once, into a cache folder
# (tests/server/web/test_accessibility.py injects axe.min.js into each page).
AXE_VERSION=4.14.1
if ! [ -f ".cache/axe-core-$AXE_VERSION/axe.min.js" ]; then
    work=$(mktemp -d)
    (cd "$work" && npm pack --silent "axe-core@$AXE_VERSION" >/dev/null && tar xzf axe-core-*.tgz)
    mkdir -p ".cache/axe-core-$AXE_VERSION"
    cp "$work/package/axe.min.js" "$work/package/LICENSE" ".cache/axe-core-$AXE_VERSION/"
    rm -rf "$work"
fi
export PBEM_AXE_JS="${PBEM_AXE_JS:-$PWD/.cache/axe-core-$AXE_VERSION/axe.min.js}"
python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -c constraints.txt -e '.[test]'
# A game that is not part of pbem, installed as its own package: it proves
# that games are plug-ins (tests/server/processes/test_plugin_game.py).
.venv/bin/python -m pip install -q -c constraints.txt -e tests/plugin_game
exec .venv/bin/python -m pytest "$@"
