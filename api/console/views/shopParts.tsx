import type { GuildRecord } from '../../../db/guild/guilds.js';
import { FieldMessage, invalidAttrs, type FormProblem } from './formParts.js';

// What the shop's pages share: their paths, the nav entry, prices in the server's currency, a number input.

export const shopPath = (guildId: string) => `/console/servers/${guildId}/shop`;
export const storeKey = (storeId: number | null) => (storeId === null ? 'main' : String(storeId));
export const storeItemsPath = (guildId: string, storeId: number | null) => `${shopPath(guildId)}/stores/${storeKey(storeId)}/items`;
export const itemPath = (guildId: string, itemId: number) => `${shopPath(guildId)}/items/${itemId}`;
export const purchasePath = (guildId: string, purchaseId: number) => `${shopPath(guildId)}/purchases/${purchaseId}`;
export const shopNav = (guild: GuildRecord) => ({ id: guild.id, name: guild.name, active: 'shop' as const });

export interface CurrencyName {
  name: string;
  plural: string;
  emoji: string | null;
}

export const priceText = (amount: number, currency: CurrencyName) => `${amount.toLocaleString('en-US')} ${amount === 1 ? currency.name : currency.plural}`;

/** A whole-number input (inputmode numeric, so a phone shows digits) with its label, hint and error. */
export function NumberField(props: { name: string; label: string; value: string; hint?: string; problem?: FormProblem }) {
  const hint = props.hint ? `${props.name}-hint` : undefined;
  return (
    <p>
      <label for={props.name}>{props.label}</label>
      {props.hint && (
        <span id={hint} class="muted hint">
          {props.hint}
        </span>
      )}
      <FieldMessage problem={props.problem} field={props.name} />
      <input type="text" inputMode="numeric" id={props.name} name={props.name} value={props.value} aria-describedby={hint} {...invalidAttrs(props.problem, props.name)} />
    </p>
  );
}

/** A checkbox with its label (sent as `on` when ticked). */
export const CheckField = (props: { name: string; label: string; checked: boolean }) => (
  <p>
    <label class="check">
      <input type="checkbox" id={props.name} name={props.name} value="on" checked={props.checked} /> {props.label}
    </label>
  </p>
);
