# regwatch image for docker-compose.yml: compiled JavaScript on Node 26 (the line of package.json's
# engines and of CI, which scripts/check-node.mjs holds together), production dependencies only,
# and no embedded Postgres (the image always uses DATABASE_URL).
FROM node:26.12.1-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
# The driver's fix of patches/ (see README, "Dependencies"), applied as `prepare` does in a checkout:
# the build bundles the patched driver into dist/ (and refuses to bundle an unpatched one).
COPY patches ./patches
RUN npx patch-package --error-on-fail
COPY tsconfig.json ./
COPY scripts ./scripts
COPY src ./src
RUN node scripts/build.mjs

FROM node:26.12.1-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
# A 2 MB young generation for every Node the image starts (the daemon and each
# `docker compose exec regwatch regwatch ...`): a backfill's peak RSS drops by about 15 MB, at the
# cost of more frequent, cheap scavenges. The same flag bin/regwatch.js starts Node with.
ENV NODE_OPTIONS=--max-semi-space-size=2
COPY package.json package-lock.json ./
# --omit=optional leaves out the embedded Postgres binaries; --ignore-scripts skips `prepare`. The
# postgres package it installs is not run: dist/ carries the patched driver.
RUN npm ci --omit=dev --omit=optional --ignore-scripts --no-audit --no-fund
COPY bin/package.json bin/regwatch.js bin/regwatch-container.js ./bin/
COPY migrations ./migrations
COPY --from=build /app/dist ./dist
# `regwatch` on the PATH puts DATABASE_URL together from the password secret for every command.
RUN ln -s /app/bin/regwatch-container.js /usr/local/bin/regwatch
USER node
ENTRYPOINT ["regwatch"]
CMD ["daemon"]
