import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import type { FakeGatewayCommand, FakeGatewayReply } from './fakeGatewayProcess.js';

/** The fake Discord of gateway-ingest, forked: its address, batches sent with their times, its CPU. */
export interface FakeGatewayClient {
  apiUrl: string;
  token: string;
  botId: string;
  /** Sends MESSAGE_CREATEs ([server, author] each); `onSent` gets each batch's first sequence number and epoch send time. */
  send(messages: Array<[string, string]>): void;
  /** CPU time the fake's process has used so far, in microseconds. */
  cpuMicros(): Promise<number>;
  close(): Promise<void>;
}

export async function forkFakeGateway(onSent: (firstSeq: number, count: number, at: number) => void): Promise<FakeGatewayClient> {
  const child: ChildProcess = fork(new URL('./fakeGatewayProcess.ts', import.meta.url), [], { execArgv: ['--import', 'tsx'] });
  const command = (c: FakeGatewayCommand) => child.send(c);
  const cpuWaiters: Array<(micros: number) => void> = [];
  const [listening] = (await once(child, 'message')) as [Extract<FakeGatewayReply, { kind: 'listening' }>];
  child.on('message', (reply: FakeGatewayReply) => {
    if (reply.kind === 'sent') onSent(reply.firstSeq, reply.count, reply.at);
    else if (reply.kind === 'cpu') cpuWaiters.shift()?.(reply.micros);
  });
  return {
    apiUrl: listening.apiUrl,
    token: listening.token,
    botId: listening.botId,
    send: (messages) => command({ kind: 'send', messages }),
    cpuMicros: () => new Promise((resolve) => {
      cpuWaiters.push(resolve);
      command({ kind: 'cpu' });
    }),
    async close() {
      const exited = once(child, 'exit');
      command({ kind: 'close' });
      await exited;
    },
  };
}
