import { REST } from '@discordjs/rest';
import { CompressionMethod, WebSocketManager, WebSocketShardEvents } from '@discordjs/ws';
import { attachFakeGateway, memberMessagePayload, startFakeDiscord } from './process/infra/fakeDiscord/index.js';
const compressArg = process.argv[2] === 'on';
const rates = (process.argv[3] ?? '2000,4000').split(',').map(Number);
const fake = await startFakeDiscord();
const gateway = attachFakeGateway(fake);
const rest = new REST({ api: fake.apiUrl, version: '10' }).setToken(fake.token);
const manager = new WebSocketManager({ token: fake.token, intents: 0, rest, compression: compressArg ? CompressionMethod.ZlibNative : null });
const sentAt = new Map<number, number>(); const lat: number[] = [];
manager.on(WebSocketShardEvents.Dispatch, (p) => { const at = sentAt.get(p.s); if (at !== undefined) { sentAt.delete(p.s); lat.push(performance.now() - at); } });
await manager.connect();
let i = 0;
for (const rate of rates) {
  lat.length = 0; const seconds = 3; const total = rate * seconds; const started = performance.now(); let sent = 0; const c0 = process.cpuUsage();
  while (sent < total) { const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * rate)); while (sent < due) { const at = new Date(); const s = gateway.dispatch('MESSAGE_CREATE', memberMessagePayload({ id: String(1300000000000000000n + BigInt(++i)), channelId: '1300000000000000001', guildId: '1300000000000000002', author: { id: '1300000000000000003', username: 'm' }, at })); sentAt.set(s, performance.now()); sent++; } await new Promise((r) => setTimeout(r, 5)); }
  const sendDone = performance.now();
  while (lat.length < total && performance.now() < sendDone + 5000) await new Promise((r) => setTimeout(r, 10));
  const u = process.cpuUsage(c0); lat.sort((a, b) => a - b);
  console.log(`compression ${compressArg ? 'on ' : 'off'} rate ${rate}: got ${lat.length}/${total}, p50 ${lat[Math.floor(lat.length / 2)]?.toFixed(1)} p99 ${lat[Math.floor(lat.length * 0.99)]?.toFixed(1)} ms, tail after last send ${(performance.now() - sendDone).toFixed(0)} ms, cpu ${((u.user + u.system) / 1000 / (performance.now() - started) * 100).toFixed(0)}%`);
}
await manager.destroy(); await fake.close(); process.exit(0);
