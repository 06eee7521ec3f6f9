import type { GuildRecord } from '../../../db/guild/guilds.js';
import type { KeyRow } from '../../../src/console/keysOverview.js';
import { isoTime } from './layout.js';
import { ScopeList } from './scopeText.js';

const DAY_MS = 86_400_000;
/** Keys ending within this are flagged in the list (Stripe warns a week ahead as well). */
const EXPIRY_WARNING_MS = 7 * DAY_MS;

export const keyState = (k: KeyRow, now: Date): 'active' | 'expired' | 'revoked' => (k.revokedAt ? 'revoked' : k.expiresAt && k.expiresAt <= now ? 'expired' : 'active');

/** What the list warns about a key: replaced by a roll and ending, ending soon, or expired without a replacement. */
export function expiryWarning(k: KeyRow, now: Date): 'rolled' | 'expires-soon' | 'expired' | undefined {
  const state = keyState(k, now);
  if (state === 'revoked' || !k.expiresAt) return undefined;
  if (state === 'expired') return k.rolledInto === null ? 'expired' : undefined;
  if (k.rolledInto !== null) return 'rolled';
  return k.expiresAt.getTime() - now.getTime() <= EXPIRY_WARNING_MS ? 'expires-soon' : undefined;
}

function inWords(ms: number): string {
  if (ms < 3_600_000) return 'within the hour';
  if (ms < DAY_MS) return `in ${Math.ceil(ms / 3_600_000)} hours`;
  const days = Math.ceil(ms / DAY_MS);
  return days === 1 ? 'within a day' : `in ${days} days`;
}

function ExpiryCell({ apiKey: k, now }: { apiKey: KeyRow; now: Date }) {
  const warning = expiryWarning(k, now);
  const left = k.expiresAt ? k.expiresAt.getTime() - now.getTime() : 0;
  return (
    <td data-expiry-warning={warning}>
      {k.expiresAt ? isoTime(k.expiresAt) : 'never'}
      {warning === 'rolled' && <strong class="warning"> Replaced by a roll: stops working {inWords(left)}.</strong>}
      {warning === 'expires-soon' && <strong class="warning"> Expires {inWords(left)}: roll it to keep it working.</strong>}
      {warning === 'expired' && <strong class="warning"> Expired: requests with it are refused.</strong>}
    </td>
  );
}

/** One key in the list; `rollable` when it can be rolled now (active, not replaced, not the end of a roll under way). */
export function KeyTableRow({ guild, apiKey: k, now, rollable }: { guild: GuildRecord; apiKey: KeyRow; now: Date; rollable: boolean }) {
  const state = keyState(k, now);
  const base = `/console/servers/${guild.id}/keys/${k.id}`;
  return (
    <tr data-key-id={String(k.id)}>
      <td>{k.name}</td>
      <td>
        <code>{k.prefix}…</code>
      </td>
      <td>
        <ScopeList scopes={k.scopes} />
      </td>
      <td data-created-by={k.createdBy ?? undefined}>{k.creatorName ?? k.createdBy ?? '—'}</td>
      <td>{isoTime(k.createdAt)}</td>
      <ExpiryCell apiKey={k} now={now} />
      <td data-last-used>{k.lastUsedAt ? isoTime(k.lastUsedAt) : 'never'}</td>
      <td data-state={state}>
        {state}
        {k.revokedAt && <> {isoTime(k.revokedAt)}</>}
      </td>
      <td class="actions">
        {rollable && (
          <a href={`${base}/roll`} aria-label={`Roll ${k.name} (${k.prefix}…)`}>
            Roll…
          </a>
        )}{' '}
        {state === 'active' && (
          <a href={`${base}/revoke`} aria-label={`Revoke ${k.name} (${k.prefix}…)`}>
            Revoke…
          </a>
        )}
      </td>
    </tr>
  );
}
