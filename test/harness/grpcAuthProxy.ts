import { X509Certificate } from 'node:crypto';
import { EventEmitter, once } from 'node:events';
import { connect, constants, createSecureServer, type IncomingHttpHeaders, type OutgoingHttpHeaders, type ServerHttp2Session } from 'node:http2';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { KeyPair } from './testCertificates.js';

/** One gRPC call as the proxy saw it. */
export interface SeenCall {
  /** `/temporal.api.workflowservice.v1.WorkflowService/<Method>`. */
  path: string;
  /** The bearer token of its Authorization header. */
  apiKey?: string;
  /** The SHA-256 fingerprint of the client certificate its TLS connection presented. */
  clientCert?: string;
  accepted: boolean;
}

export interface GrpcAuthProxy {
  address: string;
  calls: SeenCall[];
  /** Resolves with the next call whose path ends with `method` (calls seen before are not considered). */
  nextCall(method: string): Promise<SeenCall>;
  /** The one API key accepted from now on (a rotation at the provider: the old key stops working). */
  acceptKey(key: string): void;
  close(): Promise<void>;
}

export const fingerprintOf = (cert: Buffer) => new X509Certificate(cert).fingerprint256;

/**
 * A Temporal frontend that requires an API key and mutual TLS, as Temporal Cloud does: a TLS gRPC (HTTP/2) proxy on
 * loopback that checks each call's `Authorization: Bearer <key>` and the client certificate against its CA, answers
 * a wrong key UNAUTHENTICATED itself, and forwards the rest to the real dev server.
 */
export async function startGrpcAuthProxy(upstream: string, tls: { server: KeyPair; ca: Buffer }, firstKey: string): Promise<GrpcAuthProxy> {
  let accepted = firstKey;
  const calls: SeenCall[] = [];
  const events = new EventEmitter();
  const upstreamSession = connect(`http://${upstream}`);
  upstreamSession.on('error', () => {});
  const server = createSecureServer({ key: tls.server.key, cert: tls.server.cert, ca: tls.ca, requestCert: true, rejectUnauthorized: true });
  const sessions = new Set<ServerHttp2Session>();
  server.on('session', (session) => {
    sessions.add(session);
    session.on('close', () => sessions.delete(session));
  });
  server.on('stream', (stream, headers) => {
    const peer = (stream.session?.socket as TLSSocket | undefined)?.getPeerCertificate();
    const apiKey = String(headers.authorization ?? '').replace(/^Bearer /, '') || undefined;
    const call: SeenCall = { path: String(headers[':path']), apiKey, clientCert: peer?.fingerprint256, accepted: apiKey === accepted };
    calls.push(call);
    events.emit('call', call);
    if (!call.accepted) {
      stream.respond({ ':status': 200, 'content-type': 'application/grpc', 'grpc-status': '16', 'grpc-message': 'API key not valid' }, { endStream: true });
      return;
    }
    const forward = upstreamSession.request(withoutPseudo(headers, { ':method': String(headers[':method']), ':path': call.path }));
    let trailers: OutgoingHttpHeaders = {};
    forward.on('response', (head) => {
      // A trailers-only answer (an error) ends in its headers.
      if (head['grpc-status'] !== undefined && forward.readableEnded) return void stream.respond(withoutPseudo(head, { ':status': 200 }), { endStream: true });
      stream.respond(withoutPseudo(head, { ':status': Number(head[':status'] ?? 200) }), { waitForTrailers: true });
    });
    forward.on('trailers', (t) => void (trailers = withoutPseudo(t, {})));
    stream.on('wantTrailers', () => stream.sendTrailers(trailers));
    forward.on('error', () => stream.close(constants.NGHTTP2_INTERNAL_ERROR));
    stream.on('close', () => forward.close());
    stream.pipe(forward);
    forward.pipe(stream);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    address: `127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    nextCall: (method) =>
      new Promise((resolve) => {
        const listener = (call: SeenCall) => {
          if (!call.path.endsWith(`/${method}`)) return;
          events.off('call', listener);
          resolve(call);
        };
        events.on('call', listener);
      }),
    acceptKey: (key) => void (accepted = key),
    close: async () => {
      upstreamSession.destroy();
      for (const session of sessions) session.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function withoutPseudo(headers: IncomingHttpHeaders, extra: OutgoingHttpHeaders): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = { ...extra };
  for (const [name, value] of Object.entries(headers)) if (!name.startsWith(':') && value !== undefined) out[name] = value;
  return out;
}
