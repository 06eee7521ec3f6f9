import type { APIChannel } from 'discord-api-types/v10';
import { THREAD_TYPES, findChannel, json, unknown, type FakeRoute } from './fakeRoute.js';

/** A channel or thread read, renamed, archived or locked, deleted; an invite to it created. */
export const CHANNEL_ROUTES: FakeRoute[] = [
  {
    method: 'POST',
    pattern: '/channels/:channel/invites',
    handler: (state, req) => {
      const found = findChannel(state, req.params.channel!);
      if (!found?.guild) return unknown.channel();
      const code = Buffer.from(state.nextId()).toString('base64url').slice(-10);
      const maxUses = Number(req.body?.max_uses ?? 0);
      state.invites.set(code, { code, channelId: found.channel.id, guildId: found.guild.id, maxUses, uses: 0, inviterId: state.bot.id });
      return json({ code, max_uses: maxUses, channel: { id: found.channel.id }, guild: { id: found.guild.id } });
    },
  },
  {
    method: 'GET',
    pattern: '/channels/:channel',
    handler: (state, req) => {
      const found = findChannel(state, req.params.channel!);
      return found ? json(found.channel) : unknown.channel();
    },
  },
  {
    method: 'PATCH',
    pattern: '/channels/:channel',
    handler: (state, req) => {
      const found = findChannel(state, req.params.channel!);
      if (!found?.guild) return unknown.channel();
      const thread = found.channel as APIChannel & { thread_metadata?: Record<string, unknown> };
      if (THREAD_TYPES.includes(thread.type)) {
        const meta: Record<string, unknown> = { ...thread.thread_metadata };
        if (req.body && 'archived' in req.body) meta.archived = req.body.archived;
        if (req.body && 'locked' in req.body) meta.locked = req.body.locked;
        thread.thread_metadata = meta;
      }
      if (typeof req.body?.name === 'string') (found.channel as { name: string }).name = req.body.name;
      return json(found.channel);
    },
  },
  {
    method: 'DELETE',
    pattern: '/channels/:channel',
    handler: (state, req) => {
      const found = findChannel(state, req.params.channel!);
      if (!found?.guild) return unknown.channel();
      found.guild.channels.delete(found.channel.id);
      return json(found.channel);
    },
  },
];
