import type { GuildRecord } from '../../../db/guild/guilds.js';
import type { InviteMilestone } from '../../../db/invites/milestones.js';
import { ConsoleRefusal } from '../../../src/console/errors.js';
import { readServerDirectory, type ServerDirectory } from '../../../src/console/serverDirectory.js';
import { changeMilestone, configureMilestone, MAX_MILESTONE_INVITES } from '../../../src/invites/configureMilestone.js';
import { readMilestone, readMilestonePage } from '../../../src/invites/readInviteSetup.js';
import type { AppDeps } from '../../context.js';
import { invitesPageServer, invitesServer } from './invitesServer.js';
import type { ConsoleContext, ConsoleRouter } from '../consoleState.js';
import { formPost, FormRejection, submitOnce } from '../formFlow.js';
import { sendPage } from '../render.js';
import type { FieldError, FormState } from '../views/formParts.js';
import { EditMilestonePage, MILESTONE_FIELDS, milestonesPath, MilestonesPage, RemoveMilestonePage } from '../views/inviteMilestonePages.js';
import type { Viewer } from '../views/layout.js';

const PAGE_SIZE = 25;

/** `<invites>-<role id>`: a milestone's key, in the list's cursor. */
function milestoneKeyOf(raw: string): InviteMilestone | undefined {
  const m = /^(\d{1,7})-(\d{17,20})$/.exec(raw);
  return m ? { invites: Number(m[1]), roleId: m[2]! } : undefined;
}

/** The milestone form's input, or a 400 naming each field to fix; the role must be one the bot can give. */
function milestoneOf(form: URLSearchParams, directory: ServerDirectory): InviteMilestone {
  const errors: FieldError[] = [];
  const raw = (form.get(MILESTONE_FIELDS.invites) ?? '').trim();
  const invites = /^\d{1,7}$/.test(raw) ? Number(raw) : 0;
  if (invites < 1 || invites > MAX_MILESTONE_INVITES) errors.push({ field: MILESTONE_FIELDS.invites, message: `Give a whole number of invites from 1 to ${MAX_MILESTONE_INVITES.toLocaleString('en')}.` });
  const roleId = form.get(MILESTONE_FIELDS.role) ?? '';
  if (!directory.roles.some((r) => r.id === roleId && !r.managed)) errors.push({ field: MILESTONE_FIELDS.role, message: 'Pick a role of this server the bot can give.' });
  if (errors.length > 0) throw new FormRejection(400, 'INVALID_INPUT', errors);
  return { invites, roleId };
}

/** Milestone rewards: the list, add, edit, remove behind a confirmation (the admin CLI's invite-milestone use case). */
export function inviteMilestoneRoutes(router: ConsoleRouter, deps: AppDeps): void {
  const base = '/servers/:guildId/invites/milestones';

  async function sendMilestonesPage(ctx: ConsoleContext, guild: GuildRecord, viewer: Viewer, form?: FormState) {
    const rawAfter = typeof ctx.query.after === 'string' ? ctx.query.after : undefined;
    const after = rawAfter === undefined ? undefined : milestoneKeyOf(rawAfter);
    if (rawAfter !== undefined && !after) throw new ConsoleRefusal('INVALID_INPUT', '`after` is a milestone: its invites and its role id.');
    const [page, directory] = await Promise.all([readMilestonePage(deps.db, guild.id, { after, limit: PAGE_SIZE }), readServerDirectory(deps.platform, guild.id)]);
    const olderHref = page.nextCursor && `${milestonesPath(guild.id)}?after=${page.nextCursor}`;
    sendPage(ctx, MilestonesPage({ viewer, guild, directory, milestones: page.items, olderHref, form }), form?.problem?.status);
  }

  /** The milestone the path names (`.../milestones/<invites>/<role id>/...`), not yet looked up. */
  async function pathMilestone(ctx: ConsoleContext) {
    const server = await invitesServer(ctx, deps);
    const milestone = milestoneKeyOf(`${ctx.params.invites ?? ''}-${ctx.params.roleId ?? ''}`);
    if (!milestone) throw new ConsoleRefusal('PAGE_NOT_FOUND', 'There is no such page.');
    return { ...server, milestone, directory: await readServerDirectory(deps.platform, server.guild.id) };
  }

  /** A page of the path's milestone: refused 404 MILESTONE_NOT_FOUND when the server has none such. */
  async function existingMilestone(ctx: ConsoleContext) {
    const found = await pathMilestone(ctx);
    return { ...found, milestone: await readMilestone(deps.db, found.guild.id, found.milestone) };
  }

  router.get(base, async (ctx) => {
    const server = await invitesPageServer(ctx, deps, { title: 'Invite milestone rewards', then: 'invites/milestones' });
    if (server) await sendMilestonesPage(ctx, server.guild, server.viewer);
  });

  formPost(router, deps, base, {
    server: (ctx) => invitesServer(ctx, deps),
    change: async ({ guild, actor }, form) => {
      const milestone = milestoneOf(form, await readServerDirectory(deps.platform, guild.id));
      await deps.db.transaction().execute((trx) => configureMilestone(trx, { guildId: guild.id, milestone, action: 'add', actor }));
      return milestonesPath(guild.id);
    },
    rejected: ({ guild, viewer }, form, problem, ctx) => sendMilestonesPage(ctx, guild, viewer, { values: form, problem }),
  });

  router.get(`${base}/:invites/:roleId/edit`, async (ctx) => {
    const { guild, viewer, milestone, directory } = await existingMilestone(ctx);
    sendPage(ctx, EditMilestonePage({ viewer, guild, directory, milestone }));
  });

  formPost(router, deps, `${base}/:invites/:roleId/edit`, {
    // Not looked up first: the use case refuses a milestone that is gone (404), after a resent form's first answer was sent back.
    server: pathMilestone,
    change: async ({ guild, actor, milestone, directory }, form) => {
      const to = milestoneOf(form, directory);
      await deps.db.transaction().execute((trx) => changeMilestone(trx, { guildId: guild.id, from: milestone, to, actor }));
      return milestonesPath(guild.id);
    },
    rejected: async ({ guild, viewer, directory, milestone }, form, problem, ctx) =>
      sendPage(ctx, EditMilestonePage({ viewer, guild, directory, milestone, form: { values: form, problem } }), problem.status),
  });

  router.get(`${base}/:invites/:roleId/remove`, async (ctx) => {
    const { guild, viewer, milestone, directory } = await existingMilestone(ctx);
    sendPage(ctx, RemoveMilestonePage({ viewer, guild, directory, milestone }));
  });

  router.post(`${base}/:invites/:roleId/remove`, async (ctx) => {
    const { guild, actor, milestone } = await pathMilestone(ctx);
    await submitOnce(ctx, deps, async () => {
      await deps.db.transaction().execute((trx) => configureMilestone(trx, { guildId: guild.id, milestone, action: 'remove', actor }));
      return milestonesPath(guild.id);
    });
  });
}
