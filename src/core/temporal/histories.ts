import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Client } from '@temporalio/client';
import { historyFromJSON, historyToJSON } from '@temporalio/common/lib/proto-utils.js';
import type { temporal } from '@temporalio/proto';

type History = temporal.api.history.v1.IHistory;

/** The whole event history of a run, as the JSON that Temporal UI and the CLI also export. */
export async function exportHistory(client: Client, workflowId: string): Promise<string> {
  return historyToJSON(await client.workflow.getHandle(workflowId).fetchHistory());
}

export interface RecordedHistory {
  file: string;
  workflowId: string;
  workflowType: string;
  history: History;
}

/** Reads every `*.json` history below `dir` (one folder per workflow type). */
export async function readRecordedHistories(dir: string): Promise<RecordedHistory[]> {
  const files = (await readdir(dir, { recursive: true })).filter((f) => f.endsWith('.json')).sort();
  return Promise.all(
    files.map(async (file) => {
      const history = historyFromJSON(JSON.parse(await readFile(join(dir, file), 'utf8')));
      const started = history.events?.[0]?.workflowExecutionStartedEventAttributes;
      return {
        file,
        workflowId: file,
        workflowType: started?.workflowType?.name ?? 'unknown',
        history,
      };
    }),
  );
}
