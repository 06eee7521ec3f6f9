import { TestWorkflowEnvironment } from '@temporalio/testing';
import { defineSearchAttributeKey, type SearchAttributeType } from '@temporalio/common';
import type { TemporalDevSettings } from './temporalDevSettings.js';

export interface RunningTemporal {
  address: string;
  namespace: string;
  uiUrl: string | null;
  stop(): Promise<void>;
}

export interface DevServerOptions {
  /** Path of the `temporal` CLI; without it the SDK downloads the CLI into its cache. */
  cliPath?: string;
  /** Use the settings' fixed ports and persistence file (the dev launcher) or free ports in memory (tests). */
  mode: 'dev' | 'test';
  /** Absolute path of the persistence file in dev mode. */
  dbFilename?: string;
}

/** Starts `temporal server start-dev` with the settings of temporal-dev.yml. */
export async function startTemporalDevServer(settings: TemporalDevSettings, options: DevServerOptions): Promise<RunningTemporal> {
  const dev = options.mode === 'dev';
  const extraArgs = [
    ...Object.entries(settings.sqlitePragmas).flatMap(([k, v]) => ['--sqlite-pragma', `${k}=${v}`]),
    ...Object.entries(settings.dynamicConfig).flatMap(([k, v]) => ['--dynamic-config-value', `${k}=${JSON.stringify(v)}`]),
  ];
  const searchAttributes = Object.entries(settings.searchAttributes).map(([name, type]) =>
    defineSearchAttributeKey(name, type.toUpperCase().replace('KEYWORDLIST', 'KEYWORD_LIST') as SearchAttributeType),
  );
  const env = await TestWorkflowEnvironment.createLocal({
    server: {
      executable: options.cliPath ? { type: 'existing-path', path: options.cliPath } : { type: 'cached-download' },
      namespace: settings.namespace,
      ip: settings.ip,
      port: dev ? settings.port : undefined,
      ui: dev,
      uiPort: dev ? settings.uiPort : undefined,
      dbFilename: dev ? options.dbFilename : undefined,
      searchAttributes,
      extraArgs,
      log: { format: 'json', level: 'error' },
    },
  });
  const address = env.address;
  return {
    address,
    namespace: settings.namespace,
    uiUrl: dev ? `http://${settings.ip}:${settings.uiPort}` : null,
    stop: () => env.teardown(),
  };
}
