#!/bin/sh
# The migrate image's entry point: applies pending migrations of one app's database and exits.
# Usage: migrate.sh memory-api|errors-api (DATABASE_URL names the database).
#        migrate.sh memory-api-reembed: re-embeds stored memories with the configured model after a
#        change of embedding model (resumable; EMBEDDER / EMBEDDER_URL as memory-api gets them).
set -eu
case "${1:-}" in
  memory-api | errors-api) exec node --import tsx "apps/$1/src/migrate.ts" ;;
  memory-api-reembed) exec node --import tsx apps/memory-api/src/reembed.ts ;;
  *) echo "migrate: name the app whose database to migrate: memory-api or errors-api, or memory-api-reembed (got \"${1:-}\")" >&2; exit 64 ;;
esac
