import { commandInteraction, type FakeDiscord, type FakeGateway } from '../../process/infra/fakeDiscord/index.js';
import { latencySummary, type LatencySummary } from '../latency.js';

/** What became of the members' `/rank` across the restarts: answered within Discord's 3 s, or never acted on. */
export interface RestartInteractions {
  sent: number;
  /** First answers the fake took, timed from each interaction's creation (its snowflake's time). */
  answered: number;
  firstAnswerMs: LatencySummary;
  /** Answers after the 3 s (none taken: the fake refuses them 10062, as Discord does); the goal is 0. */
  answeredLate: number;
  /** Never answered: sent while no bot ran and too old when replayed, so not acted on (the bot counts them). */
  notActedOn: number;
}

/** When Discord made the interaction: the milliseconds since Discord's epoch in its id's top bits. */
const snowflakeTime = (id: string) => Number((BigInt(id) >> 22n) + 1_420_070_400_000n);

/**
 * `/rank` from a member, sent beside the messages through the same gateway, so that some reach a running bot and some
 * are sent while it is stopped (Discord replays them on the resume, older than 3 s).
 */
export function restartInteractions(fake: FakeDiscord, gateway: FakeGateway) {
  const createdAt = new Map<string, number>();
  const requestsBefore = fake.requests.length;
  return {
    send(guildId: string, userId: string): void {
      const payload = commandInteraction(fake.state, { guildId, userId, name: 'rank', at: new Date() });
      createdAt.set(payload.token, snowflakeTime(payload.id));
      gateway.dispatch('INTERACTION_CREATE', payload);
    },
    tally(): RestartInteractions {
      const first = new Map<string, number>();
      for (const a of fake.state.interactionAnswers) {
        const created = createdAt.get(a.token);
        if (a.kind === 'callback' && created !== undefined && !first.has(a.token)) first.set(a.token, a.at - created);
      }
      const refusedCallbacks = fake.requests.slice(requestsBefore).filter((r) => /^\/interactions\//.test(r.path) && r.status >= 400).length;
      return {
        sent: createdAt.size,
        answered: first.size,
        firstAnswerMs: latencySummary([...first.values()]),
        answeredLate: refusedCallbacks + [...first.values()].filter((ms) => ms > 3_000).length,
        notActedOn: createdAt.size - first.size - refusedCallbacks,
      };
    },
  };
}
