import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

// Registered on the dev server from temporal-dev.yml and on a real cluster by the operator (README).
export const GUILD_ID = defineSearchAttributeKey('GuildId', SearchAttributeType.KEYWORD);
export const OPERATION = defineSearchAttributeKey('Operation', SearchAttributeType.KEYWORD);

/** The search attributes every run of the service carries, so operators can find a server's runs. */
export const operationAttributes = (guildId: string, operation: string) => [
  { key: GUILD_ID, value: guildId },
  { key: OPERATION, value: operation },
];
