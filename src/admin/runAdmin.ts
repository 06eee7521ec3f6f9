import type { AdminCommand, AdminContext } from './context.js';
import { guildCommands } from './guildCommands.js';
import { AdminError } from './io.js';
import { keyCommands } from './keyCommands.js';
import { memberCommands } from './memberCommands.js';

const GROUPS: Record<string, Record<string, AdminCommand>> = { guild: guildCommands, member: memberCommands, key: keyCommands };

const USAGE = [
  'Usage: npm run admin -- <group> <command> [flags] [--json]',
  '  guild create|update|show --id ID [--name N] [--locale en|ru|he] [--plan free|pro] [--features a,b|all] [--blocked true|false] [--owner ID] [--bot ID]',
  '  member add|remove --guild ID --user ID [--username N] [--bot] [--roles a,b]',
  '  member list --guild ID',
  '  key create --guild ID --name NAME --scopes all|a,b [--expires 30|90|365] [--created-by USER_ID]',
  '  key list --guild ID',
  '  key revoke --guild ID --id KEY_ID',
];

/** Runs one CLI command and returns its exit code: 0 done, 1 refused, 2 wrong usage. */
export async function runAdmin(argv: string[], ctx: AdminContext): Promise<number> {
  const [group, command, ...rest] = argv;
  const json = rest.includes('--json');
  const run = group && command ? GROUPS[group]?.[command] : undefined;
  if (!run || rest.includes('--help')) {
    const asked = group === undefined || group === '--help' || rest.includes('--help');
    USAGE.forEach((line) => (asked ? ctx.io.out(line) : ctx.io.err(line)));
    return asked ? 0 : 2;
  }
  try {
    await run(rest, ctx);
    return 0;
  } catch (err) {
    if (!(err instanceof AdminError)) throw err;
    ctx.io.err(json ? JSON.stringify({ error: err.code, message: err.message }) : `error: ${err.message}`);
    return err.exitCode;
  }
}
