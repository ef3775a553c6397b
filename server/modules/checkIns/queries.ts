import type { Knex } from 'knex';
import { digest } from '../../platform/auth/tokens.ts';
import type { ReservationStatus } from '../booking/index.ts';
// Payments that count as paid; a REFUNDED one counts for nothing (its amount less its refunds is 0).
import { PAID_STATUSES } from '../payments/index.ts';
import type { ShowEventStatus } from '../showEvents/index.ts';
import type { TableZone } from '../tables/index.ts';
import { normalizeToken, type Target } from './door.ts';
import { CheckIn, type CheckInReason, type CheckInType } from './models.ts';

/**
 * The door's reads: the reservation as the door sees it (a join over booking's, offers', show events', shows' and
 * tables' tables, none of which exports a model: set-based SQL, mapped to camelCase here), the reservation a
 * target names, and the door's history of a reservation (the `CheckIn` model). Also the set-based statement the
 * redeem command runs (the attempt recorded once per nonce); the reservation's check-in is booking's write
 * (`markCheckedIn`).
 */

// ---- the reservation as the door sees it --------------------------------------------------------------------

export interface DoorReservation {
  id: string;
  reference: string;
  status: ReservationStatus;
  holdExpiresAt: Date | null;
  guestCount: number;
  totalVnd: number;
  confirmedBy: 'PAYMENT' | 'STAFF' | 'SYSTEM' | null;
  checkedInAt: Date | null;
  staffNotes: string | null;
  showEventId: string;
  offerId: string;
  offerCode: string;
  offerName: Record<string, string>;
  tableId: string | null;
  tableCode: string | null;
  tableZone: TableZone | null;
  /** The contact the reservation was booked with (its own snapshot: what its guest typed). */
  contactHonorific: string | null;
  contactName: string;
  contactEmail: string;
  contactPhone: string | null;
  /** The CRM customer record the reservation is filed under (staff's record; a guest's booking never changes it). */
  customerId: string;
  customerHonorific: string | null;
  customerName: string;
  customerEmail: string;
  customerPhone: string | null;
  customerIsDeleted: boolean;
  eventSlug: string | null;
  eventStatus: ShowEventStatus;
  eventStartsAt: Date;
  eventDoorsAt: Date | null;
  showCode: string;
  showTitle: Record<string, string>;
  paid: boolean;
  paidVnd: number;
  /** How the guest chose to pay later (issue 34 §1): the door collects what is due. */
  payLaterMethod: 'PAY_AT_VENUE' | 'BANK_TRANSFER' | null;
}


export async function doorReservation(knex: Knex, id: string): Promise<DoorReservation | undefined> {
  const row = await knex('reservations as r')
    .join('customers as c', 'c.id', 'r.customer_id')
    .join('offers as o', 'o.id', 'r.offer_id')
    .join('show_events as e', 'e.id', 'r.show_event_id')
    .join('shows as s', 's.id', 'e.show_id')
    .leftJoin('venue_tables as t', 't.id', 'r.table_id')
    .where('r.id', id)
    .first(
      'r.id',
      'r.reference',
      'r.status',
      'r.hold_expires_at',
      'r.guest_count',
      'r.total_vnd',
      'r.confirmed_by',
      'r.checked_in_at',
      'r.staff_notes',
      'r.pay_later_method',
      'r.show_event_id',
      'r.offer_id',
      'o.code as offer_code',
      'o.name as offer_name',
      'r.table_id',
      't.code as table_code',
      't.zone as table_zone',
      'r.contact_honorific',
      'r.contact_name',
      'r.contact_email',
      'r.contact_phone',
      'c.id as customer_id',
      'c.honorific as customer_honorific',
      'c.name as customer_name',
      'c.email as customer_email',
      'c.phone as customer_phone',
      'c.is_deleted as customer_is_deleted',
      'e.slug as event_slug',
      'e.status as event_status',
      'e.starts_at as event_starts_at',
      'e.doors_at as event_doors_at',
      's.code as show_code',
      's.title as show_title',
      knex.raw(`exists (select 1 from payments p where p.reservation_id = r.id and p.status in (${PAID_STATUSES.map(() => '?').join(', ')})) as paid`, PAID_STATUSES),
      knex.raw(
        "(select coalesce(sum(p.amount_vnd - p.refunded_vnd), 0) from payments p where p.reservation_id = r.id and p.status in ('SUCCEEDED', 'PARTIALLY_REFUNDED', 'REFUNDED')) as paid_vnd",
      ),
    );
  if (!row) return undefined;
  return {
    id: row.id,
    reference: row.reference,
    status: row.status,
    holdExpiresAt: row.hold_expires_at,
    guestCount: row.guest_count,
    totalVnd: Number(row.total_vnd),
    confirmedBy: row.confirmed_by,
    checkedInAt: row.checked_in_at,
    staffNotes: row.staff_notes,
    showEventId: row.show_event_id,
    offerId: row.offer_id,
    offerCode: row.offer_code,
    offerName: row.offer_name,
    tableId: row.table_id,
    tableCode: row.table_code,
    tableZone: row.table_zone,
    contactHonorific: row.contact_honorific,
    contactName: row.contact_name,
    contactEmail: row.contact_email,
    contactPhone: row.contact_phone,
    customerId: row.customer_id,
    customerHonorific: row.customer_honorific,
    customerName: row.customer_name,
    customerEmail: row.customer_email,
    customerPhone: row.customer_phone,
    customerIsDeleted: Boolean(row.customer_is_deleted),
    eventSlug: row.event_slug,
    eventStatus: row.event_status,
    eventStartsAt: row.event_starts_at,
    eventDoorsAt: row.event_doors_at,
    showCode: row.show_code,
    showTitle: row.show_title,
    paid: Boolean(row.paid),
    paidVnd: Number(row.paid_vnd),
    payLaterMethod: row.pay_later_method ?? null,
  };
}

/**
 * The reservation id a target names, or undefined (an unknown id, a token that is none or opens nothing);
 * with `lock`, the reservation row is locked (`for update`) in the caller's transaction.
 */
export async function resolveTarget(knex: Knex, target: Target, lock = false): Promise<string | undefined> {
  let where: Record<string, unknown>;
  if ('id' in target) where = { id: target.id };
  else {
    const token = normalizeToken(target.token);
    if (!token) return undefined;
    where = { check_in_token_hash: digest(token) };
  }
  const query = knex('reservations').where(where);
  const row = await (lock ? query.forUpdate() : query).first('id');
  return row?.id;
}

/** The door's event id when such an event exists (an unknown one is still `wrong_event`, but is not stored). */
export async function knownEvent(trx: Knex.Transaction, id: string): Promise<string | null> {
  const row = await trx('show_events').where({ id }).first('id');
  return row?.id ?? null;
}

// ---- history ----------------------------------------------------------------------------------------------------

export const HISTORY_CAP = 200;

/** The reservation's newest attempts (at most HISTORY_CAP), oldest first. */
export async function history(knex: Knex, reservationId: string): Promise<CheckIn[]> {
  const rows = await CheckIn.query(knex)
    .where({ reservation_id: reservationId })
    .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }])
    .limit(HISTORY_CAP);
  return rows.reverse();
}

/** Inside: checked in, and the last accepted scan is not an EXIT (a check-in made elsewhere counts as inside). */
export async function isInside(knex: Knex, row: Pick<DoorReservation, 'id' | 'status'>): Promise<boolean> {
  if (row.status !== 'CHECKED_IN') return false;
  const last = await CheckIn.query(knex)
    .where({ reservation_id: row.id, result: 'ok' })
    .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }])
    .first()
    .select('type');
  return last?.type !== 'EXIT';
}

/** The attempt recorded under a nonce, if any. */
export async function attemptByNonce(knex: Knex, nonce: string): Promise<CheckIn | undefined> {
  return CheckIn.query(knex).where({ nonce }).first();
}

// ---- the redeem command's statements ------------------------------------------------------------------------

export interface AttemptInput {
  reservationId: string | null;
  showEventId: string | null;
  type: CheckInType;
  identifiedBy: 'ID' | 'TOKEN';
  nonce: string;
  requestHash: Buffer;
  result: 'ok' | 'refused';
  reason: CheckInReason | null;
  operator: string;
}

/**
 * Records an attempt unless its nonce already is (`on conflict (nonce) do nothing`): the row written, or undefined
 * when another request recorded the nonce first. Its time is the clock at the insert, not the transaction's start:
 * a scan that waited on the lock is later. Called by commands/redeemCheckIn.ts only.
 */
export async function insertAttemptOnce(trx: Knex.Transaction, attempt: AttemptInput): Promise<CheckIn | undefined> {
  const [inserted] = await trx('check_ins')
    .insert({
      reservation_id: attempt.reservationId,
      show_event_id: attempt.showEventId,
      type: attempt.type,
      identified_by: attempt.identifiedBy,
      nonce: attempt.nonce,
      request_hash: attempt.requestHash,
      result: attempt.result,
      reason: attempt.reason,
      operator: attempt.operator,
      created_at: trx.raw('clock_timestamp()'),
    })
    .onConflict('nonce')
    .ignore()
    .returning('*');
  return inserted ? CheckIn.fromDatabaseJson(inserted) : undefined;
}
