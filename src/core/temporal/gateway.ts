import type { Client } from '@temporalio/client';

/** How the api (and the outbox relay) reach Temporal: a client and the worker's task queue. */
export interface TemporalGateway {
  client: Client;
  taskQueue: string;
}
