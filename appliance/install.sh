#!/bin/sh
# Installs (or upgrades) Attestly on a Linux host from a release tarball, as a systemd service.
#
#   sudo appliance/install.sh attestly-0.1.0-linux-x64.tar.gz
#
# The tarball holds the built appliance (the same tree as /opt/attestly in the container image: package.json,
# production node_modules, apps/api/dist, apps/web/dist, cli, models, appliance, docs) under one top folder
# attestly-<version>/. Node.js >= 20.19 must be installed (Node 22 LTS recommended).
#
# What it does:
#   - creates the system user and group `attestly` (no login shell, home /var/lib/attestly);
#   - unpacks the release into /opt/attestly-<version> and points the /opt/attestly link at it (the previous
#     release stays for a rollback: point the link back and restart);
#   - installs /etc/attestly/attestly.env from appliance/attestly.env on the first install only (mode 0640,
#     group attestly; it is never overwritten), the unit /etc/systemd/system/attestly.service and the
#     /usr/local/bin/attestly command (appliance/attestly-host.sh: `sudo attestly …` runs as the service does);
#   - runs the migrations (`attestly migrate`) as the attestly user, then enables and (re)starts the service.
#
# Options: --no-start (install only), --root DIR (install under DIR instead of /, for packaging; implies
# --no-start and skips creating the user).
set -eu

usage() { echo "usage: $0 [--no-start] [--root DIR] attestly-<version>-linux-x64.tar.gz" >&2; exit 2; }
log() { printf 'attestly-install: %s\n' "$*"; }
die() { printf 'attestly-install: error: %s\n' "$*" >&2; exit 1; }

root=''
start=yes
tarball=''
while [ "$#" -gt 0 ]; do
  case "$1" in
    --no-start) start=no ;;
    --root) [ "$#" -ge 2 ] || usage; root=${2%/}; start=no; shift ;;
    -h|--help) usage ;;
    -*) usage ;;
    *) [ -z "$tarball" ] || usage; tarball=$1 ;;
  esac
  shift
done
[ -n "$tarball" ] || usage
[ -f "$tarball" ] || die "$tarball does not exist"
if [ -z "$root" ] && [ "$(id -u)" -ne 0 ]; then die "run as root (sudo), or pass --root DIR"; fi

command -v node >/dev/null 2>&1 || die "Node.js is not installed (need >= 20.19; Node 22 LTS recommended)"
node -e 'const [a,b]=process.versions.node.split(".").map(Number);process.exit(a>20||(a===20&&b>=19)?0:1)' \
  || die "Node.js $(node --version) is too old: need >= 20.19"

top=$(tar -tzf "$tarball" | head -n 1 | cut -d/ -f1)
case "$top" in
  attestly-[0-9]*) version=${top#attestly-} ;;
  *) die "$tarball does not look like an Attestly release (top folder $top, expected attestly-<version>)" ;;
esac

prefix="$root/opt"
target="$prefix/attestly-$version"
mkdir -p "$prefix"
if [ -e "$target" ]; then
  log "$target exists; replacing it"
  rm -rf -- "$target"
fi
staging=$(mktemp -d "$prefix/.attestly-install.XXXXXX")
trap 'rm -rf -- "$staging"' EXIT
tar -xzf "$tarball" -C "$staging"
[ -f "$staging/$top/appliance/entrypoint.sh" ] || die "the tarball has no appliance/entrypoint.sh"
[ -f "$staging/$top/apps/api/dist/server.js" ] || die "the tarball has no built server (apps/api/dist/server.js)"
mv -- "$staging/$top" "$target"
chmod 0755 "$target/appliance/entrypoint.sh" "$target/appliance/attestly-host.sh"
# Atomic switch of the /opt/attestly link to the new release.
ln -sfn "attestly-$version" "$prefix/attestly.new"
mv -T -- "$prefix/attestly.new" "$prefix/attestly"
log "installed release $version in $target (/opt/attestly points at it)"

if [ -z "$root" ] && ! id attestly >/dev/null 2>&1; then
  useradd --system --user-group --home-dir /var/lib/attestly --no-create-home --shell /usr/sbin/nologin attestly
  log "created the system user attestly"
fi

mkdir -p "$root/etc/attestly" "$root/etc/systemd/system" "$root/usr/local/bin"
if [ ! -f "$root/etc/attestly/attestly.env" ]; then
  install -m 0640 "$target/appliance/attestly.env" "$root/etc/attestly/attestly.env"
  [ -n "$root" ] || chgrp attestly "$root/etc/attestly/attestly.env"
  log "wrote $root/etc/attestly/attestly.env: set ATTESTLY_PUBLIC_URL (and DATABASE_URL, ATTESTLY_SMTP_URL) there"
else
  log "kept $root/etc/attestly/attestly.env"
fi
install -m 0644 "$target/appliance/attestly.service" "$root/etc/systemd/system/attestly.service"
ln -sfn /opt/attestly/appliance/attestly-host.sh "$root/usr/local/bin/attestly"

if [ "$start" = yes ]; then
  systemctl daemon-reload
  log "running the migrations"
  # With the service's settings, as the service's user (attestly-host.sh runs it through systemd-run).
  /usr/local/bin/attestly migrate </dev/null
  systemctl enable attestly.service
  systemctl restart attestly.service
  log "attestly is running: systemctl status attestly; journalctl -u attestly -f"
  log "first administrator: sudo attestly admin create --email you@example.com; health check: sudo attestly doctor"
else
  log "not started (--no-start/--root): systemctl daemon-reload && systemctl enable --now attestly"
fi
