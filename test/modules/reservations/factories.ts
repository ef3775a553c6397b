import { randomBytes } from 'node:crypto';
import { testDatabase } from '../../helpers/database.ts';

/** The reservations module's rows, written straight into the table (the booking flow is the API's). */

let counter = 0;
const ALPHABET = '0123456789ABCDEFGHJKLMNPQRSTUVWXYZ';
/** A reference in the booking's format, unique in the run. */
export function nextReference(): string {
  let n = ++counter + Math.floor(Math.random() * 1e6) * 1000;
  let out = '';
  for (let i = 0; i < 6; i++) {
    out = ALPHABET[n % ALPHABET.length] + out;
    n = Math.floor(n / ALPHABET.length);
  }
  return `VN-${out}`;
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

/** A reservation of `seed.eventId` (CONFIRMED, 2 guests at 1 000 000 VND unless told); answers its id and reference. */
export async function buildReservation(seed: ReservationSeed): Promise<{ id: string; reference: string }> {
  const status = seed.status ?? 'CONFIRMED';
  const confirmed = seed.confirmed ?? ['CONFIRMED', 'CHECKED_IN', 'NO_SHOW'].includes(status);
  const guests = seed.guests ?? 2;
  const total = guests * 1_000_000;
  const { knex } = await testDatabase();
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
