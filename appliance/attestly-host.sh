#!/bin/sh
# /usr/local/bin/attestly on a bare-metal install (appliance/install.sh links it): runs the attestly command
# with the service's settings (/etc/attestly/attestly.env) as the service's user, through systemd-run, so that
# `sudo attestly doctor`, `sudo attestly admin create` or `sudo attestly backup create` see exactly what the
# running service sees. Interactive on a terminal (--pty), piped otherwise (scripts, --json).
set -eu
[ "$(id -u)" -eq 0 ] || { echo "attestly: run it with sudo (it runs as the attestly user with /etc/attestly/attestly.env)" >&2; exit 1; }
if [ -t 0 ] && [ -t 1 ]; then mode=--pty; else mode=--pipe; fi
exec systemd-run --quiet --wait --collect "$mode" \
  --uid=attestly --gid=attestly \
  --property=EnvironmentFile=/etc/attestly/attestly.env \
  --property=StateDirectory=attestly \
  --working-directory=/var/lib/attestly \
  --setenv=ATTESTLY_DATA_DIR=/var/lib/attestly --setenv=ATTESTLY_HOME=/opt/attestly \
  /opt/attestly/appliance/entrypoint.sh "$@"
