/** Where webhook flows are called: outside the key-authenticated API root, `POST /hooks/flows/<token>`. */
export const FLOW_WEBHOOK_PATH = '/hooks/flows';

const TOKEN_IN_PATH = new RegExp(`^${FLOW_WEBHOOK_PATH}/[^/?#]+`);

/**
 * A request path as logs and spans may show it: the token of a flow webhook URL is its credential (anyone holding it
 * starts runs), so it is replaced. Kept free of imports: tracing loads it before anything else of the process.
 */
export function redactedPath(path: string): string {
  return path.replace(TOKEN_IN_PATH, `${FLOW_WEBHOOK_PATH}/[redacted]`);
}
