export * from './faults.js';
export * from './server.js';
export * from './state.js';
export type { FakeHandler, FakeRequest } from './routes.js';
export * from './gateway.js';
export * from './guildEvents.js';
export * from './oauth.js';
export { DEFAULT_RESUME_WINDOW_MS } from './gatewaySessions.js';
export { BOT_INVITE_PERMISSIONS, botGuildPermissions } from './permissions.js';
