import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';

// Reading and schema-validating deploy/kubernetes: the manifests as the cluster would receive them (kustomize files
// aside), each checked against the Kubernetes API's own schema for its apiVersion and kind.

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const MANIFEST_DIR = join(ROOT, 'deploy/kubernetes');

/** A Kubernetes object as parsed from YAML: only what the checks read is typed. */
export type Manifest = { apiVersion: string; kind: string; metadata: { name: string }; spec?: any; data?: Record<string, string> } & Record<string, any>;

export interface ManifestFile {
  /** The path below deploy/kubernetes. */
  file: string;
  manifests: Manifest[];
}

const yamlFiles = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? yamlFiles(path) : name.endsWith('.yaml') ? [path] : [];
  });

export function parseManifests(text: string, file = 'manifest.yaml'): Manifest[] {
  return parseAllDocuments(text).map((doc) => {
    if (doc.errors.length) throw new Error(`${file}: ${doc.errors[0]!.message}`);
    return doc.toJS() as Manifest;
  });
}

/** Every file of deploy/kubernetes with its objects; the kustomizations are read apart (kustomizations()). */
export function manifestFiles(dir = MANIFEST_DIR): ManifestFile[] {
  return yamlFiles(dir)
    .filter((path) => !path.endsWith('kustomization.yaml'))
    .map((path) => ({ file: relative(dir, path), manifests: parseManifests(readFileSync(path, 'utf8'), relative(dir, path)) }));
}

export function kustomizations(dir = MANIFEST_DIR): { dir: string; resources: string[] }[] {
  return yamlFiles(dir)
    .filter((path) => path.endsWith('kustomization.yaml'))
    .map((path) => {
      const folder = relative(dir, join(path, '..'));
      return { dir: folder, resources: (parseManifests(readFileSync(path, 'utf8'))[0] as any).resources.map((file: string) => join(folder, file)) };
    });
}

/** The kubernetes-models module of a kind: `apps/v1` Deployment is kubernetes-models/apps/v1/Deployment, core `v1` kinds sit at v1/. */
const modelPath = ({ apiVersion, kind }: Manifest) => `kubernetes-models/${apiVersion}/${kind}`;

/**
 * The schema's complaints about one object (none when it is valid): the upstream OpenAPI schema of its apiVersion
 * and kind, as the kubernetes-models package compiles it. An apiVersion or kind the schemas do not know is one too.
 */
export async function schemaErrors(manifest: Manifest): Promise<string[]> {
  const where = `${manifest.kind ?? '?'} ${manifest.metadata?.name ?? '?'}`;
  let Model: new (data: unknown) => { validate(): void };
  try {
    const module = await import(modelPath(manifest));
    Model = module[manifest.kind];
    if (!Model) throw new Error('no such kind');
  } catch {
    return [`${where}: no schema for apiVersion ${manifest.apiVersion}, kind ${manifest.kind}`];
  }
  try {
    new Model(manifest).validate();
    return [];
  } catch (err) {
    return [`${where}: ${(err as Error).message}`];
  }
}
