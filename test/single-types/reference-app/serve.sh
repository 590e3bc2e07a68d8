#!/usr/bin/env bash
# Serves the reference (Strapi 4.26.2, installed by ../shared/oracle/install.sh) in the FOREGROUND on
# 127.0.0.1:PORT, with the single-types app of this folder added to the conformance app, on a fresh
# copy of the small conformance fixture holding one full-access API token (`writer-token`):
# what ../record.mjs asks.
#
#   test/single-types/reference-app/serve.sh 4600 [SHADOW_DIR]      (default /tmp/oracle-single)
set -euo pipefail
PORT="${1:?usage: serve.sh PORT [SHADOW_DIR]}"
SHADOW="${2:-/tmp/oracle-single}"
HERE="$(cd "$(dirname "$0")" && pwd)"
REPO="$(cd "$HERE/../../.." && pwd)"
SHARED="${SHARED_DIR:-$REPO/../shared}"
APP="${ORACLE_DIR:-$HOME/.cache/strapi-oracle}/strapi-app"
[ -d "$APP/node_modules/@strapi/strapi" ] || { echo "no Strapi install at $APP (run $SHARED/oracle/install.sh)" >&2; exit 1; }

rm -rf "$SHADOW"
mkdir -p "$SHADOW/.tmp"
for f in config src database public package.json .env; do cp -a "$APP/$f" "$SHADOW/$f"; done
ln -sfn "$APP/node_modules" "$SHADOW/node_modules"
cp -a "$HERE/api/." "$SHADOW/src/api/"
mkdir -p "$SHADOW/src/components"
cp -a "$HERE/components/." "$SHADOW/src/components/"

cp "$SHARED/conformance/db/strapi-small.db" "$SHADOW/.tmp/data.db"
KEY=$(node -e "console.log(require('crypto').createHmac('sha512','oracle-api-token-salt').update('writer-token').digest('hex'))")
node -e "
const db = new (require('$APP/node_modules/better-sqlite3'))('$SHADOW/.tmp/data.db');
db.prepare(\"INSERT INTO strapi_api_tokens (name, description, type, access_key, created_at, updated_at) VALUES ('writer', '', 'full-access', ?, 1704096000000, 1704096000000)\").run('$KEY');
db.close();"

export NODE_ENV=production HOST=127.0.0.1 PORT="$PORT" DATABASE_FILENAME=.tmp/data.db
export STRAPI_TELEMETRY_DISABLED=true STRAPI_DISABLE_UPDATE_NOTIFICATION=true
cd "$SHADOW"
exec node "$APP/node_modules/@strapi/strapi/bin/strapi.js" start
