import { isDeliverableAddress, literalAddress } from './addressPolicy.js';

export interface UrlPolicy {
  /** Operator setting for local development and tests: http:// and loopback addresses are accepted. */
  allowInsecureLocal: boolean;
}

/** Why a webhook URL is refused, or undefined when it is acceptable (its DNS answers are checked again per attempt). */
export function refuseEndpointUrl(url: string, policy: UrlPolicy): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'not a valid URL';
  }
  const insecureOk = policy.allowInsecureLocal && parsed.protocol === 'http:';
  if (parsed.protocol !== 'https:' && !insecureOk) return 'must use https://';
  if (parsed.username || parsed.password) return 'must not carry a user name or password';
  if (url.length > 2048) return 'is longer than 2048 characters';
  const literal = literalAddress(parsed.hostname);
  if (literal && !isDeliverableAddress(literal, { allowLoopback: policy.allowInsecureLocal })) return 'points to a private or internal address';
  if (!literal && /(^|\.)(localhost|local|internal|localdomain)\.?$/i.test(parsed.hostname) && !policy.allowInsecureLocal) {
    return 'points to a private or internal address';
  }
  return undefined;
}
