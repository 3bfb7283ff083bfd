#!/bin/sh
# The official image's start, in short: an empty data directory is initialised with POSTGRES_USER and
# POSTGRES_PASSWORD, POSTGRES_DB is created and /docker-entrypoint-initdb.d/*.sql run, all on a
# server reachable only over its socket; then the server starts listening on every address.
set -eu
user=${POSTGRES_USER:-postgres}
db=${POSTGRES_DB:-$user}
export PGPASSWORD="${POSTGRES_PASSWORD:?POSTGRES_PASSWORD is required}"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  printf '%s' "$PGPASSWORD" >/tmp/pwfile
  initdb -U "$user" --pwfile=/tmp/pwfile -A scram-sha-256 -D "$PGDATA" >/dev/null
  rm /tmp/pwfile
  echo "host all all all scram-sha-256" >>"$PGDATA/pg_hba.conf"
  pg_ctl -D "$PGDATA" -o "-c listen_addresses='' -k /tmp" -w start >/dev/null
  [ "$db" = postgres ] || psql -q -h /tmp -U "$user" -d postgres -c "CREATE DATABASE \"$db\""
  for f in /docker-entrypoint-initdb.d/*.sql; do
    [ -e "$f" ] && psql -q -v ON_ERROR_STOP=1 -h /tmp -U "$user" -d "$db" -f "$f"
  done
  pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
fi
exec postgres -D "$PGDATA" -c listen_addresses='*' -k /tmp
