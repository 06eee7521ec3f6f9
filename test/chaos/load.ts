import { setTimeout as sleep } from 'node:timers/promises';

/** One write the load sent and the api accepted, with what it must lead to. */
export interface AcceptedOp {
  kind: 'xp' | 'bank' | 'flow' | 'warn';
  userId: string;
  amount: number;
  tag: string;
  /** Where its status is read while it runs; undefined when the answer was already final (bank, a waited flow). */
  statusPath?: string;
  status: string;
  /** The error a failed operation reports. */
  error?: unknown;
}

export interface LoadTargets {
  apiUrl: string;
  key: string;
  /** A key of its own for moderation, whose actions are limited per key (10 a minute). */
  moderationKey: string;
  xpUsers: string[];
  bankUsers: string[];
  warnUsers: string[];
  flowId: string;
}

/** The fields of an accepted answer the load reads (each route answers some of them). */
interface AcceptedBody {
  status: string;
  error?: unknown;
  changeId: string;
  executionId: string;
  actionId: string;
}

const TERMINAL = new Set(['done', 'failed', 'success', 'error', 'stopped', 'cancelled']);
export const isTerminal = (status: string) => TERMINAL.has(status);

/**
 * Mixed writes at a steady pace (XP changes, bank credits, flow runs that wait, moderation warnings), bounded in
 * count and stopped on demand. Every answer is counted by status; a 500, a 503 without Retry-After, or another
 * status than the ones a healthy or degraded service gives is recorded as a violation.
 */
export class MixedLoad {
  readonly accepted: AcceptedOp[] = [];
  readonly statuses: Record<string, number> = {};
  readonly violations: string[] = [];
  /** Requests that got no answer within the client's timeout (a frozen dependency may hold one that long). */
  noAnswer = 0;
  private sent = 0;
  private running?: Promise<void>;
  private stopRequested = false;

  /** `phase` prefixes every tag, so that operations of different phases never share one. */
  constructor(private readonly targets: LoadTargets, private readonly options: { phase: number; intervalMs: number; maxOps: number }) {}

  start(): void {
    this.stopRequested = false;
    this.running = this.loop();
  }

  async stop(): Promise<void> {
    this.stopRequested = true;
    await this.running;
  }

  private async loop(): Promise<void> {
    const inFlight = new Set<Promise<void>>();
    let lastWarn = 0;
    for (let i = 0; !this.stopRequested && this.sent < this.options.maxOps; i++) {
      const warnDue = Date.now() - lastWarn > 7_000;
      if (warnDue) lastWarn = Date.now();
      const send = warnDue ? this.warn() : [this.xp, this.bank, this.xp, this.bank, this.flow][i % 5]!.call(this);
      this.sent++;
      const tracked = send.finally(() => inFlight.delete(tracked));
      inFlight.add(tracked);
      // A bounded number in flight: a dependency that holds requests slows the load instead of piling it up.
      if (inFlight.size >= 8) await Promise.race(inFlight);
      await sleep(this.options.intervalMs);
    }
    await Promise.all(inFlight);
  }

  private pick(users: string[]): string {
    return users[this.sent % users.length]!;
  }

  private async xp(): Promise<void> {
    const userId = this.pick(this.targets.xpUsers);
    const amount = 1 + (this.sent % 50);
    const res = await this.post(`/levels/members/${userId}/xp-changes`, { type: 'add', amount, reason: `chaos ${this.options.phase}.${this.sent}` }, [202]);
    if (res) this.accepted.push({ kind: 'xp', userId, amount, tag: res.changeId, statusPath: `/levels/xp-changes/${res.changeId}`, status: res.status });
  }

  private async bank(): Promise<void> {
    const userId = this.pick(this.targets.bankUsers);
    const amount = 1 + (this.sent % 90);
    const tag = `chaos bank ${this.options.phase}.${this.sent}`;
    const res = await this.post(`/bank/members/${userId}/transactions`, { type: 'add', amount, reason: tag }, [201]);
    if (res) this.accepted.push({ kind: 'bank', userId, amount, tag, status: 'done' });
  }

  private async flow(): Promise<void> {
    const userId = this.pick(this.targets.bankUsers);
    const amount = 1 + (this.sent % 20);
    const res = await this.post(`/flows/${this.targets.flowId}/runs`, { input: { userId, amount }, wait: true, timeoutSeconds: 10 }, [200, 202]);
    if (res) this.accepted.push({ kind: 'flow', userId, amount, tag: String(res.executionId), statusPath: `/flows/runs/${res.executionId}`, status: res.status, error: res.error });
  }

  private async warn(): Promise<void> {
    const userId = this.pick(this.targets.warnUsers);
    const tag = `chaos warn ${this.options.phase}.${this.sent}`;
    const res = await this.post(`/moderation/users/${userId}/warn`, { reason: tag }, [202], this.targets.moderationKey);
    if (res) this.accepted.push({ kind: 'warn', userId, amount: 1, tag, statusPath: `/moderation/actions/${res.actionId}`, status: res.status });
  }

  /** The answer's body when its status is one of `ok`; undefined when refused (counted, and a violation if it must not be). */
  private async post(path: string, body: unknown, ok: number[], key = this.targets.key): Promise<AcceptedBody | undefined> {
    const res = await fetch(`${this.targets.apiUrl}${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(60_000),
    }).catch(() => undefined);
    if (!res) {
      this.noAnswer++;
      return undefined;
    }
    const text = await res.text();
    this.statuses[res.status] = (this.statuses[res.status] ?? 0) + 1;
    if (ok.includes(res.status)) return JSON.parse(text) as AcceptedBody;
    if (res.status === 503 && res.headers.get('retry-after')) return undefined;
    this.violations.push(`POST ${path.replace(/\d{17,20}/g, '{id}')} answered ${res.status}${res.status === 503 ? ' without Retry-After' : ''}: ${text.slice(0, 200)}`);
    return undefined;
  }
}

/** Reads the status of every accepted operation until all are terminal or `timeoutMs` passes; answers how long it took. */
export async function untilAllTerminal(apiUrl: string, key: string, moderationKey: string, ops: AcceptedOp[], timeoutMs: number): Promise<number> {
  const started = Date.now();
  for (;;) {
    const open = ops.filter((op) => op.statusPath && !isTerminal(op.status));
    if (open.length === 0 || Date.now() - started > timeoutMs) return Date.now() - started;
    for (const op of open) {
      const res = await fetch(`${apiUrl}${op.statusPath}`, {
        headers: { Authorization: `Bearer ${op.kind === 'warn' ? moderationKey : key}` },
        signal: AbortSignal.timeout(30_000),
      }).catch(() => undefined);
      if (res?.status === 200) Object.assign(op, pickStatus(await res.json()));
      else await res?.text();
    }
    await sleep(250);
  }
}

const pickStatus = (body: unknown) => {
  const { status, error } = body as { status: string; error?: unknown };
  return { status, error };
};
