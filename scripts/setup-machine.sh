#!/usr/bin/env bash
# Everything the test suite needs on this machine, installed or started when missing:
# Redis and PostgreSQL running (127.0.0.1:6379 / :5432, database `test`), the pgvector extension,
# Chromium for the chat-page tests, nginx for the load-balanced cluster test, Prometheus (and
# promtool) for the metrics test, and the corpus of
# real documents the RAG tests ingest (scripts/build-corpus.sh: about 3 minutes once). Fast and
# silent when all is there; safe to run repeatedly.
# Installing needs root (apt-get); without it, a missing part stops this script in its first
# seconds with the one command to run, instead of failing tests minutes later.
set -euo pipefail
cd "$(dirname "$0")/.."
export DEBIAN_FRONTEND=noninteractive

missing=()
have_pgvector() {
  psql -h 127.0.0.1 -U postgres -d test -qtAc \
    "select 1 from pg_available_extensions where name = 'vector'" 2>/dev/null | grep -q 1
}

bash scripts/ensure-services.sh
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
command -v pg_ctlcluster >/dev/null 2>&1 || missing+=(postgresql)
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -x /usr/sbin/nginx ] || missing+=(nginx)
[ -x /usr/bin/prometheus ] && [ -x /usr/bin/promtool ] || missing+=(prometheus)
have_pgvector || missing+=(pgvector)

if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "setup-machine: missing ${missing[*]}; install them with: sudo bash scripts/setup-machine.sh" >&2
    exit 1
  fi
  echo "setup-machine: installing ${missing[*]}"
  apt-get update -qq >/dev/null
  for part in "${missing[@]}"; do
    case "$part" in
      redis-server) apt-get install -y -qq redis-server >/dev/null ;;
      postgresql) apt-get install -y -qq postgresql >/dev/null ;;
      chromium) apt-get install -y -qq chromium >/dev/null ;;
      # The load-balancer test runs its own nginx; the package's service on port 80 is not needed.
      nginx)
        apt-get install -y -qq nginx-light >/dev/null
        service nginx stop >/dev/null 2>&1 || true
        ;;
      # The metrics test starts its own server on a free port; the package's service is not needed.
      prometheus)
        apt-get install -y -qq --no-install-recommends prometheus >/dev/null
        service prometheus stop >/dev/null 2>&1 || true
        ;;
    esac
  done
  bash scripts/ensure-services.sh
  if ! have_pgvector; then bash scripts/install-pgvector.sh; fi
fi
# The extension itself, in the test database (a no-op once it exists).
if ! psql -h 127.0.0.1 -U postgres -d test -qtA -c 'SET client_min_messages = warning' \
  -c 'CREATE EXTENSION IF NOT EXISTS vector' >/dev/null 2>&1; then
  echo "setup-machine: the tests need PostgreSQL on 127.0.0.1:5432 with trust auth for user postgres and a database named test" >&2
  exit 1
fi
if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
  echo "setup-machine: the tests need Redis on 127.0.0.1:6379" >&2
  exit 1
fi
# The real-document corpus of the RAG tests (Debian documentation + LibreOffice), built once.
bash scripts/build-corpus.sh
