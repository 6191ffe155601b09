#!/usr/bin/env bash
# Makes the pgvector extension available to the local PostgreSQL and creates it in database
# `test`. Debian 12 ships no pgvector package for PostgreSQL 15, so when it is missing this builds
# pgvector from the source package of the next Debian release, fetched through the machine's own
# configured Debian mirror (no other host is used). Needs root; safe to run repeatedly.
set -euo pipefail
PSQL=(psql -h 127.0.0.1 -U postgres -d test -v ON_ERROR_STOP=1 -qtA)
available() { [ "$("${PSQL[@]}" -c "select count(*) from pg_available_extensions where name = 'vector'" 2>/dev/null)" = "1" ]; }

if ! available; then
  pg_major=$(ls /etc/postgresql | head -n 1)
  if apt-get install -y -qq "postgresql-${pg_major}-pgvector" >/dev/null 2>&1; then
    echo "installed postgresql-${pg_major}-pgvector"
  else
    mirror=$(awk '/^URIs:/ { print $2; exit }' /etc/apt/sources.list.d/*.sources 2>/dev/null || true)
    [ -n "$mirror" ] || mirror=$(awk '$1 == "deb" { print $2; exit }' /etc/apt/sources.list 2>/dev/null || true)
    [ -n "$mirror" ] || { echo "install-pgvector: no Debian mirror configured" >&2; exit 1; }
    work=$(mktemp -d)
    echo "deb-src ${mirror} trixie main" > "$work/src.list"
    apt_src=(-o "Dir::Etc::sourcelist=$work/src.list" -o Dir::Etc::sourceparts=/nonexistent -o APT::Get::List-Cleanup=0)
    echo "building pgvector for PostgreSQL ${pg_major} from source"
    apt-get install -y -qq "postgresql-server-dev-${pg_major}" make gcc >/dev/null
    apt-get update -qq "${apt_src[@]}" >/dev/null
    (cd "$work" && apt-get source --download-only -qq "${apt_src[@]}" pgvector >/dev/null)
    tar -xzf "$work"/pgvector_*.orig.tar.gz -C "$work"
    make -s -C "$(find "$work" -maxdepth 1 -type d -name 'pgvector-*' | head -n 1)" \
      PG_CONFIG="/usr/lib/postgresql/${pg_major}/bin/pg_config" install >/dev/null
    rm -rf "$work"
  fi
fi
"${PSQL[@]}" -c 'SET client_min_messages = warning' -c 'CREATE EXTENSION IF NOT EXISTS vector'
