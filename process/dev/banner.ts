export interface DevBannerInput {
  baseUrl: string;
  temporalUiUrl: string | null;
  temporalAddress: string;
  guildId: string;
  apiKey: string;
  /** Whether webhook endpoints may be http:// and loopback receivers (process/dev/localWebhooks.ts). */
  localWebhooks: boolean;
  /** The web console, and who signs in there with the local platform's development sign-in (null: Discord's sign-in). */
  console: { url: string; localManager: { userId: string; name: string } | null; fakeDiscordSignIn?: boolean };
}

function consoleSignIn(c: DevBannerInput['console']): string {
  if (c.localManager) return `   (sign in as ${c.localManager.name}, ${c.localManager.userId}: the demo guild's owner)`;
  return c.fakeDiscordSignIn ? "   (Sign in with Discord: the fake approves as the demo guild's owner)" : '   (sign in with Discord: README, Web console)';
}

/** What `npm run dev` prints once everything runs. */
export function devBanner(b: DevBannerInput): string {
  const webhooks = b.localWebhooks
    ? 'local receivers allowed (http://127.0.0.1:PORT/...; WEBHOOK_ALLOW_INSECURE_LOCAL=false refuses them)'
    : 'public https:// URLs only (WEBHOOK_ALLOW_INSECURE_LOCAL=false or NODE_ENV=production)';
  return `
  Community-Bot API is running.
    Base URL     ${b.baseUrl}
    OpenAPI      ${b.baseUrl}/openapi.json
    Temporal UI  ${b.temporalUiUrl ?? `(external Temporal at ${b.temporalAddress})`}
    Demo guild   ${b.guildId}
    API key      ${b.apiKey}   (every scope; also in .dev/credentials.json)
    Webhooks     ${webhooks}
    Console      ${b.console.url}${consoleSignIn(b.console)}

  Try: curl -H "Authorization: Bearer ${b.apiKey}" ${b.baseUrl}/guilds/${b.guildId}
${b.localWebhooks ? `  A receiver: npm run admin -- webhook add --guild ${b.guildId} --url http://127.0.0.1:8080/hook --events all\n` : ''}  Bot activity: npm run admin -- simulate --help   (members joining and leaving, XP from messages, appeals)
  Ctrl-C stops everything.
`;
}
