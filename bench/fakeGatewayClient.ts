import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import type { FakeGatewayCommand, FakeGatewayReply } from './fakeGatewayProcess.js';

/** The fake Discord of gateway-ingest, forked: its address, batches sent with their times, its CPU and bytes sent. */
export interface FakeGatewayClient {
  apiUrl: string;
  token: string;
  botId: string;
  /** Sends MESSAGE_CREATEs ([server, author] each); `onSent` gets each batch's first sequence number and epoch send time. */
  send(messages: Array<[string, string]>): void;
  /** CPU time the fake's process has used so far, in microseconds, and the gateway's bytes sent (deflated where compressed). */
  usage(): Promise<FakeGatewayUsage>;
  close(): Promise<void>;
}

export type FakeGatewayUsage = { cpuMicros: number; bytesSent: number };

export async function forkFakeGateway(onSent: (firstSeq: number, count: number, at: number) => void): Promise<FakeGatewayClient> {
  const child: ChildProcess = fork(new URL('./fakeGatewayProcess.ts', import.meta.url), [], { execArgv: ['--import', 'tsx'] });
  const command = (c: FakeGatewayCommand) => child.send(c);
  const usageWaiters: Array<(usage: FakeGatewayUsage) => void> = [];
  const [listening] = (await once(child, 'message')) as [Extract<FakeGatewayReply, { kind: 'listening' }>];
  child.on('message', (reply: FakeGatewayReply) => {
    if (reply.kind === 'sent') onSent(reply.firstSeq, reply.count, reply.at);
    else if (reply.kind === 'usage') usageWaiters.shift()?.({ cpuMicros: reply.cpuMicros, bytesSent: reply.bytesSent });
  });
  return {
    apiUrl: listening.apiUrl,
    token: listening.token,
    botId: listening.botId,
    send: (messages) => command({ kind: 'send', messages }),
    usage: () => new Promise((resolve) => {
      usageWaiters.push(resolve);
      command({ kind: 'usage' });
    }),
    async close() {
      const exited = once(child, 'exit');
      command({ kind: 'close' });
      await exited;
    },
  };
}
