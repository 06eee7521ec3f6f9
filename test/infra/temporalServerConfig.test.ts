import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { TEMPORAL_DATABASES, temporalDynamicConfigYaml, temporalServerConfigYaml, type TemporalServerConfigInput } from '../../process/infra/temporalServerConfig.js';

const input: TemporalServerConfigInput = {
  postgres: { host: '127.0.0.1', port: 54400, user: 'postgres', password: 'pw' },
  historyShards: 4,
  ports: {
    frontend: 17233,
    history: 17234,
    matching: 17235,
    worker: 17239,
    frontendMembership: 16933,
    historyMembership: 16934,
    matchingMembership: 16935,
    workerMembership: 16939,
  },
  dynamicConfigPath: '/tmp/stack/temporal-dynamic-config.yaml',
  logLevel: 'warn',
};

describe('temporalServerConfigYaml', () => {
  const config = parse(temporalServerConfigYaml(input));

  it('keeps state and visibility in PostgreSQL through the postgres12 plugin, with the shards asked for', () => {
    expect(config.persistence.numHistoryShards).toBe(4);
    const stores = config.persistence.datastores;
    expect(stores[config.persistence.defaultStore].sql).toMatchObject({
      pluginName: 'postgres12',
      databaseName: TEMPORAL_DATABASES.default,
      connectAddr: '127.0.0.1:54400',
      user: 'postgres',
      password: 'pw',
    });
    expect(stores[config.persistence.visibilityStore].sql).toMatchObject({ pluginName: 'postgres12', databaseName: TEMPORAL_DATABASES.visibility });
  });

  it('binds every service on loopback on the ports given, and the cluster answers on the frontend', () => {
    expect(config.services).toEqual({
      frontend: { rpc: { grpcPort: 17233, membershipPort: 16933, bindOnIP: '127.0.0.1' } },
      history: { rpc: { grpcPort: 17234, membershipPort: 16934, bindOnIP: '127.0.0.1' } },
      matching: { rpc: { grpcPort: 17235, membershipPort: 16935, bindOnIP: '127.0.0.1' } },
      worker: { rpc: { grpcPort: 17239, membershipPort: 16939, bindOnIP: '127.0.0.1' } },
    });
    expect(config.global.membership.broadcastAddress).toBe('127.0.0.1');
    expect(config.clusterMetadata.clusterInformation.active.rpcAddress).toBe('127.0.0.1:17233');
  });

  it('opens no listener on a fixed port (HTTP API, pprof, Prometheus) and archives nothing', () => {
    expect(config.services.frontend.rpc.httpPort).toBeUndefined();
    expect(config.global.pprof).toBeUndefined();
    expect(config.global.metrics).toBeUndefined();
    expect(config.archival).toEqual({ history: { state: 'disabled' }, visibility: { state: 'disabled' } });
  });

  it('reads the dynamic config file written beside it', () => {
    expect(config.dynamicConfigClient.filepath).toBe('/tmp/stack/temporal-dynamic-config.yaml');
  });
});

describe('temporalDynamicConfigYaml', () => {
  it.each([
    [{}, {}],
    [{ 'limit.maxIDLength': 255, 'frontend.enableUpdateWorkflowExecution': true }, {
      'limit.maxIDLength': [{ value: 255, constraints: {} }],
      'frontend.enableUpdateWorkflowExecution': [{ value: true, constraints: {} }],
    }],
  ])('writes temporal-dev.yml dynamicConfig %j as the server reads it', (values, expected) => {
    expect(parse(temporalDynamicConfigYaml(values))).toEqual(expected);
  });
});
