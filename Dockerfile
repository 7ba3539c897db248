# The images of the vault, from this one file. The embedded mode in one image
# (the vault and its PostgreSQL; the data in the volume /data), its stage
# named vault:
#
#   docker build --target vault -t vault .                             (from the repository root)
#
# Each app of the distributed mode, the last stage; APP names the app, PORT
# where it listens (the services' health port, 8080 by default; the gateway's
# public port, 3000):
#
#   docker build --build-arg APP=auth-svc -t vault-auth-svc .
#   docker build --build-arg APP=gateway --build-arg PORT=3000 -t vault-gateway .
#   buildah bud --build-arg APP=auth-svc -t vault-auth-svc .
#
# APP: gateway, auth-svc, planner-svc, journal-svc, media-svc or audit-svc
# (without it the last COPY finds nothing and the build fails).
#
# Three stages. The build stage does not depend on APP: it builds the
# workspace and lays out the files of all six images
# (scripts/containers/stage-app.mjs), so that one build, cached, serves them
# all. The deps stage is the shared layer: Node and the production
# dependencies of the six apps, the same in every image (a registry stores it
# once, a node pulls it once). The last stage adds this app's own files, a
# thin layer. The base is the official Node LTS image unless BASE_IMAGE names
# another with node and npm (docs/deploy.md). On a machine without Docker,
# scripts/containers/build-images.mjs makes the same images faster from the
# workspace built on the machine.
ARG BASE_IMAGE=node:20-bookworm-slim

FROM ${BASE_IMAGE} AS build
WORKDIR /src
COPY . .
RUN --mount=type=cache,target=/root/.npm,sharing=locked \
    npm install --prefer-offline --no-audit --no-fund --loglevel=error \
    && NX_DAEMON=false NX_NO_CLOUD=true npx nx run-many -t build --output-style=static \
    && node scripts/containers/stage-app.mjs /rootfs gateway+apps/web/dist auth-svc planner-svc journal-svc media-svc audit-svc \
    && node scripts/containers/stage-vault.mjs /rootfs/vault \
    && cd / && rm -rf /src

# Node and the production dependencies of all six apps, with the user vault (10001).
FROM ${BASE_IMAGE} AS deps
COPY --from=build /rootfs/deps/ /

# The embedded mode: a whole filesystem laid out by the build stage
# (scripts/containers/stage-vault.mjs): Node, tini as PID 1 (it passes the stop
# signal on and reaps), sh, the C libraries they load, the bundled vault with
# only the packages it loads at run time and PostgreSQL's programs; no package
# manager, npm or build tools. It runs as vault (10001) and writes only to
# /data and /tmp: the root filesystem can be read-only. The first start prints
# the owner's password once to the log. `vault <command>` is the command line
# (set-password, export, import...) in a container of its own on the volume,
# while the vault is stopped.
FROM scratch AS vault
COPY --from=build /rootfs/vault/ /
WORKDIR /app
ENV PATH=/usr/local/bin:/usr/bin NODE_ENV=production VAULT_MODE=embedded HOST=0.0.0.0 PORT=3000 VAULT_DATA_DIR=/data VAULT_COMMAND=vault MALLOC_ARENA_MAX=2
USER 10001:10001
EXPOSE 3000
VOLUME /data
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 CMD ["node", "apps/vault/healthcheck.mjs"]
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "--max-semi-space-size=8", "apps/vault/dist/bundle/main.js"]

# This app's built files and libraries only, owned by root and read-only to
# its user (uid 10001, as the chart's securityContext runs it), laid out under
# /app as in the repository (/app/apps/<app>, /app/libs/<lib>), where the
# app's bundle finds its libraries' files (scripts/lib/app-bundle.mjs).
# It runs from its folder: the bundle (dist/bundle/main.js), or its other
# commands (`node dist/main.js migrate`, the gateway's dist/backup.js). Nothing
# is written outside /tmp: the root filesystem can be read-only. No
# HEALTHCHECK: the orchestrator probes /health/live and /health/ready.
FROM deps
ARG APP
ARG PORT=8080
COPY --from=build /rootfs/${APP}/app/ /app/
WORKDIR /app/apps/${APP}
ENV NODE_ENV=production VAULT_MODE=distributed HOST=0.0.0.0 PORT=${PORT} MALLOC_ARENA_MAX=2
USER 10001:10001
EXPOSE ${PORT}
CMD ["node", "--max-semi-space-size=8", "dist/bundle/main.js"]
