import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONFIG_VARIABLES } from '../../../src/core/config.js';
import { SECRET_SETTINGS } from '../../../src/core/settings/secretFiles.js';
import { ROOT, type Manifest } from './manifests.js';

// The environment a container of the manifests starts with, as the kubelet would build it (the image's ENV, then
// envFrom, then env), checked name by name against what the config reads.

/** Read by Node and glibc rather than by the config; docs/deployment.md (Worker) documents both. */
const RUNTIME_VARIABLES = ['NODE_OPTIONS', 'MALLOC_ARENA_MAX'];

/** Stand-ins for the secrets' file contents, shaped as the config accepts them. */
const SECRET_STAND_INS: Record<(typeof SECRET_SETTINGS)[number], string> = {
  DATABASE_URL: 'postgres://app:secret@db.internal:5432/app',
  DATABASE_DIRECT_URL: 'postgres://app:secret@db.internal:5432/app',
  TEMPORAL_API_KEY: 'temporal-api-key',
  DISCORD_TOKEN: 'aaaa.bbbb.cccc',
  DISCORD_CLIENT_SECRET: 'client-secret',
};

/** The ENV of the Dockerfile's last stage, the image every manifest runs. */
export function imageEnv(dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8')): Record<string, string> {
  const lastStage = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
  const env: Record<string, string> = {};
  for (const [, body] of lastStage.replace(/\\\n/g, ' ').matchAll(/^ENV\s+(.+)$/gm)) {
    for (const [, name, value] of body!.matchAll(/([A-Z_][A-Z0-9_]*)=(\S*)/g)) env[name!] = value!;
  }
  return env;
}

export interface ContainerEnv {
  /** What the process would read, secrets' files replaced by stand-ins of their values. */
  env: Record<string, string>;
  problems: string[];
}

/**
 * The container's environment in pod `podName`, and what is wrong with it: a variable the config does not read, a
 * ConfigMap that is not in the manifests, a `_FILE` that names no file of a secret mounted read-only.
 */
export function containerEnv(pod: any, container: any, configMaps: Manifest[], podName: string): ContainerEnv {
  const problems: string[] = [];
  const set: Record<string, string> = { ...imageEnv() };
  for (const source of container.envFrom ?? []) {
    const map = configMaps.find((m) => m.metadata.name === source.configMapRef?.name);
    if (!map) problems.push(`envFrom names ConfigMap ${source.configMapRef?.name ?? '?'}, which the manifests do not hold`);
    Object.assign(set, map?.data ?? {});
  }
  for (const entry of container.env ?? []) {
    const fieldPath = entry.valueFrom?.fieldRef?.fieldPath;
    if (entry.value !== undefined) set[entry.name] = String(entry.value);
    else if (fieldPath === 'metadata.name') set[entry.name] = podName;
    else problems.push(`${entry.name}: only values and the pod's name are understood here`);
  }
  const known = new Set([...CONFIG_VARIABLES, ...SECRET_SETTINGS.map((name) => `${name}_FILE`), ...RUNTIME_VARIABLES]);
  for (const name of Object.keys(set)) if (!known.has(name)) problems.push(`${name} is not a variable the config reads`);

  const env = { ...set };
  for (const secret of SECRET_SETTINGS) {
    const path = set[`${secret}_FILE`];
    if (path === undefined) continue;
    const problem = secretFileProblem(pod, container, path);
    if (problem) problems.push(`${secret}_FILE: ${problem}`);
    delete env[`${secret}_FILE`];
    env[secret] = SECRET_STAND_INS[secret];
  }
  return { env, problems };
}

function secretFileProblem(pod: any, container: any, path: string): string | undefined {
  const mount = (container.volumeMounts ?? []).find((m: any) => path.startsWith(`${m.mountPath}/`));
  const volume = mount && (pod.volumes ?? []).find((v: any) => v.name === mount.name);
  if (!volume?.secret) return `${path} is not in a Secret volume of the container`;
  if (mount.readOnly !== true) return `${path} is in a Secret volume mounted writable`;
  const file = path.slice(mount.mountPath.length + 1);
  const items: { key: string; path: string }[] | undefined = volume.secret.items;
  if (items && !items.some((item) => item.path === file)) return `${path}: no item of Secret ${volume.secret.secretName} is mounted as ${file}`;
  return undefined;
}
