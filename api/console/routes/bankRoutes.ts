import type { BankSettings } from '../../../db/bank/accounts.js';
import type { GuildRecord } from '../../../db/guild/guilds.js';
import { BankSettingsRefusal, changeBankSettings } from '../../../src/bank/changeBankSettings.js';
import { leaderCursorText, parseLeaderCursor, readBankOverview } from '../../../src/console/bankOverview.js';
import { ConsoleRefusal } from '../../../src/console/errors.js';
import type { AppDeps } from '../../context.js';
import { formOf, managedServer } from '../consoleDeps.js';
import { requireFeature } from '../consoleFeatures.js';
import type { ConsoleContext, ConsoleRouter } from '../consoleState.js';
import { FormRejection, submitOnce } from '../formFlow.js';
import { sendPage } from '../render.js';
import { BankSearchPage } from '../views/bankMemberPages.js';
import { BANK_FIELDS, bankMemberPath, BankPage, bankPath } from '../views/bankPages.js';
import { findMember } from './memberPick.js';
import { FeatureOffPage } from '../views/featureOff.js';
import type { FormState } from '../views/formParts.js';
import type { Viewer } from '../views/layout.js';

const SETTING_FIELD: Record<BankSettingsRefusal['setting'], string> = {
  name: BANK_FIELDS.name,
  plural: BANK_FIELDS.plural,
  emoji: BANK_FIELDS.emoji,
  startingBalance: BANK_FIELDS.startingBalance,
  maxBalance: BANK_FIELDS.maxBalance,
  logChannelId: BANK_FIELDS.logChannel,
};

/** A whole-number field of the form (empty: null), or a 400 naming it: the use case judges the range. */
function wholeNumber(form: URLSearchParams, field: string): number | null {
  const text = (form.get(field) ?? '').trim().replaceAll(',', '');
  if (text === '') return null;
  if (!/^\d{1,16}$/.test(text)) throw new FormRejection(400, 'INVALID_INPUT', [{ field, message: 'Enter a whole number of at most 16 digits.' }]);
  return Number(text);
}

/** The settings form's input: every field is sent, so the form is the settings as they should be. */
function settingsOf(form: URLSearchParams): BankSettings {
  const emoji = (form.get(BANK_FIELDS.emoji) ?? '').trim();
  const startingBalance = wholeNumber(form, BANK_FIELDS.startingBalance);
  if (startingBalance === null) throw new FormRejection(400, 'INVALID_INPUT', [{ field: BANK_FIELDS.startingBalance, message: 'Enter the starting balance (0 for none).' }]);
  return {
    currency: { name: (form.get(BANK_FIELDS.name) ?? '').trim(), plural: (form.get(BANK_FIELDS.plural) ?? '').trim(), emoji: emoji === '' ? null : emoji },
    startingBalance,
    maxBalance: wholeNumber(form, BANK_FIELDS.maxBalance),
    logChannelId: form.get(BANK_FIELDS.logChannel) || null,
  };
}

/**
 * Bank: the settings (src/bank/changeBankSettings.ts; the REST API has none), the leaderboard in the API's order,
 * paged by keyset, and the member finder (user id, or a name among the accounts changed last).
 */
export function bankRoutes(router: ConsoleRouter, deps: AppDeps): void {
  const base = '/servers/:guildId/bank';

  async function sendBankPage(ctx: ConsoleContext, guild: GuildRecord, viewer: Viewer, form?: FormState): Promise<void> {
    const raw = typeof ctx.query.after === 'string' ? ctx.query.after : undefined;
    const after = raw === undefined ? null : parseLeaderCursor(raw);
    if (raw !== undefined && !after) throw new ConsoleRefusal('INVALID_INPUT', '`after` is the last row of the previous page.');
    const overview = await readBankOverview(deps, guild.id, after);
    const next = overview.leaderboard.next;
    const olderHref = next && `${bankPath(guild.id)}?after=${leaderCursorText(next)}`;
    sendPage(ctx, BankPage({ viewer, guild, overview, olderHref, form }), form?.problem?.status);
  }

  router.get(base, async (ctx) => {
    const { guild, viewer } = await managedServer(ctx, deps);
    if (!guild.features.includes('bank')) return sendPage(ctx, FeatureOffPage({ viewer, guild, feature: 'bank', active: 'bank', title: 'Bank', then: 'bank' }));
    await sendBankPage(ctx, guild, viewer);
  });

  router.post(`${base}/settings`, async (ctx) => {
    const { guild, viewer, actor } = await managedServer(ctx, deps);
    requireFeature(guild, 'bank');
    const form = formOf(ctx);
    await submitOnce(
      ctx,
      deps,
      async () => {
        const settings = settingsOf(form);
        await deps.db
          .transaction()
          .execute((trx) => changeBankSettings(trx, deps.platform, { guildId: guild.id, settings, actor }))
          .catch((err: unknown) => {
            if (!(err instanceof BankSettingsRefusal)) throw err;
            throw new FormRejection(422, err.code, [{ field: SETTING_FIELD[err.setting], message: err.message }]);
          });
        return bankPath(guild.id);
      },
      (problem) => sendBankPage(ctx, guild, viewer, { values: form, problem }),
    );
  });

  // A user id goes straight to the member's page (someone who left may still hold an account); a name is searched
  // among the server's members, each found a link to their page.
  router.get(`${base}/members`, async (ctx) => {
    const { guild, viewer } = await managedServer(ctx, deps);
    requireFeature(guild, 'bank');
    const found = await findMember(deps, ctx, guild.id, (userId) => bankMemberPath(guild.id, userId));
    if (found) sendPage(ctx, BankSearchPage({ viewer, guild, ...found }), found.status);
  });
}
