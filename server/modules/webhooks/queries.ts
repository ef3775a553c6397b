import type { Knex } from 'knex';
import { NotFound } from '../../platform/http/problem.ts';
import { camelRow, RESERVATION_PAYABLE, reservationQuery, type ReservationDetails } from '../booking/index.ts';
import { netPaid } from '../payments/index.ts';
import type { WebhookEventType } from './eventTypes.ts';
import { WebhookAttempt, WebhookEndpoint, WebhookMessage, type WebhookMessageStatus } from './models.ts';

/** Reads of the webhooks module (issue 36 §3), and the set-based writes its commands call. */

// ---- endpoints ------------------------------------------------------------------------------------------------

/** The enabled endpoints that want `type` (what an event writes a message for). */
export async function endpointsWanting(trx: Knex.Transaction, type: WebhookEventType): Promise<Array<{ id: string }>> {
  return WebhookEndpoint.query(trx).select('id').where('enabled', true).whereRaw('event_types @> ?::jsonb', [JSON.stringify([type])]).orderBy('created_at');
}

export async function findEndpointOrFail(id: string, trx?: Knex): Promise<WebhookEndpoint> {
  const endpoint = await WebhookEndpoint.query(trx).findById(id);
  if (!endpoint) throw NotFound('No such webhook endpoint.');
  return endpoint;
}

/**
 * The endpoint row locked (`for no key update`: a delivery's claim and its outcome, a redelivery and a change serialize
 * on it, while an event's transaction can still insert messages that refer to it).
 */
export async function lockEndpoint(trx: Knex.Transaction, id: string): Promise<WebhookEndpoint | undefined> {
  return WebhookEndpoint.query(trx).findById(id).forNoKeyUpdate();
}

export async function listEndpoints(filters: { enabled?: boolean; limit: number; offset: number }) {
  const base = WebhookEndpoint.query().modify((q) => {
    if (filters.enabled !== undefined) q.where('enabled', filters.enabled);
  });
  const total = await base.clone().resultSize();
  const items = await base.clone().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(filters.limit).offset(filters.offset);
  return { items, total };
}

// ---- messages -------------------------------------------------------------------------------------------------

export async function findMessageOrFail(id: string, trx?: Knex): Promise<WebhookMessage> {
  const message = await WebhookMessage.query(trx).findById(id);
  if (!message) throw NotFound('No such webhook message.');
  return message;
}

/** The message row locked (after its endpoint's: the lock order is endpoint → message). */
export async function lockMessage(trx: Knex.Transaction, id: string): Promise<WebhookMessage | undefined> {
  return WebhookMessage.query(trx).findById(id).forNoKeyUpdate();
}

/** Whether an earlier message of the same subject at the same endpoint is still pending (this one waits for it). */
export async function hasEarlierPending(trx: Knex.Transaction, message: WebhookMessage): Promise<boolean> {
  const earlier = await WebhookMessage.query(trx)
    .select('id')
    .where({ endpoint_id: message.endpointId, ordering_key: message.orderingKey, status: 'PENDING' })
    .where('seq', '<', message.seq)
    .first();
  return earlier !== undefined;
}

/** The next pending message of the same subject at the same endpoint (the one that waited for this one). */
export async function nextPending(trx: Knex.Transaction, message: WebhookMessage): Promise<string | undefined> {
  const next = await WebhookMessage.query(trx)
    .select('id')
    .where({ endpoint_id: message.endpointId, ordering_key: message.orderingKey, status: 'PENDING' })
    .where('seq', '>', message.seq)
    .orderBy('seq')
    .first();
  return next?.id;
}

/** Fails every pending message of an endpoint that was turned off (no attempt follows). */
export async function failPendingMessages(trx: Knex.Transaction, endpointId: string, now: Date): Promise<number> {
  return WebhookMessage.query(trx)
    .where({ endpoint_id: endpointId, status: 'PENDING' })
    .patch({ status: 'FAILED', failureReason: 'endpoint_disabled', failedAt: now, nextAttemptAt: null, claimedUntil: null, updatedAt: now });
}

export async function listMessages(filters: { endpointId?: string; status?: WebhookMessageStatus; eventType?: WebhookEventType; limit: number; offset: number }) {
  const base = WebhookMessage.query().modify((q) => {
    if (filters.endpointId) q.where('endpoint_id', filters.endpointId);
    if (filters.status) q.where('status', filters.status);
    if (filters.eventType) q.where('event_type', filters.eventType);
  });
  const total = await base.clone().resultSize();
  const items = await base.clone().orderBy('seq', 'desc').limit(filters.limit).offset(filters.offset);
  return { items, total, lastAttempts: await lastAttempts(items.map((message) => message.id)) };
}

/** The latest attempt of each message, by message id. */
async function lastAttempts(messageIds: string[]): Promise<Map<string, WebhookAttempt>> {
  if (!messageIds.length) return new Map();
  const rows = await WebhookAttempt.query().distinctOn('message_id').whereIn('message_id', messageIds).orderBy('message_id').orderBy('attempt', 'desc');
  return new Map(rows.map((attempt) => [attempt.messageId, attempt]));
}

export async function attemptsOf(messageId: string): Promise<WebhookAttempt[]> {
  return WebhookAttempt.query().where('message_id', messageId).orderBy('attempt');
}

// ---- what the payloads say (other modules' rows, read in SQL: DESIGN.md "Modules") ------------------------------

export interface ShowEventFacts {
  id: string;
  startsAt: Date;
  slug: string | null;
  showId: string;
  showSlug: string;
  showTitle: Record<string, string>;
}

const showEventColumns = ['e.id as event_id', 'e.starts_at as event_starts_at', 'e.slug as event_slug', 's.id as show_id', 's.slug as show_slug', 's.title as show_title'];

type ShowEventRow = { event_id: string; event_starts_at: Date; event_slug: string | null; show_id: string; show_slug: string; show_title: Record<string, string> };

const showEventOf = (row: ShowEventRow): ShowEventFacts => ({
  id: row.event_id,
  startsAt: row.event_starts_at,
  slug: row.event_slug,
  showId: row.show_id,
  showSlug: row.show_slug,
  showTitle: row.show_title,
});

/** A reservation as its event left it (booking's own read), the show it is of, and what its payments brought in (net). */
export type ReservationFacts = ReservationDetails & { showId: string; paidVnd: number };

export async function reservationFacts(trx: Knex.Transaction, reservationId: string): Promise<ReservationFacts | undefined> {
  const row = await reservationQuery(trx).select('e.show_id').where('r.id', reservationId).first();
  if (!row) return undefined;
  return { ...camelRow<ReservationDetails & { showId: string }>(row), paidVnd: await netPaid(trx, { kind: RESERVATION_PAYABLE, id: reservationId }) };
}

/** A reservation's reference (a payment's or a voucher's event names it). */
export async function reservationReference(trx: Knex.Transaction, reservationId: string): Promise<string | undefined> {
  const row = await trx('reservations').where('id', reservationId).first('reference');
  return row?.reference;
}

/** A waiting-list entry offered seats: its party and guest, and the performance. */
export async function waitlistOfferFacts(trx: Knex.Transaction, entryId: string): Promise<{ customerId: string | null; guestCount: number; showEvent: ShowEventFacts } | undefined> {
  const row = await trx('waitlist_entries as w')
    .join('show_events as e', 'e.id', 'w.show_event_id')
    .join('shows as s', 's.id', 'e.show_id')
    .where('w.id', entryId)
    .first('w.customer_id', 'w.guest_count', ...showEventColumns);
  return row ? { customerId: row.customer_id, guestCount: Number(row.guest_count), showEvent: showEventOf(row) } : undefined;
}
