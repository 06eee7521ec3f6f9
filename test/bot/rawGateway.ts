import { once } from 'node:events';
import { WebSocket } from 'ws';

type GatewayMessage = { op: number; t: string | null; d: unknown };

/** A bare gateway client: connects, identifies as `shard` once Discord says hello, and resolves with the answer (READY or op 9). */
export async function identifyRaw(url: string, token: string, shard: [number, number]): Promise<GatewayMessage> {
  const ws = new WebSocket(`${url}/?v=10&encoding=json`);
  const answer = new Promise<GatewayMessage>((resolve) => {
    ws.on('message', (raw) => {
      const m = JSON.parse(String(raw)) as GatewayMessage;
      if (m.op === 10) ws.send(JSON.stringify({ op: 2, d: { token, intents: 1, shard, properties: { os: 'linux', browser: 'test', device: 'test' } } }));
      if (m.op === 9 || m.t === 'READY') resolve(m);
    });
  });
  await once(ws, 'open');
  const m = await answer;
  // Not 1000: the session stays resumable, so the fake can still send on it.
  ws.close(4000);
  return m;
}
