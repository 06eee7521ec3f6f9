import type { ProdStack } from './startProdStack.js';

/** What `npm run stack:prod` prints once every process is ready. */
export function prodStackBanner(stack: ProdStack, workDir: string): string {
  const t = stack.temporal;
  const processes = stack.processes.map((p) => `    ${p.name.padEnd(14)} ${p.origin}   pid ${p.pid}, log ${p.logFile}`);
  const base = `${stack.apiOrigins[0]}/api/v1`;
  return `
  Production-like stack is running.
    Temporal     ${t.address}, namespace ${t.namespace}: server ${t.version}, PostgreSQL persistence, ${t.historyShards} history shards (log ${t.logFile})
    PostgreSQL   ${stack.databaseUrl.replace(/:[^:@/]*@/, ':***@')}
    Fake Discord ${stack.fakeDiscordUrl} (the demo guild; the bot's gateway; REST only through discord-egress)
    Demo guild   ${stack.guildId}
    API key      ${stack.apiKey}   (every scope)
  APIs         ${stack.apiOrigins.map((origin) => `${origin}/api/v1`).join(', ')}
  Processes (/livez, /readyz, /metrics on each; an api's on its API_OPS_PORT):
${processes.join('\n')}
  Files in ${workDir}

  Try: curl -H "Authorization: Bearer ${stack.apiKey}" ${base}/guilds/${stack.guildId}
  Ctrl-C stops everything.
`;
}
