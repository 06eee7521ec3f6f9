import { createServer } from 'node:net';
import { expect, it } from 'vitest';
import { freePortBetween } from '../../process/infra/freePort.js';

// The real Temporal server keeps membership ports in a smallint: they must come from below 32768.
it('freePortBetween gives a port inside the range that can be listened on', async () => {
  const port = await freePortBetween(20_000, 32_767);
  expect(port).toBeGreaterThanOrEqual(20_000);
  expect(port).toBeLessThanOrEqual(32_767);
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
  await new Promise((resolve) => server.close(resolve));
});

it('freePortBetween skips a port that is taken', async () => {
  const server = createServer();
  const taken = await new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));
  try {
    await expect(freePortBetween(taken, taken)).rejects.toThrow(`No free loopback port between ${taken} and ${taken} after 100 tries.`);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});
