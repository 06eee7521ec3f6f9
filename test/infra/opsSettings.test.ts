import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/core/config.js';

// The api's stop and connection timeouts: defaults that fit a 30 s grace period and a balancer's 60 s idle timeout.

describe('ops settings', () => {
  it('default to a 5 s propagation delay, a 25 s stop deadline and keep-alive and headers timeouts above 60 s', () => {
    expect(loadConfig({}).ops).toMatchObject({ propagationMs: 5_000, drainMs: 10_000, shutdownDeadlineMs: 25_000, keepAliveTimeoutMs: 65_000, headersTimeoutMs: 66_000 });
  });

  it('put the api probes on port 3003 only, and trust no incoming trace context, by default', () => {
    expect(loadConfig({}).ops).toMatchObject({ apiOpsPort: 3003, apiOpsOnPublicPort: false, traceTrustIncoming: false });
    expect(loadConfig({ API_OPS_PORT: '9090', API_OPS_ON_PUBLIC_PORT: 'true', TRACE_TRUST_INCOMING: 'true' }).ops).toMatchObject({ apiOpsPort: 9090, apiOpsOnPublicPort: true, traceTrustIncoming: true });
  });

  it('take other values', () => {
    const env = { SHUTDOWN_PROPAGATION_MS: '15000', SHUTDOWN_DRAIN_MS: '20000', SHUTDOWN_DEADLINE_MS: '45000', HTTP_KEEP_ALIVE_TIMEOUT_MS: '355000', HTTP_HEADERS_TIMEOUT_MS: '356000' };
    expect(loadConfig(env).ops).toMatchObject({ propagationMs: 15_000, drainMs: 20_000, shutdownDeadlineMs: 45_000, keepAliveTimeoutMs: 355_000, headersTimeoutMs: 356_000 });
  });

  it.each([
    [{ SHUTDOWN_PROPAGATION_MS: '10000', SHUTDOWN_DRAIN_MS: '15000' }, "SHUTDOWN_DEADLINE_MS: must leave room for the api's stop: SHUTDOWN_PROPAGATION_MS + SHUTDOWN_DRAIN_MS + 5000 ms is 30000 ms"],
    [{ SHUTDOWN_DEADLINE_MS: '19000' }, "SHUTDOWN_DEADLINE_MS: must leave room for the api's stop: SHUTDOWN_PROPAGATION_MS + SHUTDOWN_DRAIN_MS + 5000 ms is 20000 ms"],
    [{ SHUTDOWN_DEADLINE_MS: '17000', SHUTDOWN_PROPAGATION_MS: '0' }, 'SHUTDOWN_DEADLINE_MS: must be at least WORKER_SHUTDOWN_FORCE_MS + 5000 ms'],
    [{ HTTP_KEEP_ALIVE_TIMEOUT_MS: '70000' }, 'HTTP_HEADERS_TIMEOUT_MS: must be above HTTP_KEEP_ALIVE_TIMEOUT_MS'],
    [{ SHUTDOWN_PROPAGATION_MS: '-1' }, 'SHUTDOWN_PROPAGATION_MS: Too small: expected number to be >=0'],
    [{ PORT: '8080', API_OPS_PORT: '8080' }, 'API_OPS_PORT: must differ from PORT (set API_OPS_ON_PUBLIC_PORT=true to serve the probes on PORT too)'],
    [{ API_OPS_ON_PUBLIC_PORT: 'yes' }, 'API_OPS_ON_PUBLIC_PORT: Invalid option: expected one of "0"|"1"|"true"|"false"'],
  ])('%o stops start-up with one line naming the setting', (env, line) => {
    expect(() => loadConfig(env)).toThrow(new Error(`Invalid configuration:\n  ${line}`));
  });
});
