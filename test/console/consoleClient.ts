import type { Kysely } from 'kysely';
import { upsertPlatformRoles } from '../../db/platform/local.js';
import type { Database } from '../../db/schema.js';
import { createHttpClient, type TestResponse } from '../harness/httpClient.js';
import { addTestMember, createTestGuild, snowflake, type TestGuild } from '../harness/fixtures.js';

export const MANAGE_GUILD = 1n << 5n;

/** A browser's part, without a browser: keeps the session cookie, reads the CSRF token from the pages. */
export function consoleClient(baseUrl: string) {
  const send = createHttpClient(baseUrl);
  /** `cookie`: the session cookie as sent; `signIn`: the Discord sign-in cookie as sent (set while a sign-in is pending). */
  const state = { cookie: '', signIn: '', csrf: '' };
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
    return res;
  }

  const client = {
    state,
    get: async (path: string) => remember(await send('GET', path, { headers: headers() })),
    /** A form POST carrying the session's CSRF token unless `csrf` says otherwise. */
    post: async (path: string, fields: Record<string, string | string[]> = {}, options: { csrf?: string | null; headers?: Record<string, string> } = {}) => {
      const form = new URLSearchParams();
      const token = options.csrf === undefined ? state.csrf : options.csrf;
      if (token !== null && token !== '') form.append('_csrf', token);
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
