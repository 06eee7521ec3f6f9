import { GuildParams, integerParam, Timestamp } from '../core/contract.js';
import { z } from '../core/zod.js';
import { FLOW_RUN_STATUSES } from './ids.js';

export const Flow = z
  .object({
    id: z.number().int(),
    name: z.string(),
    description: z.string().nullable(),
    enabled: z.boolean(),
    triggerType: z
      .enum(['manual', 'webhook', 'event'])
      .nullable()
      .openapi({ description: '`manual`: run through the API; `webhook`: run through its webhook URL or the API; `event`: started by a platform event (`triggerEvent`).' }),
    triggerEvent: z.string().nullable().openapi({ description: 'The platform event of an `event` flow (`members.joined`, `members.left`); null otherwise.' }),
    runnable: z.boolean().openapi({ description: 'True when enabled and the trigger is `manual` or `webhook`: POST runs accepts it.' }),
    timeoutSeconds: z.number().int().openapi({ description: "The flow's own timeout: a run still going then ends `stopped`." }),
    version: z.number().int().openapi({ description: 'Raised by every saved change; a run keeps the version it started with.' }),
    updatedAt: Timestamp.nullable(),
  })
  .openapi('Flow');

export const FlowList = z.object({ items: z.array(Flow) }).openapi('FlowList');

export const FlowRun = z
  .object({
    executionId: z.number().int(),
    workflowId: z.number().int().openapi({ description: 'The id of the flow this run belongs to.' }),
    status: z.enum(FLOW_RUN_STATUSES).openapi({
      description:
        '`running` (accepted, then started within seconds) → one of: `success`: the run reached a node without `next` or a stop node with status success; `error`: a node, an ' +
        "expression or a stop node with status error ended it (`error` says which); `stopped`: the flow's own timeout fired; " +
        '`cancelled`: an operator cancelled it.',
    }),
    output: z.unknown().openapi({ description: "The last node's output once the run succeeded (null otherwise); at most 64 KiB as JSON, since a node whose output is larger fails." }),
    error: z.string().nullable(),
    startedAt: Timestamp.nullable(),
    finishedAt: Timestamp.nullable(),
    durationMs: z.number().int().nullable(),
  })
  .openapi('FlowRun');

export const FlowParams = GuildParams.extend({ workflowId: integerParam({ min: 1, max: 2_147_483_647 }).openapi({ description: 'The flow id.' }) });
/** Run ids are bigint (db/migrations/2026-11-29-071): any id JSON carries exactly. */
export const FlowRunParams = GuildParams.extend({ executionId: integerParam({ min: 1, max: Number.MAX_SAFE_INTEGER }) });

export const MAX_WAIT_SECONDS = 120;

export const FlowRunRequest = z
  .strictObject({
    input: z.unknown().optional().openapi({
      description:
        'The trigger data: any JSON for a manual flow; for a webhook flow, what its webhook URL would receive, ' +
        '`{headers, query, body}` (docs/flows.md). Absent: null.',
    }),
    wait: z.boolean().default(false).openapi({ description: 'Answer when the run ends (200), or with 202 once `timeoutSeconds` pass.' }),
    timeoutSeconds: z
      .number()
      .int()
      .min(1)
      .max(MAX_WAIT_SECONDS)
      .optional()
      .openapi({ description: "The longest wait with `wait` true; default the flow's timeout + 5 s, at most 120." }),
  })
  .openapi('FlowRunRequest');

export type FlowBody = z.infer<typeof Flow>;
export type FlowRunBody = z.infer<typeof FlowRun>;
