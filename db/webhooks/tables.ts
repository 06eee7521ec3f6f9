import type { Generated } from 'kysely';
import type { CreatedAt } from '../shared/columns.js';

export interface WebhookEndpointsTable {
  id: Generated<number>;
  guild_id: string;
  url: string;
  events: string[];
  secret: string;
  enabled: Generated<boolean>;
  disabled_reason: string | null;
  failing_since: Date | null;
  created_at: CreatedAt;
  removed_at: Date | null;
  description: Generated<string | null>;
  /** The secret a rotation with an overlap replaced: it signs too until `previous_secret_expires_at`. */
  previous_secret: Generated<string | null>;
  previous_secret_expires_at: Generated<Date | null>;
}

export interface WebhookDeliveriesTable {
  id: Generated<number>;
  endpoint_id: number;
  event_id: string;
  body: string;
  status: 'pending' | 'succeeded' | 'failed' | 'cancelled';
  attempts: Generated<number>;
  created_at: CreatedAt;
  completed_at: Date | null;
  retry_requested_at: Date | null;
  first_dialled_at: Date | null;
}

export interface WebhookAttemptsTable {
  id: Generated<number>;
  delivery_id: number;
  attempt: number;
  attempted_at: Date;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
  response_excerpt: string | null;
  /** The headers the attempt sent (Service-Webhook-Id, -Timestamp, Service-Signature); null when unknown. */
  request_headers: Generated<Record<string, string> | null>;
  /** Null on attempts logged before the column existed. */
  endpoint_id: Generated<number | null>;
}
