# syntax=docker/dockerfile:1
# Attestly appliance image (DESIGN.md §1–§2). Three stages:
#   build  – full `npm ci` (dev dependencies included) and `npm run build` (web app, API and CLI bundles, SDK)
#   deps   – production dependencies only (`npm ci --omit=dev`), plus @tensorflow/tfjs-node when its native
#            library downloads at build time (otherwise the vision workers use the WASM backend; /readyz and
#            `attestly doctor` report which one is active)
#   final  – node:22-bookworm-slim with the production node_modules, the built code, the models and GeoIP data
#            (both come from npm packages and models/), a non-root user and /var/lib/attestly as the volume.
# Build: docker build -t attestly:local .   Run: docker run -p 8080:8080 -v attestly-data:/var/lib/attestly attestly:local

ARG NODE_IMAGE=node:22-bookworm-slim

FROM ${NODE_IMAGE} AS toolchain
# better-sqlite3 compiles from source when no prebuilt binary matches; python3, make and g++ are needed then.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ ca-certificates \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /opt/attestly
ENV npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
# Manifests first, so the dependency layers are reused while only sources change.
COPY package.json package-lock.json ./
COPY apps/contracts/package.json apps/contracts/
COPY apps/api/package.json apps/api/
COPY apps/sdk/package.json apps/sdk/
COPY apps/web/package.json apps/web/
COPY models/package.json models/
COPY cli/package.json cli/

FROM toolchain AS build
RUN npm ci
COPY . .
# The web app, the API bundle, the partner SDK and the attestly CLI (cli/dist).
RUN npm run build

FROM toolchain AS deps
# Workspaces can hold their own node_modules (versions that differ from the root's); each must exist to be copied.
RUN npm ci --omit=dev \
 && mkdir -p apps/api/node_modules models/node_modules cli/node_modules
# Optional native TensorFlow backend: its install downloads libtensorflow, which may fail (offline builds,
# unsupported CPU); the image then runs the SIMD WASM backend. Pass --build-arg TFJS_NODE=false to skip it.
ARG TFJS_NODE=true
RUN if [ "$TFJS_NODE" = "true" ]; then \
      (npm install --omit=dev --no-save --no-package-lock @tensorflow/tfjs-node@4.22.0 \
        && node -e "require('@tensorflow/tfjs-node')" \
        && echo "tfjs-node installed: vision uses the native TensorFlow backend") \
      || (rm -rf node_modules/@tensorflow/tfjs-node \
        && echo "tfjs-node unavailable: vision uses the WASM backend"); \
    fi \
 && npm cache clean --force

FROM ${NODE_IMAGE} AS final
ARG VERSION=0.1.0
ARG REVISION=unknown
LABEL org.opencontainers.image.title="Attestly" \
      org.opencontainers.image.description="Self-hosted age, location and identity verification appliance with OpenID Connect for partner sites" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.licenses="UNLICENSED" \
      org.opencontainers.image.source="https://github.com/attestly/attestly" \
      org.opencontainers.image.documentation="https://github.com/attestly/attestly/blob/main/docs/operator-guide.md" \
      org.opencontainers.image.base.name="docker.io/library/node:22-bookworm-slim"

# tini reaps the ffmpeg children of the vision workers and forwards signals; the app drains on SIGTERM.
RUN apt-get update \
 && apt-get install -y --no-install-recommends tini ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system --gid 10001 attestly \
 && useradd --system --uid 10001 --gid attestly --home-dir /var/lib/attestly --shell /usr/sbin/nologin attestly \
 && mkdir -p /var/lib/attestly \
 && chown attestly:attestly /var/lib/attestly \
 && chmod 0700 /var/lib/attestly

WORKDIR /opt/attestly
COPY --from=deps /opt/attestly/node_modules ./node_modules
COPY --from=deps /opt/attestly/package.json ./package.json
COPY --from=build /opt/attestly/apps/contracts/package.json ./apps/contracts/package.json
COPY --from=build /opt/attestly/apps/sdk/package.json ./apps/sdk/package.json
# The partner SDK that the appliance serves at /sdk/ (npm tarball and browser module).
COPY --from=build /opt/attestly/apps/sdk/dist ./apps/sdk/dist
COPY --from=build /opt/attestly/apps/api/package.json ./apps/api/package.json
COPY --from=build /opt/attestly/apps/api/dist ./apps/api/dist
COPY --from=build /opt/attestly/apps/web/package.json ./apps/web/package.json
COPY --from=build /opt/attestly/apps/web/dist ./apps/web/dist
COPY --from=deps /opt/attestly/apps/api/node_modules ./apps/api/node_modules
COPY --from=deps /opt/attestly/models/node_modules ./models/node_modules
COPY --from=deps /opt/attestly/cli/node_modules ./cli/node_modules
COPY --from=build /opt/attestly/cli/package.json ./cli/package.json
COPY --from=build /opt/attestly/cli/bin ./cli/bin
COPY --from=build /opt/attestly/cli/dist ./cli/dist
COPY --from=build /opt/attestly/models/package.json /opt/attestly/models/manifest.json /opt/attestly/models/MODEL_CARD.md ./models/
COPY --from=build /opt/attestly/models/weights ./models/weights
COPY appliance/entrypoint.sh appliance/healthcheck.mjs appliance/attestly.env ./appliance/
RUN chmod 0755 ./appliance/entrypoint.sh ./cli/bin/attestly.js \
 && ln -s /opt/attestly/cli/bin/attestly.js /usr/local/bin/attestly \
 && node -e "require('better-sqlite3')(':memory:').close()"

# Everything written at run time goes to the volume or to /tmp, so the root filesystem can be read-only
# (docker run --read-only --tmpfs /tmp; the Helm chart sets readOnlyRootFilesystem).
ENV NODE_ENV=production \
    PORT=8080 \
    HOST=0.0.0.0 \
    ATTESTLY_DATA_DIR=/var/lib/attestly \
    ATTESTLY_WEB_DIR=/opt/attestly/apps/web/dist \
    ATTESTLY_HOME=/opt/attestly \
    TMPDIR=/tmp
VOLUME ["/var/lib/attestly"]
USER 10001:10001
EXPOSE 8080
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "/opt/attestly/appliance/healthcheck.mjs"]
ENTRYPOINT ["/usr/bin/tini", "--", "/opt/attestly/appliance/entrypoint.sh"]
CMD ["serve"]
