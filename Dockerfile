# One image for every process, chosen by the command (the emitted JavaScript of process/entrypoints/*.ts):
#   docker run IMAGE                                              -> api
#   docker run IMAGE dist/process/entrypoints/worker.js           -> worker
#   docker run IMAGE dist/process/entrypoints/bot.js              -> bot
#   docker run IMAGE dist/process/entrypoints/discordEgress.js    -> discord-egress
#   docker run IMAGE dist/process/entrypoints/migrate.js          -> migrate (a one-off job before each deploy)
#   docker run IMAGE dist/process/entrypoints/admin.js --help     -> the operator CLI
# Node 24 (LTS). The TypeScript is compiled in the build stage (`npm run build`); the image holds the JavaScript and
# the production packages only: no compiler, no tsx, no embedded PostgreSQL, no Temporal test server.
# docs/deployment.md describes the settings; test/infra/dockerfile.test.ts checks this file.

FROM node:24-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY process ./process
COPY src ./src
COPY api ./api
COPY db ./db
COPY workflows ./workflows
COPY activities ./activities
# The workflow bundle is made here once, so the worker loads it instead of running webpack at every start.
RUN npm run build && node dist/process/entrypoints/bundleWorkflows.js --out dist/workflow-bundle.js

FROM node:24-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

FROM node:24-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    WORKFLOW_BUNDLE_PATH=/app/dist/workflow-bundle.js
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
# package.json says "type": "module" for the emitted files.
COPY package.json ./
COPY --from=build /app/dist ./dist
# The node image's unprivileged user; the files stay root-owned and read-only to it.
USER node
# The image proves itself as it is built: every entrypoint loads, the workflows bundle, the console's assets are there.
RUN node dist/process/entrypoints/checkBuild.js
# 3000 the api (PORT), 3003 its operations port (API_OPS_PORT), 3001 the worker's, 3002 the bot's, 3004 the egress's.
EXPOSE 3000 3001 3002 3003 3004
# node itself is PID 1, not npm, so SIGTERM reaches the process's graceful shutdown directly.
ENTRYPOINT ["node"]
CMD ["dist/process/entrypoints/api.js"]
