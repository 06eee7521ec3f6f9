import { findLocalPerson, listLocalPeople } from '../../db/console/localPeople.js';
import { SNOWFLAKE_PATTERN } from '../core/snowflake.js';
import { ConsoleRefusal } from './errors.js';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { admitSignInAttempt } from './signInLimit.js';
import { signInUser, type SignInDeps } from './userSessions.js';

interface Deps extends SignInDeps {
  signInPerMinute: number;
}

/** The people the development sign-in offers (the local platform's humans). */
export const localSignInChoices = (db: Kysely<Database>) => listLocalPeople(db, 200);

/**
 * The development sign-in of the local platform: signs in as one of its members (no password: the local platform
 * is a laptop's or a test's). The manager rule then applies exactly as with Discord. Returns the session token.
 */
export async function signInAsLocalMember(deps: Deps, input: { userId: string; clientAddress: string; previousToken?: string }): Promise<string> {
  await admitSignInAttempt({ ...deps, perMinute: deps.signInPerMinute }, input.clientAddress);
  const person = SNOWFLAKE_PATTERN.test(input.userId) ? await findLocalPerson(deps.db, input.userId) : undefined;
  if (!person) throw new ConsoleRefusal('SIGN_IN_FAILED', 'No member of the local platform has this user id.');
  const user = { userId: person.userId, userName: person.name, guildIds: null };
  return signInUser(deps, user, { method: 'local', clientAddress: input.clientAddress, previousToken: input.previousToken });
}
