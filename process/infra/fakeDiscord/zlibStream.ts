import { constants as zlibConstants, createDeflate } from 'node:zlib';
import type { WebSocket } from 'ws';

/**
 * The deflate context of one compressed connection: what each sync flush produces is sent as one binary message.
 * One payload at a time: with several writes in flight, a flush's callback can run before its output's 'data' event
 * (the output is buffered while the stream processes synchronously), and a message would carry part of the next
 * payload, which the bot cannot parse. ws's permessage-deflate serialises its compressions for the same reason.
 */
export function zlibStreamOf(ws: WebSocket, sendBytes: (ws: WebSocket, message: Buffer) => void): (text: string) => void {
  const deflate = createDeflate();
  let pending: Buffer[] = [];
  let previous = Promise.resolve();
  deflate.on('data', (chunk: Buffer) => pending.push(chunk));
  ws.on('close', () => deflate.destroy());
  const compressAndSend = (text: string) =>
    new Promise<void>((resolve) => {
      deflate.write(text);
      deflate.flush(zlibConstants.Z_SYNC_FLUSH, () => {
        const message = Buffer.concat(pending);
        pending = [];
        if (ws.readyState === ws.OPEN) sendBytes(ws, message);
        resolve();
      });
    });
  return (text) => {
    previous = previous.then(() => compressAndSend(text));
  };
}
