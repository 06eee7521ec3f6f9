import { changeLevelRewards } from '../../../src/levels/changeLevelRewards.js';
import { changeLevelSettings, type LevelSettingsChange } from '../../../src/levels/changeLevelSettings.js';
import type { AppDeps } from '../../context.js';
import type { ConsoleRouter } from '../consoleState.js';
import { FormRejection } from '../formFlow.js';
import { LEVEL_FIELDS as F, type LevelForm } from '../views/levelFields.js';
import { levelsChange, levelsForm } from './levelsPageSend.js';

/** A whole number as typed; anything else is NaN, which the use case refuses on the field (INVALID_RATE, INVALID_LEVEL). */
const wholeNumber = (raw: string | null) => (raw !== null && /^-?\d{1,9}$/.test(raw.trim()) ? Number(raw.trim()) : Number.NaN);

/** A choice the form always sends (a radio, a picker without an empty choice): missing is a 400 on its field. */
function required(form: URLSearchParams, field: string, message: string): string {
  const value = form.get(field) ?? '';
  if (value === '') throw new FormRejection(400, 'INVALID_INPUT', [{ field, message }]);
  return value;
}

function rulesOf(form: URLSearchParams): Omit<LevelSettingsChange, 'guildId' | 'actor'> {
  const stacking = form.get(F.stacking);
  if (stacking !== 'stack' && stacking !== 'replace') throw new FormRejection(400, 'INVALID_INPUT', [{ field: F.stacking, message: 'Choose whether reward roles stack or replace each other.' }]);
  return {
    xpPerMessage: wholeNumber(form.get(F.xpPerMessage)),
    xpPerVoiceMinute: wholeNumber(form.get(F.xpPerVoiceMinute)),
    messageCooldownSeconds: wholeNumber(form.get(F.cooldown)),
    removePreviousRewards: stacking === 'replace',
    noXpRoleIds: form.getAll(F.noXpRoles),
  };
}

const rewardOf = (form: URLSearchParams) => ({ level: wholeNumber(form.get(F.rewardLevel)), roleId: required(form, F.rewardRole, 'Choose the role given at that level.') });

/**
 * The levels page's XP rules (rates, cooldown, stack or replace, no-XP roles), its no-XP channels and its reward
 * roles: each form one use case of src/levels (changeLevelSettings, changeLevelRewards: what the admin CLI's level
 * commands call), its refusal kept on the form's field.
 */
export function levelRuleRoutes(router: ConsoleRouter, deps: AppDeps, base: string): void {
  const post = (path: string, name: LevelForm, change: Parameters<typeof levelsForm>[4]) => levelsForm(router, deps, `${base}${path}`, name, change);

  post('/rules', 'rules', (form, guildId, actor) => {
    const change = { guildId, actor, ...rulesOf(form) };
    return levelsChange(deps, (trx) => changeLevelSettings(trx, deps.platform, change));
  });
  post('/no-xp-channels', 'noXpChannel', (form, guildId, actor) => {
    const add = required(form, F.noXpChannel, 'Choose the channel whose messages earn nothing.');
    return levelsChange(deps, (trx) => changeLevelSettings(trx, deps.platform, { guildId, actor, noXpChannel: { add } }));
  });
  post('/no-xp-channels/remove', 'noXpChannel', (form, guildId, actor) => {
    const remove = required(form, 'channel', 'Choose the channel to take off the list.');
    return levelsChange(deps, (trx) => changeLevelSettings(trx, deps.platform, { guildId, actor, noXpChannel: { remove } }));
  });
  post('/rewards', 'reward', (form, guildId, actor) => {
    const add = rewardOf(form);
    return levelsChange(deps, (trx) => changeLevelRewards(trx, deps.platform, { guildId, actor, change: { add } }));
  });
  post('/rewards/remove', 'reward', (form, guildId, actor) => {
    const remove = { level: wholeNumber(form.get('level')), roleId: required(form, 'role', 'Choose the reward to take off.') };
    return levelsChange(deps, (trx) => changeLevelRewards(trx, deps.platform, { guildId, actor, change: { remove } }));
  });
}
