import { messageIdAt } from '../src/tickets/botInput.js';
import { attachFakeGateway, memberMessagePayload, startFakeDiscord } from '../process/infra/fakeDiscord/index.js';

/** What the gateway-ingest scenario asks of the fake Discord it forks: send messages (server and author each), report its usage, close. */
export type FakeGatewayCommand = { kind: 'send'; messages: Array<[guildId: string, authorId: string]> } | { kind: 'usage' } | { kind: 'close' };
/** What the fake answers: its address once listening, each batch's first sequence number and send time, its CPU and bytes sent so far. */
export type FakeGatewayReply =
  | { kind: 'listening'; apiUrl: string; token: string; botId: string }
  | { kind: 'sent'; firstSeq: number; count: number; at: number }
  | { kind: 'usage'; cpuMicros: number; bytesSent: number };

const CHANNEL_ID = '1300000000000000001';

// The fake Discord (HTTP and gateway) of gateway-ingest in a process of its own: its JSON and its zlib-stream deflate
// (Discord's side of compression, which Discord pays in production) stay off the cores' share the bot is measured on.
const fake = await startFakeDiscord();
const gateway = attachFakeGateway(fake);
const reply = (message: FakeGatewayReply) => process.send!(message);
// Epoch milliseconds with the sub-millisecond part: comparable with the scenario's process on the same machine.
const now = () => performance.timeOrigin + performance.now();
let messageSeq = 0;

process.on('message', (command: FakeGatewayCommand) => {
  if (command.kind === 'send') {
    const at = now();
    let firstSeq = 0;
    for (const [guildId, authorId] of command.messages) {
      const date = new Date();
      const s = gateway.dispatch('MESSAGE_CREATE', memberMessagePayload({ id: messageIdAt(date, ++messageSeq), channelId: CHANNEL_ID, guildId, author: { id: authorId, username: 'member' }, at: date }));
      firstSeq ||= s;
    }
    reply({ kind: 'sent', firstSeq, count: command.messages.length, at });
  } else if (command.kind === 'usage') {
    const used = process.cpuUsage();
    reply({ kind: 'usage', cpuMicros: used.user + used.system, bytesSent: gateway.bytesSent() });
  } else void fake.close().then(() => process.exit(0));
});
reply({ kind: 'listening', apiUrl: fake.apiUrl, token: fake.token, botId: fake.state.bot.id });
