#!/usr/bin/env bash
# After changing a translatable text: extract the messages, merge them into
# the nl/de/fr catalogs (translate what is new there), then compile.
#   bash scripts/catalogs.sh            extract + update
#   bash scripts/catalogs.sh compile    compile the .po files to .mo
set -euo pipefail
cd "$(dirname "$0")/.."
PYBABEL=.venv/bin/pybabel
if [ "${1:-}" = compile ]; then
    exec "$PYBABEL" compile -d server/translations --statistics
fi
"$PYBABEL" extract -F babel.cfg -k words:2 -k lazy_gettext -k _l -k N_ \
    -k msg -k nmsg:1,2 --no-location --sort-output --no-wrap \
    --project pbem -o server/translations/messages.pot .
for lang in nl de fr; do
    if [ -f "server/translations/$lang/LC_MESSAGES/messages.po" ]; then
        "$PYBABEL" update -i server/translations/messages.pot -d server/translations -l "$lang" \
            --no-fuzzy-matching --no-wrap
    else
        "$PYBABEL" init -i server/translations/messages.pot -d server/translations -l "$lang"
    fi
done
