#!/bin/sh
# Builds the release tarball that appliance/install.sh installs: attestly-<version>-linux-x64.tar.gz with the
# same tree as /opt/attestly in the container image (production node_modules only).
#
#   npm run build && appliance/build-release.sh [output dir]      (default: ./artifacts)
#
# Run it from a built checkout (apps/api/dist, apps/web/dist and cli/dist present). It installs the production
# dependencies with `npm ci --omit=dev` in a staging folder, so the checkout's own node_modules stay untouched.
set -eu

here=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)
repo=$(dirname -- "$here")
out=${1:-$repo/artifacts}
version=$(node -p "require('$repo/package.json').version")
name="attestly-$version"

for built in apps/api/dist/server.js apps/web/dist/index.html apps/sdk/dist/index.js cli/dist/attestly.js; do
  [ -f "$repo/$built" ] || { echo "build-release: $built is missing; run npm run build first" >&2; exit 1; }
done

staging=$(mktemp -d)
trap 'rm -rf -- "$staging"' EXIT
dest="$staging/$name"
mkdir -p "$dest"
cd "$repo"
# Manifests (npm ci needs every workspace's package.json), built code, models, appliance files and docs.
for file in package.json package-lock.json apps/contracts/package.json apps/api/package.json apps/sdk/package.json \
  apps/web/package.json models/package.json models/manifest.json models/MODEL_CARD.md cli/package.json README.md; do
  mkdir -p "$dest/$(dirname "$file")"
  cp "$file" "$dest/$file"
done
for dir in apps/api/dist apps/web/dist apps/sdk/dist cli/bin cli/dist models/weights appliance docs; do
  mkdir -p "$dest/$(dirname "$dir")"
  cp -R "$dir" "$dest/$dir"
done
(cd "$dest" && npm ci --omit=dev --no-audit --no-fund --loglevel=error >/dev/null)
rm -f "$dest/package-lock.json"
mkdir -p "$out"
tar -czf "$out/$name-linux-x64.tar.gz" -C "$staging" "$name"
echo "$out/$name-linux-x64.tar.gz"
