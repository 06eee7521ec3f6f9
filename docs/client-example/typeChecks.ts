/**
 * Compile-time checks of the generated types (never run): `tsc -p docs/client-example` fails when the document
 * stops typing these calls as a client needs. Each `@ts-expect-error` fails the build if the error goes away.
 */
import type { paths } from './generated/api.js';
import type { ServiceClient } from './client.js';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Expect<T extends true> = T;

// The Idempotency-Key header is declared, optional and a string, on an idempotent write...
type XpChangeHeaders = NonNullable<paths['/guilds/{guildId}/levels/members/{userId}/xp-changes']['post']['parameters']['header']>;
export type IdempotencyKeyIsAnOptionalString = Expect<Equal<XpChangeHeaders, { 'Idempotency-Key'?: string }>>;
// ...and only there.
export type ReadsTakeNoHeader = Expect<Equal<paths['/guilds/{guildId}']['get']['parameters']['header'], undefined>>;

export async function calls(client: ServiceClient) {
  const path = { guildId: '1183412207618781234', userId: '1183412207618781235' };

  // Optional fields (`unit`, `reason`) may be left out, and the header too.
  await client.POST('/guilds/{guildId}/levels/members/{userId}/xp-changes', { params: { path }, body: { type: 'set', amount: 0 } });

  await client.POST('/guilds/{guildId}/levels/members/{userId}/xp-changes', {
    // @ts-expect-error the header's value is a string
    params: { path, header: { 'Idempotency-Key': 42 } },
    body: { type: 'add', amount: 1 },
  });

  // @ts-expect-error `amount` is required
  await client.POST('/guilds/{guildId}/levels/members/{userId}/xp-changes', { params: { path }, body: { type: 'add' } });

  // Bodies that are optional (requestBody.required: false) may be left out entirely...
  await client.POST('/guilds/{guildId}/moderation/users/{userId}/kick', { params: { path } });
  await client.POST('/guilds/{guildId}/appeals/{number}/reject', { params: { path: { guildId: path.guildId, number: 1 } } });

  // ...the others may not.
  // @ts-expect-error a warning needs its reason
  await client.POST('/guilds/{guildId}/moderation/users/{userId}/warn', { params: { path } });

  // Paths are relative to the base URL: the /api/v1 prefix is not part of them.
  // @ts-expect-error no such path
  await client.GET('/api/v1/guilds/{guildId}', { params: { path: { guildId: path.guildId } } });
}
