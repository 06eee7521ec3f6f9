import type { Kysely } from 'kysely';
import { upsertPlatformRoles } from '../../db/platform/local.js';
import type { Database } from '../../db/schema.js';
import { createHttpClient, type TestResponse } from '../harness/httpClient.js';
import { addTestMember, createTestGuild, snowflake, type TestGuild } from '../harness/fixtures.js';

export const MANAGE_GUILD = 1n << 5n;

/** The one-time token of each form on a page, by the form's action. */
export function formTokensOf(html: string): Map<string, string> {
  const tokens = new Map<string, string>();
  for (const [, action, body] of html.matchAll(/<form[^>]*?action="([^"]+)"[^>]*>(.*?)<\/form>/gs)) {
    const token = /name="_form" value="([^"]+)"/.exec(body!)?.[1];
    if (token) tokens.set(action!, token);
  }
  return tokens;
}

/**
 * A browser's part, without a browser: keeps the session cookie, reads the CSRF token and the forms' one-time
 * tokens from the pages (the last page seen with a form for an action gives its token).
 */
export function consoleClient(baseUrl: string) {
  const send = createHttpClient(baseUrl);
  /** `cookie`: the session cookie as sent; `signIn`: the Discord sign-in cookie as sent (set while a sign-in is pending). */
  const state = { cookie: '', signIn: '', csrf: '', forms: new Map<string, string>() };
  const headers = (extra: Record<string, string> = {}) => {
    const cookies = [state.cookie, state.signIn].filter(Boolean).join('; ');
    return { ...(cookies ? { Cookie: cookies } : {}), ...extra };
  };

  function remember(res: TestResponse): TestResponse {
    const set = res.headers['set-cookie'] ?? [];
    for (const line of set) {
      const [pair] = line.split(';');
      const [name, value] = pair!.split('=');
      if (name === 'console_session') state.cookie = value ? `console_session=${value}` : '';
      if (name === 'console_sign_in') state.signIn = value ? `console_sign_in=${value}` : '';
    }
    const csrf = /name="_csrf" value="([^"]+)"/.exec(res.text);
    if (csrf) state.csrf = csrf[1]!;
    for (const [action, token] of formTokensOf(res.text)) state.forms.set(action, token);
    return res;
  }

  const client = {
    state,
    get: async (path: string) => remember(await send('GET', path, { headers: headers() })),
    /**
     * A form POST carrying the session's CSRF token and the form's one-time token (from the last page showing a form
     * for `path`) unless `csrf` or `form` says otherwise (null: none).
     */
    post: async (
      path: string,
      fields: Record<string, string | string[]> = {},
      options: { csrf?: string | null; form?: string | null; headers?: Record<string, string> } = {},
    ) => {
      const form = new URLSearchParams();
      const token = options.csrf === undefined ? state.csrf : options.csrf;
      if (token !== null && token !== '') form.append('_csrf', token);
      const once = options.form === undefined ? state.forms.get(path) : options.form;
      if (once) form.append('_form', once);
      for (const [k, v] of Object.entries(fields)) for (const one of [v].flat()) form.append(k, one);
      return remember(
        await send('POST', path, { headers: headers({ 'Content-Type': 'application/x-www-form-urlencoded', ...options.headers }), body: form.toString() }),
      );
    },
    async signIn(userId: string) {
      const res = await client.post('/console/sign-in/local', { userId });
      if (res.status !== 303) throw new Error(`sign-in answered ${res.status}: ${res.text.slice(0, 300)}`);
      await client.get('/console');
      return res;
    },
  };
  return client;
}

export type ConsoleClient = ReturnType<typeof consoleClient>;

/** The error code a console error page shows. */
export const errorCodeOf = (res: TestResponse) => /data-error="([A-Z_]+)"/.exec(res.text)?.[1];

/** The message a form page shows under the field with this id (formParts.tsx FieldError), trimmed. */
export const fieldErrorOf = (html: string, field: string) => new RegExp(`id="${field}-error"[^>]*>.*?</span>([^<]*)`, 's').exec(html)?.[1]?.trim();

/** The lines of a confirmation page's list marked with `attribute` (the decision's effects, what a switch stops). */
export const confirmLinesOf = (html: string, attribute = 'data-decision-effects') =>
  [...(new RegExp(`<ul ${attribute}[^>]*>(.*?)</ul>`, 's').exec(html)?.[1] ?? '').matchAll(/<li>(.*?)<\/li>/gs)].map((m) => m[1]!.replaceAll('&#39;', "'").replaceAll('&quot;', '"'));

/** A server with its owner, a member holding Manage Server through a role, and a member without it. */
export async function managedGuild(db: Kysely<Database>, name = 'Console Guild'): Promise<TestGuild & { managerId: string; memberId: string; managerRoleId: string }> {
  const guild = await createTestGuild(db, { name });
  const managerRoleId = snowflake();
  await upsertPlatformRoles(db, guild.id, [
    { roleId: managerRoleId, name: 'Managers', position: 2, permissions: MANAGE_GUILD },
    { roleId: guild.id, name: '@everyone', position: 0 },
  ]);
  const managerId = await addTestMember(db, guild, { username: 'manager', roleIds: [managerRoleId] });
  const memberId = await addTestMember(db, guild, { username: 'member' });
  return { ...guild, managerId, memberId, managerRoleId };
}

/** A managedGuild, its row changed as `change` says (plan, features), and a console client signed in as its manager. */
export async function signedInManager(db: Kysely<Database>, baseUrl: string, change: { name?: string; plan?: 'free' | 'pro'; features?: string[] } = {}) {
  const guild = await managedGuild(db, change.name);
  const row = { ...(change.plan && { plan: change.plan }), ...(change.features && { features: change.features }) };
  if (Object.keys(row).length > 0) await db.updateTable('guilds').set(row).where('id', '=', guild.id).execute();
  const client = consoleClient(baseUrl);
  await client.signIn(guild.managerId);
  return { guild, client };
}

/** The console users' audit rows of a server, oldest first, without their sign-ins (console.signIn). */
export const consoleUserAudit = (db: Kysely<Database>, guildId: string) =>
  db
    .selectFrom('audit_log')
    .select(['actor_type', 'actor_id', 'action', 'target_id', 'data'])
    .where('guild_id', '=', guildId)
    .where('actor_type', '=', 'console_user')
    .where('action', '!=', 'console.signIn')
    .orderBy('id')
    .execute();
