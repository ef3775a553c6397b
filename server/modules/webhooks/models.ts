import { BaseModel, RecordModel } from '../../platform/db/model.ts';
import type { WebhookEventType } from './eventTypes.ts';

export type WebhookMessageStatus = 'PENDING' | 'SUCCEEDED' | 'FAILED';
export type WebhookFailureReason = 'retries_exhausted' | 'endpoint_disabled';

/** Table `webhook_endpoints`: where the venue's other systems are told of its events (issue 36 §3). */
export class WebhookEndpoint extends BaseModel {
  static override tableName = 'webhook_endpoints';
  static override jsonAttributes = ['eventTypes'];
  url!: string;
  description!: string | null;
  eventTypes!: WebhookEventType[];
  enabled!: boolean;
  /** `whsec_…`, sealed under the database's `webhook-secrets` key (server/platform/auth/tokens.ts). */
  secretSealed!: string;
  /** The secret before the last rotation, still signing (beside the new one) until `previousSecretExpiresAt`. */
  previousSecretSealed!: string | null;
  previousSecretExpiresAt!: Date | null;
  secretRotatedAt!: Date | null;
  /** When the current run of failed attempts began; null after a success (the disabling rule reads it). */
  failingSince!: Date | null;
  disabledAt!: Date | null;
  disabledReason!: 'MANUAL' | 'FAILING' | null;
  createdBy!: string | null;
}

/** Table `webhook_messages`: one event for one endpoint (the outbox row its delivery job names). */
export class WebhookMessage extends BaseModel {
  static override tableName = 'webhook_messages';
  /** Insertion order: a message waits for the earlier pending ones of its `orderingKey` at its endpoint. */
  seq!: string;
  endpointId!: string;
  eventType!: WebhookEventType;
  orderingKey!: string;
  /** The exact JSON every attempt sends: `{ type, timestamp, data }`. */
  body!: string;
  status!: WebhookMessageStatus;
  attempts!: number;
  roundAttempts!: number;
  manual!: boolean;
  nextAttemptAt!: Date | null;
  claimedUntil!: Date | null;
  lastAttemptAt!: Date | null;
  deliveredAt!: Date | null;
  failedAt!: Date | null;
  failureReason!: WebhookFailureReason | null;
}

/** Table `webhook_attempts`: one delivery attempt of a message. */
export class WebhookAttempt extends RecordModel {
  static override tableName = 'webhook_attempts';
  id!: string;
  messageId!: string;
  attempt!: number;
  manual!: boolean;
  startedAt!: Date;
  latencyMs!: number;
  statusCode!: number | null;
  outcome!: 'SUCCEEDED' | 'FAILED';
  error!: string | null;
  responseExcerpt!: string | null;
  createdAt!: Date;
}
