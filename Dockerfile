# One image for every process: the api (default), the worker and the migrate job, chosen by the command:
#   docker run IMAGE                                   -> api
#   docker run IMAGE process/entrypoints/worker.ts     -> worker
#   docker run IMAGE process/entrypoints/migrate.ts    -> migrate (a one-off job before each deploy)
# The entrypoints are TypeScript run through tsx (as `npm run api|worker|migrate` do), which is why tsx is a
# runtime dependency. docs/deployment.md describes the settings; test/infra/dockerfile.test.ts checks this file.

FROM node:20-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

FROM node:20-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY package.json tsconfig.json ./
COPY process ./process
COPY src ./src
COPY api ./api
COPY db ./db
COPY workflows ./workflows
COPY activities ./activities
# The node image's unprivileged user; the files stay root-owned and read-only to it (tsx writes its cache to /tmp).
USER node
# 3000 the api (PORT), 3003 its operations port (API_OPS_PORT), 3001 the worker's, 3002 the bot's.
EXPOSE 3000 3001 3002 3003
# node itself is PID 1, not npm or the tsx CLI, so SIGTERM reaches the process's graceful shutdown directly.
ENTRYPOINT ["node", "--import", "tsx"]
CMD ["process/entrypoints/api.ts"]
