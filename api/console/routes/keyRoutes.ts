import { ConsoleRefusal } from '../../../src/console/errors.js';
import { isScope, SCOPES, type Scope } from '../../../src/core/scopes.js';
import { createApiKey, KEY_EXPIRY_DAYS, KeyManagementError, revokeApiKey, type KeyExpiryDays } from '../../../src/keys/keyManagement.js';
import { readKey, readKeys } from '../../../src/keys/readKeys.js';
import type { AppDeps } from '../../context.js';
import { formOf, idParam, managedServer } from '../consoleDeps.js';
import type { ConsoleRouter } from '../consoleState.js';
import { seeOther, sendPage } from '../render.js';
import { KeyCreatedPage, KeysPage, RevokeKeyPage } from '../views/keysPages.js';

function parseNewKey(form: URLSearchParams): { name: string; scopes: Scope[]; expiresInDays: KeyExpiryDays | null } {
  const name = (form.get('name') ?? '').trim();
  if (name.length < 1 || name.length > 100) throw new ConsoleRefusal('INVALID_INPUT', 'Give the key a name of 1 to 100 characters.');
  const picked = form.getAll('scopes');
  const unknown = picked.filter((s) => !isScope(s));
  if (unknown.length > 0) throw new ConsoleRefusal('INVALID_INPUT', `Unknown scope: ${unknown.join(', ')}.`);
  const scopes = [...new Set(picked)] as Scope[];
  if (scopes.length === 0) throw new ConsoleRefusal('INVALID_INPUT', 'Pick at least one scope.');
  const expires = form.get('expires') ?? 'never';
  const days = KEY_EXPIRY_DAYS.find((d) => String(d) === expires);
  if (expires !== 'never' && days === undefined) throw new ConsoleRefusal('INVALID_INPUT', `Expiry is one of ${KEY_EXPIRY_DAYS.join(', ')} days or never.`);
  return { name, scopes, expiresInDays: days ?? null };
}

/** API keys: list, create (shown once), revoke with confirmation; the same use cases as `npm run admin -- key`. */
export function keyRoutes(router: ConsoleRouter, deps: AppDeps): void {
  const base = '/servers/:guildId/keys';

  router.get(base, async (ctx) => {
    const { guild, viewer } = await managedServer(ctx, deps);
    const keys = await readKeys(deps.db, guild.id);
    sendPage(ctx, KeysPage({ viewer, guild, keys, now: deps.clock.now(), scopes: SCOPES, expiryDays: KEY_EXPIRY_DAYS }));
  });

  router.post(base, async (ctx) => {
    const { guild, viewer, session, actor } = await managedServer(ctx, deps);
    const input = parseNewKey(formOf(ctx));
    const key = await createApiKey(deps.db, deps.clock, { guildId: guild.id, ...input, createdBy: session.userId, actor });
    sendPage(ctx, KeyCreatedPage({ viewer, guild, key }), 201);
  });

  router.get(`${base}/:keyId/revoke`, async (ctx) => {
    const { guild, viewer } = await managedServer(ctx, deps);
    const id = idParam(ctx, 'keyId');
    const key = await readKey(deps.db, guild.id, id);
    if (!key) throw new KeyManagementError('KEY_NOT_FOUND', `This server has no API key ${id}.`);
    if (key.revokedAt) throw new KeyManagementError('KEY_ALREADY_REVOKED', `The key "${key.name}" is already revoked.`);
    sendPage(ctx, RevokeKeyPage({ viewer, guild, key }));
  });

  router.post(`${base}/:keyId/revoke`, async (ctx) => {
    const { guild, actor } = await managedServer(ctx, deps);
    await revokeApiKey(deps.db, deps.clock, { guildId: guild.id, id: idParam(ctx, 'keyId'), actor });
    seeOther(ctx, `/console/servers/${guild.id}/keys`);
  });
}
