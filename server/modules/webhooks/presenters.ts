import type { Schema } from '../../platform/http/handler.ts';
import { iso } from '../presenting.ts';
import type { WebhookAttempt, WebhookEndpoint, WebhookMessage } from './models.ts';

/** Allow-lists typed by the contract (issue 36 §3). An endpoint's secret, sealed or not, is never among them. */

export function presentEndpoint(endpoint: WebhookEndpoint, now = new Date()): Schema<'WebhookEndpoint'> {
  const overlap = endpoint.previousSecretExpiresAt && new Date(endpoint.previousSecretExpiresAt) > now ? endpoint.previousSecretExpiresAt : null;
  return {
    id: endpoint.id,
    url: endpoint.url,
    description: endpoint.description,
    eventTypes: endpoint.eventTypes,
    enabled: endpoint.enabled,
    disabledReason: endpoint.disabledReason,
    disabledAt: iso(endpoint.disabledAt),
    failingSince: iso(endpoint.failingSince),
    secretRotatedAt: iso(endpoint.secretRotatedAt),
    previousSecretExpiresAt: iso(overlap),
    createdAt: iso(endpoint.createdAt)!,
    updatedAt: iso(endpoint.updatedAt)!,
  };
}

export function presentAttempt(attempt: WebhookAttempt): Schema<'WebhookAttempt'> {
  return {
    id: attempt.id,
    attempt: attempt.attempt,
    manual: attempt.manual,
    startedAt: iso(attempt.startedAt)!,
    latencyMs: attempt.latencyMs,
    statusCode: attempt.statusCode,
    outcome: attempt.outcome,
    error: attempt.error,
    responseExcerpt: attempt.responseExcerpt,
  };
}

export function presentMessage(message: WebhookMessage, lastAttempt: WebhookAttempt | undefined): Schema<'WebhookMessage'> {
  return {
    id: message.id,
    endpointId: message.endpointId,
    eventType: message.eventType,
    status: message.status,
    attempts: message.attempts,
    nextAttemptAt: message.status === 'PENDING' ? iso(message.nextAttemptAt) : null,
    lastAttemptAt: iso(message.lastAttemptAt),
    deliveredAt: iso(message.deliveredAt),
    failedAt: iso(message.failedAt),
    failureReason: message.failureReason,
    createdAt: iso(message.createdAt)!,
    lastAttempt: lastAttempt ? presentAttempt(lastAttempt) : null,
  };
}

export function presentMessageDetail(message: WebhookMessage, attempts: WebhookAttempt[]): Schema<'WebhookMessageDetail'> {
  return { message: presentMessage(message, attempts.at(-1)), payload: JSON.parse(message.body), attempts: attempts.map(presentAttempt) };
}
