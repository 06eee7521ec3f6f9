import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { WorkerDeploymentOptions, WorkflowBundleOption } from '@temporalio/worker';
import type { TemporalSettings } from '../src/core/settings/temporalSettings.js';

/** The deployment version a versioned worker declares (TEMPORAL_DEPLOYMENT_NAME, TEMPORAL_BUILD_ID). */
export interface WorkerDeployment {
  name: string;
  buildId: string;
}

/**
 * Every workflow auto-upgrades: on its next task a run moves to the deployment's current version. Workflow changes
 * are made replay-safe with patched(), so a run that started on the previous build continues on the new one, and
 * once the new build is current no task of any run goes to an old worker, which is what keeps a patched run from
 * being handed back to code without the patch. Pinned would leave every open giveaway, timed role and moderation
 * timer on the old build until it ends (weeks), keeping old workers running that long.
 */
export const VERSIONING_BEHAVIOR = 'AUTO_UPGRADE';

export function workerDeploymentOptions(deployment: WorkerDeployment): WorkerDeploymentOptions {
  return { version: { deploymentName: deployment.name, buildId: deployment.buildId }, useWorkerVersioning: true, defaultVersioningBehavior: VERSIONING_BEHAVIOR };
}

/**
 * The build id when TEMPORAL_BUILD_ID is unset: a hash of the workflow code this worker runs (the bundle written at
 * image build with `npm run bundle:workflows`, or bundled at start), so it changes exactly when the workflow code does
 * and every replica of one image declares the same version.
 */
export async function workflowCodeBuildId(bundle: WorkflowBundleOption): Promise<string> {
  const code = 'code' in bundle ? bundle.code : await readFile(bundle.codePath, 'utf8');
  return `wf-${createHash('sha256').update(code).digest('hex').slice(0, 24)}`;
}

/** This worker's deployment version, or none when TEMPORAL_DEPLOYMENT_NAME is unset (an unversioned worker). */
export async function workerDeploymentOf(settings: TemporalSettings, bundle: WorkflowBundleOption): Promise<WorkerDeployment | undefined> {
  if (!settings.deploymentName) return undefined;
  return { name: settings.deploymentName, buildId: settings.buildId ?? (await workflowCodeBuildId(bundle)) };
}
