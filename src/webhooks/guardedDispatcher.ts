import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { Agent } from 'undici';
import { isDeliverableAddress, literalAddress } from './addressPolicy.js';

export class RefusedAddressError extends Error {
  constructor(host: string, address: string) {
    super(`${host} resolves to ${address}, which is not a public address`);
    this.name = 'RefusedAddressError';
  }
}

/**
 * An undici dispatcher that checks the address actually dialled: every DNS answer is filtered inside the
 * connect step (a name that resolved to a public address at registration may not any more), and a
 * literal-IP host, for which Node skips the lookup, is checked before connecting.
 */
export function createGuardedDispatcher(options: { allowLoopback: boolean; connectTimeoutMs: number }): Agent {
  const allowed = (address: string) => isDeliverableAddress(address, { allowLoopback: options.allowLoopback });
  const agent = new Agent({
    connectTimeout: options.connectTimeoutMs,
    connect: {
      lookup(hostname, lookupOptions, callback) {
        dnsLookup(hostname, { ...lookupOptions, all: true }, (err, addresses) => {
          if (err) return callback(err, '', 0);
          const list = addresses as LookupAddress[];
          const refused = list.find((a) => !allowed(a.address));
          if (refused || list.length === 0) return callback(new RefusedAddressError(hostname, refused?.address ?? 'nothing'), '', 0);
          if ((lookupOptions as { all?: boolean }).all) return (callback as (e: null, a: LookupAddress[]) => void)(null, list);
          callback(null, list[0]!.address, list[0]!.family);
        });
      },
    },
  });
  return agent.compose((dispatch) => (opts, handler) => {
    const host = new URL(String(opts.origin)).hostname;
    const literal = literalAddress(host);
    if (literal && !allowed(literal)) throw new RefusedAddressError(host, literal);
    return dispatch(opts, handler);
  }) as unknown as Agent;
}
