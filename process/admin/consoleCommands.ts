import { endSessions } from '../../src/console/sessions.js';
import { snowflake } from './args.js';
import { defineCommand, type CommandGroup } from './command.js';
import { usageError } from './errors.js';

const plural = (n: number) => `${n} console session${n === 1 ? '' : 's'}`;

export const consoleGroup: CommandGroup = {
  name: 'console',
  summary: "the web console's sessions",
  commands: [
    defineCommand({
      name: 'sessions end',
      summary: "end a user's console sessions, or everyone's (they must sign in again)",
      flags: {
        user: { type: 'string', placeholder: 'ID', help: 'the platform user id whose sessions end' },
        all: { type: 'boolean', help: "end every user's sessions" },
      },
      async run(flags, ctx) {
        if (Boolean(flags.user) === flags.all) throw usageError('MISSING_FLAG', '`console sessions end` needs either --user ID or --all.');
        const userId = flags.user === undefined ? undefined : snowflake(flags.user, 'user');
        const ended = await endSessions(ctx.db, userId ? { userId } : 'all');
        return {
          json: { ended, userId: userId ?? null },
          text: [userId ? `Ended ${plural(ended)} of user ${userId}.` : `Ended ${plural(ended)} (every user).`],
        };
      },
    }),
  ],
};
