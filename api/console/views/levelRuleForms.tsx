import type { GuildRecord } from '../../../db/guild/guilds.js';
import type { LevelsOverview } from '../../../src/console/levelsOverview.js';
import { LEVEL_LIMITS } from '../../../src/levels/levelRules.js';
import { DataTable } from './dataTable.js';
import { FieldMessage, FormFields, invalidAttrs, type FormState } from './formParts.js';
import type { Viewer } from './layout.js';
import { LEVEL_FIELDS as F } from './levelFields.js';
import { ChannelPicker, RolePicker, RolesPicker } from './pickers.js';

interface FormProps {
  viewer: Viewer;
  guild: GuildRecord;
  overview: LevelsOverview;
  /** The form as sent, when this form came back. */
  form?: FormState;
}

const MESSAGE_CHANNEL_TYPES = ['text', 'announcement', 'voice', 'stage', 'forum', 'media'] as const;

function NumberField(props: { id: string; label: string; hint: string; value: string; min: number; max: number; form?: FormState }) {
  return (
    <p>
      <label for={props.id}>{props.label}</label>
      <span class="muted hint">{props.hint}</span>
      <FieldMessage problem={props.form?.problem} field={props.id} />
      <input id={props.id} name={props.id} type="number" inputMode="numeric" min={props.min} max={props.max} step={1} value={props.value} required {...invalidAttrs(props.form?.problem, props.id)} />
    </p>
  );
}

/**
 * A list entry's Remove: a plain form (no confirmation page: taking a setting off the list is undone by adding it
 * again, and takes nothing from members), named for screen readers by what it removes.
 */
function RemoveButton(props: { viewer: Viewer; action: string; fields: Record<string, string>; label: string }) {
  return (
    <form method="post" action={props.action}>
      <FormFields viewer={props.viewer} action={props.action} />
      {Object.entries(props.fields).map(([name, value]) => (
        <input type="hidden" name={name} value={value} />
      ))}
      <button type="submit" aria-label={props.label}>
        Remove
      </button>
    </form>
  );
}

/** XP per message and per voice minute, the cooldown, stack or replace, and the roles that earn nothing: one form. */
export function XpRulesForm(props: FormProps) {
  const { settings, directory } = props.overview;
  const values = props.form?.values;
  const problem = props.form?.problem;
  const value = (field: string, saved: number) => values?.get(field) ?? String(saved);
  const stacking = values?.get(F.stacking) ?? (settings.removePreviousRewards ? 'replace' : 'stack');
  const action = `/console/servers/${props.guild.id}/levels/rules`;
  const L = LEVEL_LIMITS;
  return (
    <form method="post" action={action} class="card">
      <h2>What members earn</h2>
      <FormFields viewer={props.viewer} action={action} />
      <NumberField id={F.xpPerMessage} label="XP per message" hint={`${L.xpPerMessage.min} to ${L.xpPerMessage.max}; 0: messages earn nothing.`} value={value(F.xpPerMessage, settings.xpPerMessage)} min={L.xpPerMessage.min} max={L.xpPerMessage.max} form={props.form} />
      <NumberField id={F.xpPerVoiceMinute} label="XP per voice minute" hint={`${L.xpPerVoiceMinute.min} to ${L.xpPerVoiceMinute.max}.`} value={value(F.xpPerVoiceMinute, settings.xpPerVoiceMinute)} min={L.xpPerVoiceMinute.min} max={L.xpPerVoiceMinute.max} form={props.form} />
      <NumberField
        id={F.cooldown}
        label="Message cooldown (seconds)"
        hint={`${L.messageCooldownSeconds.min} to ${L.messageCooldownSeconds.max}: a member's messages earn XP at most once in this time.`}
        value={value(F.cooldown, settings.messageCooldownSeconds)}
        min={L.messageCooldownSeconds.min}
        max={L.messageCooldownSeconds.max}
        form={props.form}
      />
      <fieldset id={F.stacking} {...invalidAttrs(problem, F.stacking, true)}>
        <legend>Reward roles</legend>
        <FieldMessage problem={problem} field={F.stacking} />
        <label class="check">
          <input type="radio" name={F.stacking} value="stack" checked={stacking === 'stack'} /> Stack: a member keeps every reward reached
        </label>
        <label class="check">
          <input type="radio" name={F.stacking} value="replace" checked={stacking === 'replace'} /> Replace: a member keeps only the highest reached
        </label>
      </fieldset>
      <RolesPicker
        name={F.noXpRoles}
        label="Roles that earn nothing"
        hint={`At most ${L.noXpRoles}: a member holding one earns no XP from messages.`}
        directory={directory}
        selected={values ? values.getAll(F.noXpRoles) : settings.noXpRoleIds}
        problem={problem}
      />
      <p>
        <button type="submit">Save what members earn</button>
      </p>
    </form>
  );
}

/** The channels whose messages earn nothing: each with its remove button, and one more added with the picker. */
export function NoXpChannels(props: FormProps) {
  const { settings, directory } = props.overview;
  const base = `/console/servers/${props.guild.id}/levels/no-xp-channels`;
  const names = new Map(directory.channels.map((c) => [c.id, c.name]));
  return (
    <section class="card" aria-labelledby="no-xp-channels-title">
      <h2 id="no-xp-channels-title">Channels that earn nothing</h2>
      <DataTable
        caption="Messages written here earn no XP"
        columns={['Channel', 'Action']}
        rows={settings.noXpChannelIds}
        empty={{ name: 'no-xp-channels', text: 'Every channel earns XP. Add one below to stop messages there from earning any (a bot commands channel, say).' }}
        row={(id) => (
          <tr data-no-xp-channel={id}>
            <td>{names.has(id) ? `#${names.get(id)}` : `Unknown channel ${id}`}</td>
            <td>
              <RemoveButton viewer={props.viewer} action={`${base}/remove`} fields={{ channel: id }} label={`Let #${names.get(id) ?? id} earn XP again`} />
            </td>
          </tr>
        )}
      />
      <form method="post" action={base}>
        <FormFields viewer={props.viewer} action={base} />
        <ChannelPicker
          name={F.noXpChannel}
          label="Channel"
          hint={`At most ${LEVEL_LIMITS.noXpChannels} channels.`}
          directory={directory}
          types={MESSAGE_CHANNEL_TYPES}
          selected={props.form?.values.get(F.noXpChannel) ?? null}
          none="Choose a channel"
          problem={props.form?.problem}
        />
        <p>
          <button type="submit">Add the channel</button>
        </p>
      </form>
    </section>
  );
}

/** Reward roles by level: each with its remove button, and one more added (a level and a role). */
export function RewardRoles(props: FormProps) {
  const { rewards, directory } = props.overview;
  const base = `/console/servers/${props.guild.id}/levels/rewards`;
  const names = new Map(directory.roles.map((r) => [r.id, r.name]));
  const problem = props.form?.problem;
  const { min, max } = LEVEL_LIMITS.rewardLevel;
  return (
    <section class="card" aria-labelledby="reward-roles-title">
      <h2 id="reward-roles-title">Reward roles</h2>
      <DataTable
        caption="Roles given when a member reaches a level"
        columns={['Level', 'Role', 'Action']}
        rows={rewards}
        empty={{ name: 'rewards', text: 'No role is given for levels yet. Add one below: members get it when they reach its level.' }}
        row={(r) => (
          <tr data-reward={`${r.level}:${r.roleId}`}>
            <td>{r.level}</td>
            <td>{names.has(r.roleId) ? `@${names.get(r.roleId)}` : `Unknown role ${r.roleId}`}</td>
            <td>
              <RemoveButton viewer={props.viewer} action={`${base}/remove`} fields={{ level: String(r.level), role: r.roleId }} label={`Stop giving @${names.get(r.roleId) ?? r.roleId} at level ${r.level}`} />
            </td>
          </tr>
        )}
      />
      <p class="muted">A removed reward is no longer given; members who hold it keep it.</p>
      <form method="post" action={base}>
        <FormFields viewer={props.viewer} action={base} />
        <NumberField id={F.rewardLevel} label="Level" hint={`${min} to ${max}; at most ${LEVEL_LIMITS.rewards} rewards.`} value={props.form?.values.get(F.rewardLevel) ?? ''} min={min} max={max} form={props.form} />
        <RolePicker name={F.rewardRole} label="Role given" directory={directory} selected={props.form?.values.get(F.rewardRole) ?? null} none="Choose a role" problem={problem} />
        <p>
          <button type="submit">Add the reward</button>
        </p>
      </form>
    </section>
  );
}
