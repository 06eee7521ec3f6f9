import { Context } from '@temporalio/activity';
import type { ActivityInterceptorsFactory } from '@temporalio/worker';
import type { Logger } from '../src/core/logger.js';

/**
 * One debug line per activity attempt (type, workflow, attempt, outcome, duration): with tracing on, the logger adds
 * the trace, span and api request id, so an operator can follow one request from the api's line to the worker's.
 */
export function activityLog(logger: Logger): ActivityInterceptorsFactory {
  return () => ({
    inbound: {
      async execute(input, next) {
        const { activityType, attempt, workflowExecution } = Context.current().info;
        const started = performance.now();
        const line = (outcome: string) => ({ activityType, workflowId: workflowExecution?.workflowId, attempt, outcome, ms: Math.round(performance.now() - started) });
        try {
          const result = await next(input);
          logger.debug(line('completed'), 'activity finished');
          return result;
        } catch (err) {
          logger.debug({ ...line('failed'), err }, 'activity finished');
          throw err;
        }
      },
    },
  });
}
