import type { Knex } from 'knex';
import { snakeCaseMappers } from 'objection';
import { NotFound } from '../../platform/http/problem.ts';
import { CANONICAL_UUID } from '../../platform/http/validation.ts';
import { EmailMessage, type EmailStatus } from './models.ts';

/**
 * The e-mail module's reads: the ledger (the `EmailMessage` model), and what the guest messages need from tables
 * other modules own (reservations, show events, shows, offers, payments, refunds: none exports a model) — set-based
 * SQL, its rows mapped to camelCase here.
 */

// ---------------------------------------------------------------------------------------------------------
// Reading the ledger

/** Every column but the rendered snapshots and the sealed guest tokens: the list never reads them (spec §2.3). */
export const LIST_COLUMNS = [
  'id',
  'status',
  'to_address',
  'from_address',
  'subject',
  'template',
  'locale',
  'customer_id',
  'reservation_id',
  'attachments',
  'attempts',
  'provider_message_id',
  'provider_response',
  'last_error',
  'last_attempt_at',
  'sent_at',
  'created_at',
  'updated_at',
] as const;

export interface EmailListFilters {
  status?: EmailStatus;
  /** Recipient, matched case-insensitively and exactly. */
  to?: string;
  customerId?: string;
  reservationId?: string;
  template?: string;
  createdFrom?: Date | string;
  createdTo?: Date | string;
}

export interface Paging {
  limit?: number;
  offset?: number;
}

export interface EmailPage {
  items: EmailMessage[];
  total: number;
  limit: number;
  offset: number;
}

/** Newest first. The items carry no `htmlBody`/`textBody`. */
export async function listMessages(knex: Knex, filters: EmailListFilters = {}, paging: Paging = {}): Promise<EmailPage> {
  const limit = Math.min(Math.max(paging.limit ?? 50, 1), 200);
  const offset = Math.max(paging.offset ?? 0, 0);
  const base = EmailMessage.query(knex);
  if (filters.status) base.where('status', filters.status);
  if (filters.to) base.whereRaw('lower(to_address) = ?', [filters.to.trim().toLowerCase()]);
  if (filters.customerId) base.where('customer_id', filters.customerId);
  if (filters.reservationId) base.where('reservation_id', filters.reservationId);
  if (filters.template) base.where('template', filters.template);
  if (filters.createdFrom) base.where('created_at', '>=', new Date(filters.createdFrom));
  if (filters.createdTo) base.where('created_at', '<', new Date(filters.createdTo));
  const [items, total] = await Promise.all([
    base.clone().select(LIST_COLUMNS as unknown as string[]).orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id' }]).limit(limit).offset(offset),
    base.clone().resultSize(),
  ]);
  return { items, total, limit, offset };
}

/**
 * One message (its snapshots too with `withSnapshots`; never its sealed guest tokens); 404 when there is none.
 */
export async function getMessage(knex: Knex, id: string, options: { withSnapshots?: boolean } = {}): Promise<EmailMessage> {
  const columns = options.withSnapshots ? [...LIST_COLUMNS, 'html_body', 'text_body'] : [...LIST_COLUMNS];
  const message = CANONICAL_UUID.test(id) ? await EmailMessage.query(knex).findById(id).select(columns) : undefined;
  if (!message) throw NotFound('No e-mail message with this id.');
  return message;
}

/** Whether the reservation already has a ledger message of `template` (the once-per-reservation messages). */
export async function hasMessage(knex: Knex, reservationId: string, template: string): Promise<boolean> {
  return Boolean(await EmailMessage.query(knex).where({ reservation_id: reservationId, template }).first().select('id'));
}

// ---------------------------------------------------------------------------------------------------------
// What the guest messages read of other modules' tables

const camel = snakeCaseMappers();

/** A reservation row (every column, camelCase) with its event, show and offer, as the guest's messages need it. */
export interface ReservationForMessage {
  reference: string;
  status: string;
  customerId: string;
  guestCount: number;
  locale: string | null;
  contactHonorific: string | null;
  contactName: string | null;
  contactEmail: string;
  accessTokenSealed?: string | null;
  checkInTokenSealed?: string | null;
  eventSlug: string | null;
  eventStartsAt: Date;
  eventDoorsAt: Date | null;
  eventStatus: string;
  showTitle: Record<string, string> | null;
  showDurationMinutes: number;
  offerName: Record<string, string> | null;
  // The price as charged (numbers or numeric strings, read with Number()).
  subtotalVnd: number | string;
  promoDiscountVnd?: number | string | null;
  promoCode?: string | null;
  referralDiscountVnd?: number | string | null;
  referralCode?: string | null;
  discountVnd?: number | string | null;
  serviceChargeVnd: number | string;
  serviceChargePercent: number | string;
  vatVnd: number | string;
  vatPercent: number | string;
  voucherCreditVnd?: number | string | null;
  voucherCode?: string | null;
  totalVnd: number | string;
  /** How the guest chose to pay later (issue 34 §1): at the venue, by bank transfer, or null. */
  payLaterMethod?: 'PAY_AT_VENUE' | 'BANK_TRANSFER' | null;
  holdExpiresAt?: Date | null;
}

export async function reservationForMessage(trx: Knex.Transaction, id: string): Promise<ReservationForMessage | undefined> {
  const row = await trx('reservations as r')
    .join('show_events as e', 'e.id', 'r.show_event_id')
    .join('shows as s', 's.id', 'e.show_id')
    .join('offers as o', 'o.id', 'r.offer_id')
    .where('r.id', id)
    .first(
      'r.*',
      'e.slug as event_slug',
      'e.starts_at as event_starts_at',
      'e.doors_at as event_doors_at',
      'e.status as event_status',
      's.title as show_title',
      's.duration_minutes as show_duration_minutes',
      'o.name as offer_name',
    );
  return row ? (camel.parse(row) as ReservationForMessage) : undefined;
}

/** What the reservation's payments brought in, net of succeeded refunds (whole VND). */
export async function netPaid(trx: Knex.Transaction, reservationId: string): Promise<number> {
  const row = await trx('payments')
    .where({ reservation_id: reservationId })
    .whereIn('status', ['SUCCEEDED', 'PARTIALLY_REFUNDED', 'REFUNDED'])
    .first(trx.raw('coalesce(sum(amount_vnd - refunded_vnd), 0) as net'));
  return Number(row?.net ?? 0);
}

/** When the reservation's event starts. */
export async function eventStartOf(trx: Knex.Transaction, reservationId: string): Promise<Date> {
  const event = await trx('reservations as r').join('show_events as e', 'e.id', 'r.show_event_id').where('r.id', reservationId).first('e.starts_at');
  return event.starts_at;
}

/** The reservation's status and event, its row locked (`for update`): the reminder's checks. */
export async function lockReservationForReminder(trx: Knex.Transaction, id: string): Promise<{ status: string; eventStatus: string; eventStartsAt: Date } | undefined> {
  const reservation = await trx('reservations').where({ id }).forUpdate().first('id', 'status', 'show_event_id');
  if (!reservation) return undefined;
  const event = await trx('show_events').where({ id: reservation.show_event_id }).first('status', 'starts_at');
  return { status: reservation.status, eventStatus: event.status, eventStartsAt: event.starts_at };
}

/** The reservation's status and contact e-mail, its row locked (`for update`): the hold-expired message's checks. */
export async function lockReservationContact(trx: Knex.Transaction, id: string): Promise<{ status: string; contactEmail: string | null } | undefined> {
  const reservation = await trx('reservations').where({ id }).forUpdate().first('status', 'contact_email');
  return reservation ? { status: reservation.status, contactEmail: reservation.contact_email } : undefined;
}

/** The reservation's pay-later state, its row locked (`for update`): the transfer reminder's checks. */
export async function lockReservationForTransferReminder(
  trx: Knex.Transaction,
  id: string,
): Promise<{ status: string; payLaterMethod: string | null; holdExpiresAt: Date | null; totalVnd: number } | undefined> {
  const row = await trx('reservations').where({ id }).forUpdate().first('status', 'pay_later_method', 'hold_expires_at', 'total_vnd');
  return row ? { status: row.status, payLaterMethod: row.pay_later_method, holdExpiresAt: row.hold_expires_at ? new Date(row.hold_expires_at) : null, totalVnd: Number(row.total_vnd) } : undefined;
}

/** The reference of the reservation's latest pending bank transfer (what the guest quotes), or null. */
export async function pendingTransferReference(trx: Knex.Transaction, reservationId: string): Promise<string | null> {
  const row = await trx('payments').where({ reservation_id: reservationId, gateway: 'BANK_TRANSFER', status: 'PENDING' }).orderBy('created_at', 'desc').first('txn_ref');
  return row?.txn_ref ?? null;
}

/** The ids of the reservation's refunds. */
/** The reservation's refunds, oldest first, with their payment's gateway. */
export async function refundsOf(trx: Knex.Transaction, reservationId: string): Promise<Array<{ id: string; amountVnd: number; status: string; gateway: string; createdAt: Date }>> {
  const rows = (await trx('refunds as f')
    .join('payments as p', 'p.id', 'f.payment_id')
    .where('p.reservation_id', reservationId)
    .orderBy('f.created_at')
    .orderBy('f.id')
    .select('f.id', 'f.amount_vnd', 'f.status', 'p.gateway', 'f.created_at')) as Array<{ id: string; amount_vnd: number; status: string; gateway: string; created_at: Date }>;
  return rows.map((row) => ({ id: row.id, amountVnd: Number(row.amount_vnd), status: row.status, gateway: row.gateway, createdAt: new Date(row.created_at) }));
}

/** A refund with its payment's gateway and reservation. */
export async function refundForMessage(trx: Knex.Transaction, refundId: string): Promise<{ status: string; amountVnd: number; gateway: string; reservationId: string } | undefined> {
  const row = await trx('refunds as f').join('payments as p', 'p.id', 'f.payment_id').where('f.id', refundId).first('f.status', 'f.amount_vnd', 'p.gateway', 'p.reservation_id');
  return row ? { status: row.status, amountVnd: Number(row.amount_vnd), gateway: row.gateway, reservationId: row.reservation_id } : undefined;
}

/**
 * A customer merge's part here (the customers module's mergeCustomers, in its transaction): every message of the
 * duplicate moves to the survivor.
 */
export async function moveCustomerMessages(trx: Knex.Transaction, fromCustomerId: string, toCustomerId: string): Promise<void> {
  await trx('email_messages').where({ customer_id: fromCustomerId }).update({ customer_id: toCustomerId });
}
