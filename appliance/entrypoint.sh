#!/bin/sh
# Attestly appliance entrypoint (container image, and usable as-is on bare metal).
#
#   entrypoint.sh                 → attestly serve
#   entrypoint.sh serve [opts]    → attestly serve [opts]
#   entrypoint.sh doctor …        → attestly doctor … (any attestly sub-command)
#   entrypoint.sh sh -c '…'       → runs that program (anything found on PATH)
#
# Before serving it:
#   - reads secrets from files for every VAR that has a VAR_FILE set (Docker/Kubernetes secrets):
#     ATTESTLY_MASTER_KEY_FILE, DATABASE_URL_FILE, ATTESTLY_SMTP_URL_FILE, ATTESTLY_METRICS_TOKEN_FILE;
#   - checks that the data directory exists and is writable;
#   - on the first start without ATTESTLY_MASTER_KEY, generates the master key into <data dir>/master.key (0600)
#     and says where, so that the operator backs it up (without it, encrypted data cannot be read).
set -eu
# Files the server creates (database, outbox) are private to its user and group.
umask 0027

log() { printf 'attestly-entrypoint: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

here=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)
ATTESTLY_HOME=${ATTESTLY_HOME:-$(dirname -- "$here")}
export ATTESTLY_HOME

# VAR_FILE → VAR (the file's content without its trailing newline); setting both is a mistake.
for var in ATTESTLY_MASTER_KEY DATABASE_URL ATTESTLY_SMTP_URL ATTESTLY_METRICS_TOKEN; do
  file_var="${var}_FILE"
  eval "file=\${$file_var:-}"
  eval "value=\${$var:-}"
  if [ -n "$file" ]; then
    [ -z "$value" ] || die "both $var and $file_var are set; set only one"
    [ -r "$file" ] || die "$file_var points at $file, which cannot be read"
    value=$(cat -- "$file")
    export "$var=$value"
    unset "$file_var"
  fi
done

# Finds the attestly command: on PATH (the image links it to /usr/local/bin), else the checkout's CLI, else —
# for `serve` only, in a checkout where the CLI has not been built — the API server bundle itself.
attestly_cmd() {
  if command -v attestly >/dev/null 2>&1; then
    echo attestly
  elif [ -f "$ATTESTLY_HOME/cli/dist/attestly.js" ] && [ -f "$ATTESTLY_HOME/cli/bin/attestly.js" ]; then
    echo "node $ATTESTLY_HOME/cli/bin/attestly.js"
  fi
}

prepare_data_dir() {
  data_dir=${ATTESTLY_DATA_DIR:-/var/lib/attestly}
  export ATTESTLY_DATA_DIR="$data_dir"
  if [ ! -d "$data_dir" ]; then
    (umask 077 && mkdir -p -- "$data_dir") || die "cannot create the data directory $data_dir"
  fi
  [ -w "$data_dir" ] || die "the data directory $data_dir is not writable by uid $(id -u); fix its owner (chown $(id -u) $data_dir)"

  if [ -z "${ATTESTLY_MASTER_KEY:-}" ] && [ ! -s "$data_dir/master.key" ]; then
    # Written to a private temporary file and hard-linked into place, which fails if another replica starting at
    # the same moment got there first: everyone ends up with the one key that won.
    tmp="$data_dir/.master.key.$$.tmp"
    (umask 077 && od -An -N32 -tx1 /dev/urandom | tr -d ' \n' >"$tmp" && echo >>"$tmp")
    if ln -- "$tmp" "$data_dir/master.key" 2>/dev/null; then
      log "generated a new master key in $data_dir/master.key (mode 0600)."
      log "BACK IT UP now, apart from the database backups: without it, encrypted data and backups cannot be read."
      log "To manage it yourself, set ATTESTLY_MASTER_KEY or ATTESTLY_MASTER_KEY_FILE instead."
    fi
    rm -f -- "$tmp"
  elif [ -z "${ATTESTLY_MASTER_KEY:-}" ]; then
    log "using the master key in $data_dir/master.key"
  else
    log "using the master key from ATTESTLY_MASTER_KEY"
  fi
}

if [ "$#" -eq 0 ]; then set -- serve; fi
case "$1" in
  -*) set -- serve "$@" ;;
esac

if [ "$1" = "attestly" ]; then shift; [ "$#" -gt 0 ] || set -- serve; fi

if [ "$1" != "serve" ] && command -v -- "$1" >/dev/null 2>&1; then
  exec "$@"
fi

cmd=$(attestly_cmd)
if [ "$1" = "serve" ]; then
  prepare_data_dir
  if [ -z "$cmd" ]; then
    server="$ATTESTLY_HOME/apps/api/dist/server.js"
    [ -f "$server" ] || die "neither the attestly command nor $server was found; run npm run build"
    [ "$#" -eq 1 ] || die "the attestly command is not built, so options to serve cannot be passed (npm run build)"
    exec node "$server"
  fi
fi
[ -n "$cmd" ] || die "the attestly command was not found (looked on PATH and in $ATTESTLY_HOME/cli)"
# shellcheck disable=SC2086 # $cmd is "attestly" or "node <path>", split on purpose
exec $cmd "$@"
