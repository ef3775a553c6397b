import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { insertEvent, insertOffer, insertShow, type ShowFixture } from '../catalog/fixtures.ts';

/** Rows for the analytics specs, written straight into the tables (payments and refunds included). */

let counter = 0;
const ALPHABET = '0123456789ABCDEFGHJKLMNPQRSTUVWXYZ';
export function nextReference(): string {
  let n = ++counter + Math.floor(Math.random() * 1e6) * 1000;
  let out = '';
  for (let i = 0; i < 6; i++) {
    out = ALPHABET[n % ALPHABET.length] + out;
    n = Math.floor(n / ALPHABET.length);
  }
  return `VN-${out}`;
}

export async function showWithEvent(knex: Knex, overrides: { code?: string; title?: Record<string, string> } = {}) {
  const show: ShowFixture = await insertShow(knex, { ...(overrides.code ? { code: overrides.code, slug: `show-${overrides.code.toLowerCase()}` } : {}), ...(overrides.title ? { title: overrides.title } : {}) });
  const event = await insertEvent(knex, show, new Date(Date.now() + 20 * 86_400_000));
  const offer = await insertOffer(knex, show, { pricePerGuestVnd: 1_000_000, minGuests: 1, maxGuests: 20 });
  return { show, event, offer };
}

export async function insertCustomer(knex: Knex, fields: { name?: string; email: string; phone?: string | null; deleted?: boolean }): Promise<string> {
  const [row] = await knex('customers')
    .insert({
      name: fields.name ?? 'Guest',
      email: fields.email,
      email_normalized: fields.email.trim().toLowerCase(),
      phone: fields.phone ?? null,
      is_deleted: fields.deleted ?? false,
      deleted_at: fields.deleted ? new Date() : null,
    })
    .returning('id');
  return row.id;
}

export interface ReservationSeed {
  eventId: string;
  offerId: string;
  customerId: string;
  createdAt: Date;
  status?: 'HELD' | 'CONFIRMED' | 'CHECKED_IN' | 'CANCELLED' | 'EXPIRED' | 'NO_SHOW';
  /** Default: confirmed for CONFIRMED, CHECKED_IN, NO_SHOW. */
  confirmed?: boolean;
  guests?: number;
  bookingPath?: string;
  reference?: string;
  customerNote?: string;
  staffNotes?: string;
  analyticsSessionId?: string;
}

export async function insertReservation(knex: Knex, seed: ReservationSeed): Promise<{ id: string; reference: string }> {
  const status = seed.status ?? 'CONFIRMED';
  const confirmed = seed.confirmed ?? ['CONFIRMED', 'CHECKED_IN', 'NO_SHOW'].includes(status);
  const guests = seed.guests ?? 2;
  const total = guests * 1_000_000;
  const [row] = await knex('reservations')
    .insert({
      reference: seed.reference ?? nextReference(),
      show_event_id: seed.eventId,
      offer_id: seed.offerId,
      customer_id: seed.customerId,
      guest_count: guests,
      status,
      hold_expires_at: status === 'HELD' ? new Date(Date.now() + 600_000) : null,
      price_per_guest_vnd: 1_000_000,
      subtotal_vnd: total,
      service_charge_vnd: 0,
      vat_vnd: 0,
      total_vnd: total,
      service_charge_percent: 0,
      vat_percent: 0,
      booking_path: seed.bookingPath ?? 'DINNER_SHOW',
      access_token_hash: randomBytes(32),
      customer_note: seed.customerNote ?? null,
      staff_notes: seed.staffNotes ?? null,
      analytics_session_id: seed.analyticsSessionId ?? null,
      confirmed_at: confirmed ? seed.createdAt : null,
      checked_in_at: status === 'CHECKED_IN' ? seed.createdAt : null,
      cancelled_at: status === 'CANCELLED' ? seed.createdAt : null,
      no_show_at: status === 'NO_SHOW' ? seed.createdAt : null,
      created_at: seed.createdAt,
      updated_at: seed.createdAt,
    })
    .returning(['id', 'reference']);
  return row;
}

let txn = 0;
export async function insertPayment(
  knex: Knex,
  reservationId: string,
  fields: { amount: number; gateway?: string; status?: string; txnRef?: string; note?: string; refunds?: Array<{ amount: number; status?: string; reason?: string; gatewayRefundId?: string }> },
): Promise<string> {
  const succeededRefunds = (fields.refunds ?? []).filter((r) => (r.status ?? 'SUCCEEDED') === 'SUCCEEDED').reduce((a, r) => a + r.amount, 0);
  const status = fields.status ?? (succeededRefunds === 0 ? 'SUCCEEDED' : succeededRefunds >= fields.amount ? 'REFUNDED' : 'PARTIALLY_REFUNDED');
  const [payment] = await knex('payments')
    .insert({
      reservation_id: reservationId,
      gateway: fields.gateway ?? 'VNPAY',
      status,
      amount_vnd: fields.amount,
      refunded_vnd: succeededRefunds,
      txn_ref: fields.txnRef ?? `TXN${Date.now()}${++txn}`,
      note: fields.note ?? null,
      succeeded_at: status === 'FAILED' || status === 'PENDING' ? null : new Date(),
    })
    .returning('id');
  for (const refund of fields.refunds ?? []) {
    await knex('refunds').insert({
      payment_id: payment.id,
      amount_vnd: refund.amount,
      status: refund.status ?? 'SUCCEEDED',
      reason: refund.reason ?? null,
      gateway_refund_id: refund.gatewayRefundId ?? null,
    });
  }
  return payment.id;
}
