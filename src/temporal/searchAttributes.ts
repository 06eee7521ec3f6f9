import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

// Registered on the dev server from temporal-dev.yml and on a real cluster by the operator (README).
export const GUILD_ID = defineSearchAttributeKey('GuildId', SearchAttributeType.KEYWORD);
export const OPERATION = defineSearchAttributeKey('Operation', SearchAttributeType.KEYWORD);
