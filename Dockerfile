# regwatch image for docker-compose.yml: Node 22, production dependencies, TypeScript run through tsx.
FROM node:22-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund
COPY bin ./bin
COPY src ./src
COPY migrations ./migrations
COPY tsconfig.json ./
USER node
ENTRYPOINT ["node", "bin/regwatch.js"]
CMD ["daemon"]
