import { readKeysOverview } from '../../../src/console/keysOverview.js';
import { isScope, SCOPES, type Scope } from '../../../src/core/scopes.js';
import { createApiKey, KEY_EXPIRY_DAYS, KeyManagementError, revokeApiKey, type KeyExpiryDays } from '../../../src/keys/keyManagement.js';
import { checkRollable, isRollOverlap, rollApiKey, type RollOverlap } from '../../../src/keys/keyRoll.js';
import { readKey } from '../../../src/keys/readKeys.js';
import type { GuildRecord } from '../../../db/guild/guilds.js';
import type { AppDeps } from '../../context.js';
import { formOf, idParam, managedServer } from '../consoleDeps.js';
import type { ConsoleContext, ConsoleRouter } from '../consoleState.js';
import { FormRejection, showOnceAt, submitOnce, takeShownOnce } from '../formFlow.js';
import { sendPage } from '../render.js';
import type { FieldError, FormState } from '../views/formParts.js';
import { KEY_FIELDS } from '../views/keyForm.js';
import { RollKeyPage, ROLL_FIELDS } from '../views/keyRollPage.js';
import { KeyCreatedPage, KeysPage, RevokeKeyPage } from '../views/keysPages.js';
import type { Viewer } from '../views/layout.js';

/** The expiry a form picked (create or roll); one not offered adds its problem to `errors`. */
function expiryOf(form: URLSearchParams, field: string, errors: FieldError[]): KeyExpiryDays | null {
  const expires = form.get('expires') ?? 'never';
  const days = KEY_EXPIRY_DAYS.find((d) => String(d) === expires);
  if (expires !== 'never' && days === undefined) errors.push({ field, message: `Pick an expiry of ${KEY_EXPIRY_DAYS.join(', ')} days, or never.` });
  return days ?? null;
}

/** The create form's input, or a 400 naming every field to fix. */
function parseNewKey(form: URLSearchParams): { name: string; scopes: Scope[]; expiresInDays: KeyExpiryDays | null } {
  const errors: FieldError[] = [];
  const name = (form.get('name') ?? '').trim();
  if (name.length < 1 || name.length > 100) errors.push({ field: KEY_FIELDS.name, message: 'Give the key a name of 1 to 100 characters.' });
  const picked = form.getAll('scopes');
  const unknown = picked.filter((s) => !isScope(s));
  if (unknown.length > 0) errors.push({ field: KEY_FIELDS.scopes, message: `Unknown scope: ${unknown.join(', ')}.` });
  else if (picked.length === 0) errors.push({ field: KEY_FIELDS.scopes, message: 'Pick at least one scope.' });
  const expiresInDays = expiryOf(form, KEY_FIELDS.expires, errors);
  if (errors.length > 0) throw new FormRejection(400, 'INVALID_INPUT', errors);
  return { name, scopes: [...new Set(picked)] as Scope[], expiresInDays };
}

/** The roll form's input, or a 400 naming every field to fix. */
function parseRoll(form: URLSearchParams): { overlap: RollOverlap; expiresInDays: KeyExpiryDays | null } {
  const errors: FieldError[] = [];
  const overlap = form.get('overlap') ?? '';
  if (!isRollOverlap(overlap)) errors.push({ field: ROLL_FIELDS.overlap, message: 'Choose how long the old key keeps working.' });
  const expiresInDays = expiryOf(form, ROLL_FIELDS.expires, errors);
  if (errors.length > 0) throw new FormRejection(400, 'INVALID_INPUT', errors);
  return { overlap: overlap as RollOverlap, expiresInDays };
}

/** A refusal of the use case that the user fixes on the form itself. */
function onTheForm(err: unknown): never {
  if (err instanceof KeyManagementError && err.code === 'KEY_LIMIT_REACHED') {
    throw new FormRejection(409, err.code, [{ message: 'This server already has as many active keys as its plan allows. Revoke one first.' }]);
  }
  throw err;
}

/**
 * API keys: list, create (shown once), roll and revoke with confirmation; the same use cases as
 * `npm run admin -- key`.
 */
export function keyRoutes(router: ConsoleRouter, deps: AppDeps): void {
  const base = '/servers/:guildId/keys';

  async function sendKeysPage(ctx: ConsoleContext, guild: GuildRecord, viewer: Viewer, form?: FormState): Promise<void> {
    const overview = await readKeysOverview(deps, guild);
    sendPage(ctx, KeysPage({ viewer, guild, overview, now: deps.clock.now(), scopes: SCOPES, expiryDays: KEY_EXPIRY_DAYS, form }), form?.problem?.status);
  }

  /** One of this server's keys, from the path: another server's key is one this server does not have (404). */
  async function keyOf(ctx: ConsoleContext) {
    const server = await managedServer(ctx, deps);
    const id = idParam(ctx, 'keyId');
    const key = await readKey(deps.db, server.guild.id, id);
    if (!key) throw new KeyManagementError('KEY_NOT_FOUND', `This server has no API key ${id}.`);
    return { ...server, key };
  }

  router.get(base, async (ctx) => {
    const { guild, viewer } = await managedServer(ctx, deps);
    await sendKeysPage(ctx, guild, viewer);
  });

  router.post(base, async (ctx) => {
    const { guild, viewer, session, actor } = await managedServer(ctx, deps);
    const form = formOf(ctx);
    await submitOnce(
      ctx,
      deps,
      async () => {
        const input = parseNewKey(form);
        const key = await createApiKey(deps.db, deps.clock, { guildId: guild.id, ...input, createdBy: session.userId, actor }).catch(onTheForm);
        return showOnceAt(ctx, deps, `/console/servers/${guild.id}/keys/${key.id}/created`, { secret: key.key });
      },
      (problem) => sendKeysPage(ctx, guild, viewer, { values: form, problem }),
    );
  });

  router.get(`${base}/:keyId/created`, async (ctx) => {
    const { guild, viewer, key } = await keyOf(ctx);
    const shown = await takeShownOnce(ctx, deps);
    const secret = typeof shown?.secret === 'string' ? shown.secret : undefined;
    const replaced = typeof shown?.replacedPrefix === 'string' && typeof shown.replacedUntil === 'string' ? { prefix: shown.replacedPrefix, until: new Date(shown.replacedUntil) } : undefined;
    sendPage(ctx, KeyCreatedPage({ viewer, guild, key, secret, replaced }));
  });

  router.get(`${base}/:keyId/roll`, async (ctx) => {
    const { guild, viewer, key } = await keyOf(ctx);
    await checkRollable(deps.db, deps.clock, guild.id, key.id);
    sendPage(ctx, RollKeyPage({ viewer, guild, apiKey: key, expiryDays: KEY_EXPIRY_DAYS }));
  });

  router.post(`${base}/:keyId/roll`, async (ctx) => {
    const { guild, viewer, session, actor, key } = await keyOf(ctx);
    const form = formOf(ctx);
    await submitOnce(
      ctx,
      deps,
      async () => {
        const input = parseRoll(form);
        const rolled = await rollApiKey(deps.db, deps.clock, { guildId: guild.id, id: key.id, ...input, createdBy: session.userId, actor });
        return showOnceAt(ctx, deps, `/console/servers/${guild.id}/keys/${rolled.created.id}/created`, {
          secret: rolled.created.key,
          replacedPrefix: rolled.old.prefix,
          replacedUntil: rolled.oldUntil.toISOString(),
        });
      },
      async (problem) => sendPage(ctx, RollKeyPage({ viewer, guild, apiKey: key, expiryDays: KEY_EXPIRY_DAYS, form: { values: form, problem } }), problem.status),
    );
  });

  router.get(`${base}/:keyId/revoke`, async (ctx) => {
    const { guild, viewer, key } = await keyOf(ctx);
    if (key.revokedAt) throw new KeyManagementError('KEY_ALREADY_REVOKED', `The key "${key.name}" is already revoked.`);
    sendPage(ctx, RevokeKeyPage({ viewer, guild, key }));
  });

  router.post(`${base}/:keyId/revoke`, async (ctx) => {
    const { guild, actor, key } = await keyOf(ctx);
    await submitOnce(ctx, deps, async () => {
      await revokeApiKey(deps.db, deps.clock, { guildId: guild.id, id: key.id, actor });
      return `/console/servers/${guild.id}/keys`;
    });
  });
}
