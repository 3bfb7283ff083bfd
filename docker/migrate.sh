#!/bin/sh
# The migrate image's entry point: applies pending migrations of one app's database and exits.
# Usage: migrate.sh memory-api|errors-api (DATABASE_URL names the database).
set -eu
case "${1:-}" in
  memory-api | errors-api) exec node --import tsx "apps/$1/src/migrate.ts" ;;
  *) echo "migrate: name the app whose database to migrate: memory-api or errors-api (got \"${1:-}\")" >&2; exit 64 ;;
esac
