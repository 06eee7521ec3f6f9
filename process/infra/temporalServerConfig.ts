import { stringify } from 'yaml';

/** The databases the server keeps its state and its visibility records in. */
export const TEMPORAL_DATABASES = { default: 'temporal', visibility: 'temporal_visibility' } as const;

/** Loopback ports of the server's four services: gRPC for each, and a membership (ringpop) port for each. */
export interface TemporalServerPorts {
  frontend: number;
  history: number;
  matching: number;
  worker: number;
  frontendMembership: number;
  historyMembership: number;
  matchingMembership: number;
  workerMembership: number;
}

export interface TemporalServerConfigInput {
  /** The PostgreSQL both databases live on. */
  postgres: { host: string; port: number; user: string; password: string };
  historyShards: number;
  ports: TemporalServerPorts;
  /** The dynamic config file the server polls (written beside this config). */
  dynamicConfigPath: string;
  logLevel: 'debug' | 'info' | 'warn' | 'error';
}

const IP = '127.0.0.1';

/**
 * The server's static config (what `server --config-file` reads), after v1.31.2's development-postgres12.yaml:
 * PostgreSQL persistence through the `postgres12` plugin, every service on loopback, no archival, and none of
 * the optional listeners (HTTP API, pprof, Prometheus) so that nothing else takes a fixed port.
 */
export function temporalServerConfigYaml(input: TemporalServerConfigInput): string {
  const { postgres, ports } = input;
  const datastore = (databaseName: string, maxConns: number) => ({
    sql: {
      pluginName: 'postgres12',
      databaseName,
      connectAddr: `${postgres.host}:${postgres.port}`,
      connectProtocol: 'tcp',
      user: postgres.user,
      password: postgres.password,
      maxConns,
      maxIdleConns: maxConns,
      maxConnLifetime: '1h',
    },
  });
  const service = (grpcPort: number, membershipPort: number) => ({ rpc: { grpcPort, membershipPort, bindOnIP: IP } });
  return stringify({
    log: { stdout: true, level: input.logLevel },
    persistence: {
      defaultStore: 'postgres-default',
      visibilityStore: 'postgres-visibility',
      numHistoryShards: input.historyShards,
      datastores: {
        'postgres-default': datastore(TEMPORAL_DATABASES.default, 20),
        'postgres-visibility': datastore(TEMPORAL_DATABASES.visibility, 4),
      },
    },
    global: { membership: { maxJoinDuration: '30s', broadcastAddress: IP } },
    services: {
      frontend: service(ports.frontend, ports.frontendMembership),
      history: service(ports.history, ports.historyMembership),
      matching: service(ports.matching, ports.matchingMembership),
      worker: service(ports.worker, ports.workerMembership),
    },
    clusterMetadata: {
      enableGlobalNamespace: false,
      failoverVersionIncrement: 10,
      masterClusterName: 'active',
      currentClusterName: 'active',
      clusterInformation: { active: { enabled: true, initialFailoverVersion: 1, rpcName: 'frontend', rpcAddress: `${IP}:${ports.frontend}` } },
    },
    dcRedirectionPolicy: { policy: 'noop' },
    archival: { history: { state: 'disabled' }, visibility: { state: 'disabled' } },
    namespaceDefaults: { archival: { history: { state: 'disabled' }, visibility: { state: 'disabled' } } },
    dynamicConfigClient: { filepath: input.dynamicConfigPath, pollInterval: '10s' },
  });
}

/** temporal-dev.yml's `dynamicConfig` (key: value, as the dev server's --dynamic-config-value takes it) in the server's file format. */
export function temporalDynamicConfigYaml(values: Record<string, unknown>): string {
  const entries = Object.entries(values).map(([key, value]) => [key, [{ value, constraints: {} }]]);
  return entries.length === 0 ? '{}\n' : stringify(Object.fromEntries(entries));
}
