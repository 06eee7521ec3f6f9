import { ActivityFailure, ApplicationFailure } from '@temporalio/workflow';

/** A node that failed for good: its run ends `error` with this message. */
export class NodeFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NodeFailure';
  }
}

/** The run's error text for a failure inside a node, or undefined for anything that is not a node's failure. */
export function nodeFailureMessage(err: unknown, node: { id: string; type: string }): string | undefined {
  const where = `node "${node.id}" (${node.type})`;
  if (err instanceof NodeFailure) return `${where}: ${err.message}`;
  // A local activity's failure arrives as the ApplicationFailure itself, an activity's wrapped in an ActivityFailure.
  if (err instanceof ApplicationFailure) return `${where}: ${err.message}`;
  if (err instanceof ActivityFailure) {
    const cause = err.cause;
    const detail = cause instanceof ApplicationFailure ? cause.message : (cause?.message ?? err.message);
    return `${where}: ${detail}`;
  }
  return undefined;
}

/** JSON size of a value, as the caps count it (UTF-16 code units are close enough to bytes for a cap). */
export const jsonSize = (value: unknown): number => JSON.stringify(value ?? null).length;
