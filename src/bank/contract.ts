import { integerParam, SafeText, SnowflakeId, Timestamp } from '../core/contract.js';
import { z } from '../core/zod.js';

export const MAX_BANK_AMOUNT = 1_000_000_000_000;

export const Currency = z
  .object({ name: z.string(), plural: z.string(), emoji: z.string().nullable() })
  .openapi('Currency');

export const BankBalance = z
  .object({ userId: SnowflakeId, balance: z.number().int(), currency: Currency })
  .openapi('BankBalance');

export const BankTransaction = z
  .object({
    id: z.number().int(),
    type: z.string().openapi({ description: 'Ledger type: `api`, `starting_balance`, `daily`, `transfer_in`, ...' }),
    amount: z.number().int().openapi({ description: 'Signed: negative is a debit.' }),
    balanceAfter: z.number().int(),
    reason: z.string().nullable(),
    counterpartyId: SnowflakeId.nullable(),
    createdAt: Timestamp,
  })
  .openapi('BankTransaction');

export const BankTransactionPage = z
  .object({
    items: z.array(BankTransaction),
    nextCursor: z.string().nullable().openapi({ description: 'Pass as `before` for the next page; null on the last page.' }),
  })
  .openapi('BankTransactionPage');

export const BankTransactionsQuery = z.object({
  limit: integerParam({ min: 1, max: 100, default: 25 }),
  before: integerParam({ min: 1, max: Number.MAX_SAFE_INTEGER }).optional(),
});

export const BankChangeRequest = z
  .strictObject({
    type: z.enum(['add', 'remove']).openapi({ description: '`add` credits, `remove` debits.' }),
    amount: z.number().int().min(1).max(MAX_BANK_AMOUNT),
    reason: SafeText.max(200).nullable().optional(),
  })
  .openapi('BankChangeRequest');

export const BankChange = z
  .object({
    transactionId: z.number().int(),
    userId: SnowflakeId,
    type: z.enum(['add', 'remove']),
    amount: z.number().int(),
    previousBalance: z.number().int(),
    balance: z.number().int(),
    createdAt: Timestamp,
  })
  .openapi('BankChange');

export const BankLeaderboardQuery = z.object({ limit: integerParam({ min: 1, max: 100, default: 10 }) });

export const BankLeaderboard = z
  .object({
    items: z.array(z.object({ rank: z.number().int(), userId: SnowflakeId, balance: z.number().int() }).openapi('BankLeaderRow')),
    currency: Currency,
  })
  .openapi('BankLeaderboard');

export type BankChangeBody = z.infer<typeof BankChange>;
export type CurrencyBody = z.infer<typeof Currency>;
