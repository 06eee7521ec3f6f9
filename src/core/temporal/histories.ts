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

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

/**
 * Temporal Cloud's billable actions that a history shows (docs/performance.md, "Giveaway ends at no idle cost"): each
 * start (a signal-with-start counts once for its start and signal), signal, timer and activity attempt. Heartbeats,
 * queries and a schedule's own two actions per firing are not in a history.
 */
export function billableActions(events: HistoryEvent[]): { starts: number; signals: number; timers: number; activityAttempts: number; total: number } {
  const count = (has: (e: HistoryEvent) => unknown) => events.filter(has).length;
  const starts = count((e) => e.workflowExecutionStartedEventAttributes);
  const signals = count((e) => e.workflowExecutionSignaledEventAttributes);
  const timers = count((e) => e.timerStartedEventAttributes);
  const activityAttempts = events.reduce((n, e) => n + (e.activityTaskStartedEventAttributes?.attempt ?? 0), 0);
  return { starts, signals, timers, activityAttempts, total: starts + signals - Math.min(starts, signals) + timers + activityAttempts };
}

/** The billable actions of a workflow id's every run, its latest back through each continue-as-new. */
export async function billableActionsOfChain(client: Client, workflowId: string): Promise<ReturnType<typeof billableActions> & { runs: number }> {
  const sum = { starts: 0, signals: 0, timers: 0, activityAttempts: 0, total: 0, runs: 0 };
  let runId: string | undefined;
  do {
    const events = (await client.workflow.getHandle(workflowId, runId).fetchHistory()).events ?? [];
    const one = billableActions(events);
    for (const key of ['starts', 'signals', 'timers', 'activityAttempts', 'total'] as const) sum[key] += one[key];
    sum.runs++;
    runId = events[0]?.workflowExecutionStartedEventAttributes?.continuedExecutionRunId ?? undefined;
  } while (runId);
  return sum;
}
