import { SENSITIVE_SCOPES, type Scope } from '../../../src/core/scopes.js';

/** What each scope allows, in the spec's words (Authentication, the scope table). */
export const SCOPE_HELP: Record<Scope, string> = {
  'guild:read': 'server info, roles, channels, basic member info',
  'bank:read': 'balances, transaction history, leaderboard',
  'bank:write': 'add or remove balance (ledger entry written)',
  'levels:read': 'member level, XP and rank, XP leaderboard',
  'levels:write': 'add, remove, set XP; read XP change status',
  'invites:read': 'invite counts, rank, leaderboard',
  'invites:write': 'add or remove bonus invites',
  'shop:read': 'stores, items, inventories, purchases',
  'shop:write': 'buy for members (charged from bank), grant free, refund, restock, toggle items',
  'giveaways:read': 'giveaways with counts, winners, entrants',
  'giveaways:write': 'start, end early, reroll',
  'flows:read': 'flow list, run status and result',
  'flows:run': 'run enabled Manual and Webhook flows with input; runs count toward the daily limit',
  'tickets:read': 'ticket list, details, transcripts of closed tickets',
  'tickets:write': 'close open tickets with a reason',
  'applications:read': 'forms and submissions with answers, votes, decisions',
  'applications:write': 'accept or deny open applications',
  'appeals:read': 'appeals with answers, ban reason, conversation',
  'appeals:write': 'approve (unban) or reject open appeals',
  'moderation:read': 'moderation cases and API action status',
  'moderation:write': 'warn, time out, kick, ban, unban as the key’s creator',
};

export const isSensitive = (scope: string) => SENSITIVE_SCOPES.has(scope as Scope);

/** The "sensitive" tag beside a scope, in the picker and the list. */
export const SensitiveTag = () => <span class="tag">sensitive</span>;

/** A key's scopes as the list shows them, the sensitive ones tagged. */
export function ScopeList({ scopes }: { scopes: readonly string[] }) {
  return (
    <ul class="scopes">
      {scopes.map((s) => (
        <li data-sensitive={isSensitive(s) ? '' : undefined}>
          {s}
          {isSensitive(s) && (
            <>
              {' '}
              <SensitiveTag />
            </>
          )}
        </li>
      ))}
    </ul>
  );
}
