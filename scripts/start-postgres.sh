#!/usr/bin/env bash
# Start a local PostgreSQL (Debian's packages and cluster tools) listening on
# 127.0.0.1 only, make sure role `atelier` (password `atelier`) and database
# `atelier_test` exist, and print the DATABASE_URL on stdout (everything else
# goes to stderr), so callers can do:
#
#   export DATABASE_URL="$(scripts/start-postgres.sh)"
#
# Options:
#   --fresh   drop and recreate the test database (CI uses this so a reused
#             machine never tests against an old schema)
#
# Idempotent; works as root in a container without systemd.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
DB_USER=atelier
DB_PASSWORD=atelier
DB_NAME=atelier_test
fresh=0
for arg in "$@"; do
  case "$arg" in
    --fresh) fresh=1 ;;
    *) echo "start-postgres: unknown option '$arg'" >&2; exit 2 ;;
  esac
done

log() { echo "start-postgres: $*" >&2; }

"$here/install-deps.sh" postgres >&2

as_postgres() {
  if [ "$(id -un)" = postgres ]; then
    "$@"
  elif [ "$(id -u)" -eq 0 ]; then
    runuser -u postgres -- "$@"
  else
    sudo -n -u postgres -- "$@"
  fi
}

# The socket/lock directory lives on /run, which a container may start empty.
if [ "$(id -u)" -eq 0 ]; then
  install -d -o postgres -g postgres -m 2775 /var/run/postgresql
fi

# Pick the cluster: the first existing one with the newest server version,
# else create "<newest installed version>/main".
version="" cluster=""
if read -r version cluster _ < <(pg_lsclusters -h 2>/dev/null | sort -k1,1nr | head -n1) && [ -n "$version" ]; then
  log "using cluster $version/$cluster"
else
  version="$(ls /usr/lib/postgresql | sort -n | tail -n1)"
  cluster=main
  log "creating cluster $version/$cluster"
  pg_createcluster "$version" "$cluster" >&2
fi

# A drop-in in conf.d (Debian's postgresql.conf includes it) keeps the
# packaged config untouched. The test suite starts many apps at once, each
# with its own connection pool: the default 100 connections run out.
MAX_CONNECTIONS=600
confdir="/etc/postgresql/$version/$cluster"
dropin="$confdir/conf.d/atelier.conf"
if ! grep -qs "^listen_addresses = '127.0.0.1'" "$dropin" || ! grep -qs "^max_connections = $MAX_CONNECTIONS" "$dropin"; then
  install -d "$confdir/conf.d"
  printf "# Written by Atelier's scripts/start-postgres.sh\nlisten_addresses = '127.0.0.1'\nmax_connections = %s\n" \
    "$MAX_CONNECTIONS" > "$dropin"
fi
port="$(pg_conftool -s "$version" "$cluster" show port)"
status="$(pg_lsclusters -h | awk -v v="$version" -v c="$cluster" '$1==v && $2==c {print $4}')"

if [ "$status" = online ]; then
  listening="$(as_postgres psql -p "$port" -XAtqc 'SHOW listen_addresses' postgres)"
  connections="$(as_postgres psql -p "$port" -XAtqc 'SHOW max_connections' postgres)"
  if [ "$listening" != 127.0.0.1 ] || [ "$connections" != "$MAX_CONNECTIONS" ]; then
    log "restarting $version/$cluster: listen on 127.0.0.1 only (was '$listening'), $MAX_CONNECTIONS connections (was $connections)"
    pg_ctlcluster "$version" "$cluster" restart >&2
  else
    log "$version/$cluster already running on port $port"
  fi
else
  log "starting $version/$cluster on 127.0.0.1:$port"
  pg_ctlcluster "$version" "$cluster" start >&2
fi

for _ in $(seq 1 60); do
  pg_isready -q -h 127.0.0.1 -p "$port" && break
  sleep 1
done
pg_isready -h 127.0.0.1 -p "$port" >&2

psql_admin() { as_postgres psql -p "$port" -X -q -v ON_ERROR_STOP=1 -d postgres "$@"; }

psql_admin <<SQL >&2
DO \$\$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '$DB_USER') THEN
    CREATE ROLE $DB_USER LOGIN PASSWORD '$DB_PASSWORD';
  ELSE
    ALTER ROLE $DB_USER LOGIN PASSWORD '$DB_PASSWORD';
  END IF;
END
\$\$;
SQL

if [ "$fresh" -eq 1 ]; then
  log "recreating database $DB_NAME"
  psql_admin -c "DROP DATABASE IF EXISTS $DB_NAME WITH (FORCE)" >&2
fi
psql_admin <<SQL >&2
SELECT 'CREATE DATABASE $DB_NAME OWNER $DB_USER'
WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = '$DB_NAME')\gexec
-- A throw-away test database does not need durable commits; this is much faster.
ALTER DATABASE $DB_NAME SET synchronous_commit = off;
SQL

url="postgres://$DB_USER:$DB_PASSWORD@127.0.0.1:$port/$DB_NAME"
# Prove the credentials work over TCP, as the server will connect.
PGPASSWORD="$DB_PASSWORD" psql "postgresql://$DB_USER@127.0.0.1:$port/$DB_NAME" -XAtqc 'SELECT 1' >/dev/null
echo "$url"
