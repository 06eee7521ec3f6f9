/** The least a production process needs (NODE_ENV=production refuses the local platform): Discord with a bot token. */
export const PRODUCTION_ENV = Object.freeze({
  NODE_ENV: 'production',
  PLATFORM: 'discord',
  DISCORD_TOKEN: 'MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789AB',
});
