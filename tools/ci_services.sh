#!/usr/bin/env bash
# The services the web app's tests need, installed and started when missing:
# Debian's PostgreSQL (a server on 127.0.0.1, a role and a database for the tests),
# Debian's Chromium (the browser tests drive /usr/bin/chromium with Playwright), and the
# tools of docs/deploy.md's recipe that its tests run: nginx (the reverse proxy, started
# by each test on its own config and ports, never as a system service), openssl (the
# proxy's test certificate) and sqlite3 (the SQLite backup command); valgrind, whose
# callgrind counts the instructions of make test's performance gate (tools/perf_gate.py);
# and Debian's Node.js and npm, for make test-js (TypeScript's checker of the browser
# app's modules, from npm, and Node's test runner for their unit tests).
#
# Idempotent and quick when everything is there (one pg_isready and one psql query).
# Prints the database URL for the tests on stdout (its only output there; progress goes
# to stderr), e.g.:
#     ENDEAVOR_TEST_PG=$(tools/ci_services.sh) pytest tests/web
#
# Environment (all optional):
#   ENDEAVOR_PG_PORT  the server's port (default 5432)
#   ENDEAVOR_PG_DIR   where a private cluster lives when Debian's cluster tooling is not
#                     usable (default /tmp/endeavor-pg-<uid>)
#   ENDEAVOR_NO_APT=1 never run apt-get (fail instead when something is missing)
set -euo pipefail

PG_USER=endeavor
PG_PASSWORD=endeavor
PG_DB=endeavor_test
PG_HOST=127.0.0.1
PG_PORT=${ENDEAVOR_PG_PORT:-5432}
PG_DIR=${ENDEAVOR_PG_DIR:-/tmp/endeavor-pg-$(id -u)}
URL="postgresql+psycopg://$PG_USER:$PG_PASSWORD@$PG_HOST:$PG_PORT/$PG_DB"

log() { echo "ci_services: $*" >&2; }
die() { echo "ci_services: error: $*" >&2; exit 1; }

# ------------------------------------------------------------------ packages
pg_bindir() {  # the newest installed PostgreSQL's bin directory, or nothing
    local d
    d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
    if [ -n "$d" ] && [ -x "$d/postgres" ] && [ -x "$d/initdb" ]; then echo "$d"; fi
}

apt_busy() {  # another apt-get/dpkg is running (someone else installing right now)
    pgrep -x apt-get >/dev/null 2>&1 || pgrep -x dpkg >/dev/null 2>&1 \
        || pgrep -x apt >/dev/null 2>&1
}

wait_for_apt() {  # up to 10 minutes for another installer to finish
    local i
    for i in $(seq 1 600); do
        apt_busy || return 0
        [ $((i % 30)) -eq 1 ] && log "waiting for another apt-get/dpkg to finish"
        sleep 1
    done
    log "apt-get/dpkg still busy after 10 minutes; going on"
}

look_for_missing() {
    missing=()
    [ -x /usr/bin/chromium ] || missing+=(chromium)
    { [ -n "$(pg_bindir)" ] && command -v psql >/dev/null 2>&1 && command -v pg_isready \
        >/dev/null 2>&1; } || missing+=(postgresql)
    [ -x /usr/sbin/nginx ] || missing+=(nginx)
    command -v openssl >/dev/null 2>&1 || missing+=(openssl)
    command -v sqlite3 >/dev/null 2>&1 || missing+=(sqlite3)
    command -v valgrind >/dev/null 2>&1 || missing+=(valgrind)
    command -v node >/dev/null 2>&1 || missing+=(nodejs)
    command -v npm >/dev/null 2>&1 || missing+=(npm)
}

look_for_missing
if [ ${#missing[@]} -gt 0 ] && apt_busy; then
    wait_for_apt  # it may be installing exactly these; look again afterwards
    look_for_missing
fi

if [ ${#missing[@]} -gt 0 ]; then
    [ "${ENDEAVOR_NO_APT:-}" = 1 ] && die "missing: ${missing[*]} (ENDEAVOR_NO_APT=1)"
    SUDO=()
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null 2>&1 || die "missing: ${missing[*]}; install them as root"
        SUDO=(sudo -n)
    fi
    log "installing Debian's ${missing[*]} (apt-get)"
    export DEBIAN_FRONTEND=noninteractive
    APT_OPTS=(-q -y -o DPkg::Lock::Timeout=600)
    "${SUDO[@]}" apt-get "${APT_OPTS[@]}" update >&2
    # with their recommended packages (Chromium's fonts among them), as on the
    # developers' machines, so pages render the same in the browser tests
    "${SUDO[@]}" apt-get "${APT_OPTS[@]}" install "${missing[@]}" >&2
    [ -x /usr/bin/chromium ] || [[ " ${missing[*]} " != *" chromium "* ]] \
        || die "chromium was installed but /usr/bin/chromium is missing"
fi
BIN=$(pg_bindir)
[ -n "$BIN" ] || die "no PostgreSQL server binaries under /usr/lib/postgresql"
export PATH="$BIN:$PATH"

# ------------------------------------------------------------------ server
ready() { pg_isready -q -h "$PG_HOST" -p "$PG_PORT" -t 2 >/dev/null 2>&1; }

as_postgres() {  # run a command as the postgres OS user (we are root) or as ourselves
    if [ "$(id -u)" -eq 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

start_debian_cluster() {  # Debian's cluster tooling (pg_lsclusters, pg_ctlcluster)
    [ "$(id -u)" -eq 0 ] || return 1
    command -v pg_lsclusters >/dev/null 2>&1 || return 1
    local ver name port _rest
    while read -r ver name port _rest; do
        [ "$port" = "$PG_PORT" ] || continue
        log "starting PostgreSQL cluster $ver/$name on port $port"
        pg_ctlcluster "$ver" "$name" start >&2 2>&1 || return 1
        return 0
    done < <(pg_lsclusters -h 2>/dev/null)
    return 1
}

start_private_cluster() {  # initdb + pg_ctl in $PG_DIR, listening on loopback only
    local data="$PG_DIR/data"
    if [ "$(id -u)" -eq 0 ]; then
        id postgres >/dev/null 2>&1 || useradd --system --home-dir "$PG_DIR" postgres
    fi
    mkdir -p "$PG_DIR"
    [ "$(id -u)" -eq 0 ] && chown postgres "$PG_DIR"
    chmod 700 "$PG_DIR"
    if [ ! -f "$data/PG_VERSION" ]; then
        log "creating a private PostgreSQL cluster in $data"
        as_postgres "$BIN/initdb" -D "$data" -U postgres --auth-local=trust \
            --auth-host=scram-sha-256 -E UTF8 >&2
    fi
    log "starting the private PostgreSQL cluster on $PG_HOST:$PG_PORT"
    as_postgres "$BIN/pg_ctl" -D "$data" -l "$PG_DIR/server.log" -w -t 60 \
        -o "-c listen_addresses=$PG_HOST -c port=$PG_PORT -c unix_socket_directories=$PG_DIR" \
        start >&2 || { tail -n 20 "$PG_DIR/server.log" >&2 || true; return 1; }
    PRIVATE=1
}

PRIVATE=0
if [ -f "$PG_DIR/data/postmaster.pid" ] && ready; then PRIVATE=1; fi
if ! ready; then
    start_debian_cluster || true
    for _ in $(seq 1 30); do ready && break; sleep 0.5; done
fi
if ! ready; then
    start_private_cluster || die "could not start PostgreSQL"
fi
for _ in $(seq 1 60); do ready && break; sleep 0.5; done
ready || die "PostgreSQL is not answering on $PG_HOST:$PG_PORT"

# ------------------------------------------------------------------ role and database
can_login() {
    PGPASSWORD=$PG_PASSWORD PGCONNECT_TIMEOUT=5 psql -X -q -h "$PG_HOST" -p "$PG_PORT" \
        -U "$PG_USER" -d "$PG_DB" -tAc 'select 1' >/dev/null 2>&1
}

if ! can_login; then
    log "creating role $PG_USER and database $PG_DB"
    if [ "$PRIVATE" = 1 ]; then
        SUPER=(psql -X -q -v ON_ERROR_STOP=1 -h "$PG_DIR" -p "$PG_PORT" -U postgres)
    else
        SUPER=(psql -X -q -v ON_ERROR_STOP=1 -p "$PG_PORT" -U postgres)
    fi
    # CREATEDB: the tests give each test module a database of its own
    as_postgres "${SUPER[@]}" -d postgres >&2 <<SQL
DO \$\$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '$PG_USER') THEN
    CREATE ROLE $PG_USER LOGIN CREATEDB PASSWORD '$PG_PASSWORD';
  ELSE
    ALTER ROLE $PG_USER LOGIN CREATEDB PASSWORD '$PG_PASSWORD';
  END IF;
END
\$\$;
SQL
    if [ -z "$(as_postgres "${SUPER[@]}" -d postgres -tAc \
            "SELECT 1 FROM pg_database WHERE datname = '$PG_DB'")" ]; then
        as_postgres "${SUPER[@]}" -d postgres -c "CREATE DATABASE $PG_DB OWNER $PG_USER" >&2
    fi
    can_login || die "cannot log in as $PG_USER to $PG_DB on $PG_HOST:$PG_PORT"
fi

log "PostgreSQL ready; chromium: $(command -v chromium || echo missing); nginx:" \
    "$([ -x /usr/sbin/nginx ] && echo /usr/sbin/nginx || echo missing); node:" \
    "$(command -v node || echo missing)"
echo "$URL"
