#!/usr/bin/env bash
# After changing a translatable text: extract the messages, merge them into
# the nl/de/fr catalogs (translate what is new there), then compile.
#   bash scripts/catalogs.sh            extract + update
#   bash scripts/catalogs.sh compile    compile the .po files to .mo
# Two kinds of catalog: the server's (server/translations/, domain
# "messages", from babel.cfg) and one per game package, in the game's own
# domain, its name (<package>/translations/<lang>/LC_MESSAGES/<name>.po, from
# the game's sources only), made by `pbem catalogs` (server/catalogs.py), the
# command a game outside the tree uses. A game package is a folder with a
# translations/ folder: engine/*/ and the plug-in game in tests/plugin_game/.
set -euo pipefail
cd "$(dirname "$0")/.."
PYBABEL=.venv/bin/pybabel
PBEM=.venv/bin/pbem
KEYWORDS=(-k words:2 -k lazy_gettext -k _l -k N_ -k msg -k nmsg:1,2)
GAME_PACKAGES=$(for d in engine/*/translations tests/plugin_game/*/translations; do
    if [ -d "$d" ]; then dirname "$d"; fi; done)

if [ "${1:-}" = compile ]; then
    "$PYBABEL" compile -d server/translations --statistics
    for package in $GAME_PACKAGES; do
        "$PBEM" catalogs "$package" compile
    done
    exit 0
fi

# update POT DIR DOMAIN: merge POT into DIR's nl/de/fr catalogs.
update() {
    local pot=$1 dir=$2 domain=$3
    for lang in nl de fr; do
        if [ -f "$dir/$lang/LC_MESSAGES/$domain.po" ]; then
            "$PYBABEL" update -i "$pot" -d "$dir" -D "$domain" -l "$lang" \
                --no-fuzzy-matching --no-wrap --ignore-obsolete
        else
            "$PYBABEL" init -i "$pot" -d "$dir" -D "$domain" -l "$lang" --no-wrap
        fi
    done
}

"$PYBABEL" extract -F babel.cfg "${KEYWORDS[@]}" --no-location --sort-output --no-wrap \
    --project pbem -o server/translations/messages.pot .
update server/translations/messages.pot server/translations messages
for package in $GAME_PACKAGES; do
    "$PBEM" catalogs "$package" extract update
done
