import { beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../src/core/clock.js';
import { FEATURES } from '../../src/core/features.js';
import { SCOPES } from '../../src/core/scopes.js';
import { useTestDatabase } from '../harness/database.js';
import { snowflake } from '../harness/fixtures.js';
import { cli, cliGuild } from './cli.js';

const database = useTestDatabase();
const admin = cli(() => database.db, fixedClock(new Date('2026-11-22T10:00:00Z')));

const G = '100000000000000001';
let guild: string;
beforeAll(async () => {
  guild = (await cliGuild(admin)).id;
});
/** `@guild` in a case stands for a registered guild (the cases are built before it exists). */
const withGuild = (argv: string[]) => argv.map((a) => (a === '@guild' ? guild : a));

const auditCount = async () =>
  Number((await database.db.selectFrom('audit_log').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);

describe('usage errors (exit code 2, nothing changed)', () => {
  it.each([
    ['a short id', ['guild', 'create', '--id', '123'], 'INVALID_ARGUMENT', '--id must be a snowflake id (17 to 20 digits), got "123".'],
    ['a non-numeric id', ['guild', 'show', '--id', 'abcdefghijklmnopqr'], 'INVALID_ARGUMENT', '--id must be a snowflake id (17 to 20 digits), got "abcdefghijklmnopqr".'],
    ['a missing id', ['guild', 'show'], 'MISSING_FLAG', '`guild show` needs --id ID.'],
    ['a flag without its value', ['guild', 'show', '--id'], 'INVALID_ARGUMENT', '--id needs a value (`guild show`).'],
    ['an unknown feature', ['guild', 'create', '--id', G, '--features', 'bank,lasers'], 'UNKNOWN_FEATURE', `Unknown feature(s): lasers. Valid: ${FEATURES.join(', ')} (or all, none).`],
    ['an unknown plan', ['guild', 'create', '--id', G, '--plan', 'gold'], 'INVALID_ARGUMENT', '--plan must be one of free, pro; got "gold".'],
    ['an unknown locale', ['guild', 'update', '--id', G, '--locale', 'fr'], 'INVALID_ARGUMENT', '--locale must be one of en, ru, he; got "fr".'],
    ['a non-boolean blocked', ['guild', 'update', '--id', G, '--blocked', 'yes'], 'INVALID_ARGUMENT', '--blocked must be one of true, false; got "yes".'],
    ['an empty name', ['guild', 'update', '--id', G, '--name', ' '], 'INVALID_ARGUMENT', '--name must be 1 to 100 characters.'],
    ['an update without changes', ['guild', 'update', '--id', G], 'NOTHING_TO_CHANGE', 'Nothing to change: give --name, --locale, --plan, --features or --blocked.'],
    ['an unknown flag', ['guild', 'show', '--id', G, '--colour', 'red'], 'UNKNOWN_FLAG', 'Unknown flag --colour for `guild show`; it accepts --id, --json, --help.'],
    ['a flag of another command', ['guild', 'update', '--id', G, '--owner', G], 'UNKNOWN_FLAG', 'Unknown flag --owner for `guild update`; it accepts --id, --name, --locale, --plan, --features, --blocked, --operator, --json, --help.'],
    ['a stray argument', ['guild', 'show', '--id', G, 'extra'], 'UNEXPECTED_ARGUMENT', 'Unexpected argument "extra" for `guild show`; every value goes after its flag.'],
    ['an invalid owner', ['guild', 'create', '--id', G, '--owner', '42'], 'INVALID_ARGUMENT', '--owner must be a snowflake id (17 to 20 digits), got "42".'],
    ['an invalid user', ['member', 'add', '--guild', G, '--user', 'me'], 'INVALID_ARGUMENT', '--user must be a snowflake id (17 to 20 digits), got "me".'],
    ['an invalid role', ['member', 'add', '--guild', G, '--user', G, '--roles', `${G},mods`], 'INVALID_ARGUMENT', '--roles must be a snowflake id (17 to 20 digits), got "mods".'],
    ['a value for --bot on member add', ['member', 'add', '--guild', G, '--user', G, '--bot=yes'], 'INVALID_ARGUMENT', '--bot takes no value (`member add`).'],
    ['member flags on remove', ['member', 'remove', '--guild', G, '--user', G, '--username', 'x'], 'UNKNOWN_FLAG', 'Unknown flag --username for `member remove`; it accepts --guild, --user, --operator, --json, --help.'],
    ['an unknown scope', ['key', 'create', '--guild', '@guild', '--name', 'x', '--scopes', 'bank:read,bank:fly'], 'UNKNOWN_SCOPE', `Unknown scope(s): bank:fly. Valid: ${SCOPES.join(', ')} (or all).`],
    ['no scope', ['key', 'create', '--guild', '@guild', '--name', 'x', '--scopes', ','], 'INVALID_ARGUMENT', `--scopes names no scope. Valid: ${SCOPES.join(', ')} (or all).`],
    ['missing scopes', ['key', 'create', '--guild', '@guild', '--name', 'x'], 'MISSING_FLAG', '`key create` needs --scopes all|a,b,c.'],
    ['an unsupported expiry', ['key', 'create', '--guild', '@guild', '--name', 'x', '--scopes', 'all', '--expires', '45'], 'INVALID_ARGUMENT', '--expires must be one of 30, 90, 365; got "45".'],
    ['an invalid creator', ['key', 'create', '--guild', '@guild', '--name', 'x', '--scopes', 'all', '--created-by', 'owner'], 'INVALID_ARGUMENT', '--created-by must be a snowflake id (17 to 20 digits), got "owner".'],
    ['a too long key name', ['key', 'create', '--guild', '@guild', '--name', 'x'.repeat(101), '--scopes', 'all'], 'INVALID_ARGUMENT', '--name must be 1 to 100 characters.'],
    ['a non-integer key id', ['key', 'revoke', '--guild', '@guild', '--id', '1.5'], 'INVALID_ARGUMENT', '--id must be an API key id (a positive integer, see `key list`), got "1.5".'],
    ['an unknown group', ['guilds', 'show'], 'UNKNOWN_COMMAND', 'Unknown command group "guilds"; use one of guild, member, key, webhook, tickets, applications, levels, flow, shop, console, discord, simulate.'],
    ['an unknown command', ['key', 'rotate', '--guild', G], 'UNKNOWN_COMMAND', 'Unknown command "key rotate"; use one of create, list, revoke.'],
  ])('refuses %s', async (_, argv, code, message) => {
    const before = await auditCount();
    const text = await admin(...withGuild(argv));
    expect(text).toMatchObject({ code: 2, stdout: '', stderr: `error: ${message}` });
    const json = await admin(...withGuild(argv), '--json');
    expect(json.code).toBe(2);
    expect(json.stdout).toBe('');
    expect(json.error()).toEqual({ error: code, message });
    expect(await auditCount()).toBe(before);
  });
});

describe('help', () => {
  it('prints the command groups for --help and exits 0', async () => {
    const res = await admin('--help');
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('Usage: npm run admin -- <group> <command> [flags] [--json]');
    for (const group of ['guild', 'member', 'key']) expect(res.stdout).toMatch(new RegExp(`^  ${group} `, 'm'));
  });

  it.each([
    ['guild', ['guild create --id ID [--name N]', 'guild update --id ID', 'guild show --id ID [--json]']],
    ['member', ['member add --guild ID --user ID [--username N] [--bot] [--roles a,b] [--operator NAME] [--json]', 'member remove --guild ID --user ID [--operator NAME] [--json]', 'member list --guild ID [--json]']],
    ['key', ['key create --guild ID --name NAME --scopes all|a,b,c [--expires 30|90|365] [--created-by USER_ID]', 'key list --guild ID [--json]', 'key revoke --guild ID --id KEY_ID']],
  ])('prints the commands of the %s group for its --help', async (group, usages) => {
    const res = await admin(group, '--help');
    expect(res.code).toBe(0);
    for (const usage of usages) expect(res.stdout).toContain(usage);
  });

  it('describes every flag of a command', async () => {
    const res = await admin('key', 'create', '--help');
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('Create an API key and print it (the only time it is shown).');
    expect(res.stdout).toMatch(/--scopes\s+scopes: guild:read, bank:read, .* \(required\)/);
    expect(res.stdout).toMatch(/--operator\s+who the audit log names/);
  });

  it('shows the help on stderr with exit code 2 when the command is missing', async () => {
    const bare = await admin();
    expect(bare).toMatchObject({ code: 2, stdout: '' });
    expect(bare.stderr).toContain('Usage: npm run admin --');
    const group = await admin('member');
    expect(group).toMatchObject({ code: 2, stdout: '' });
    expect(group.stderr).toContain('member list --guild ID');
  });

  it('does not run a command asked for its help', async () => {
    const id = snowflake();
    expect((await admin('guild', 'create', '--id', id, '--help')).code).toBe(0);
    expect((await admin('guild', 'show', '--id', id)).code).toBe(1);
  });
});
