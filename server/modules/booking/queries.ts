import type { Knex } from 'knex';
import type { ModelObject, PartialModelObject } from 'objection';
import type { BookingPath } from '../offers/index.ts';
import type { ShowEventStatus } from '../showEvents/index.ts';
import { seatsTakenSql } from '../../domain/availability.ts';
import type { LocalizedText } from '../../domain/localized.ts';
import { Conflict, NotFound } from '../../platform/http/problem.ts';
import type { ContactSource } from './inputs.ts';
import { normalizeEmail } from './inputs.ts';
import { Reservation } from './models.ts';
import type { PayLaterRules } from './payLater.ts';
import { statusAt } from './status.ts';
import { digest, openSecret, tokenMatches } from '../../platform/auth/tokens.ts';
import { normalizeReference } from './tokens.ts';

/**
 * The booking module's reads, and its set-based SQL: joins that build a reservation's view, the seats-taken
 * aggregate, locking statements, the customer upsert (`on conflict`), the bulk expiry. Entity reads and writes of
 * `reservations` go through the `Reservation` model; other modules' tables whose models their modules do not
 * export (show_events, shows, offers, commercial_setup, customers, customer_emails, customer_leads, payments,
 * refunds, referral_partners, referral_links) are read here with knex, and every row leaving this file is camelCase
 * (except the deprecated snake_case boundary functions other modules still call).
 */

/** Column names seen so far, camelCased once (a hold's rows repeat the same few dozen names on every request). */
const camelKeys = new Map<string, string>();
const camelKey = (key: string) => {
  let camel = camelKeys.get(key);
  if (camel === undefined) {
    camel = key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
    if (camelKeys.size < 10_000) camelKeys.set(key, camel);
  }
  return camel;
};

/** A joined row's snake_case keys as camelCase (the one row shape outside this file). */
export function camelRow<T>(row: Record<string, unknown>): T {
  const camel: Record<string, unknown> = {};
  for (const key in row) camel[camelKey(key)] = row[key];
  return camel as T;
}

// ---- the commercial setup -----------------------------------------------------------------------------------

export interface BookingRules {
  holdMinutes: number;
  bookingCutoffMinutes: number;
  cancellationWindowHours: number;
  serviceChargePercent: number;
  vatPercent: number;
}

/** The setup's booking rules (its `numeric` columns as numbers). */
export async function bookingRules(knex: Knex): Promise<BookingRules> {
  const setup = await knex('commercial_setup').where({ id: 1 }).first();
  return {
    holdMinutes: Number(setup.hold_minutes),
    bookingCutoffMinutes: Number(setup.booking_cutoff_minutes),
    cancellationWindowHours: Number(setup.cancellation_window_hours),
    serviceChargePercent: Number(setup.service_charge_percent),
    vatPercent: Number(setup.vat_percent),
  };
}

/** The setup's cancellation window (hours before the event's start). */
export async function cancellationWindowHours(knex: Knex): Promise<number> {
  const setup = await knex('commercial_setup').where({ id: 1 }).first('cancellation_window_hours');
  return Number(setup.cancellation_window_hours);
}

/**
 * What paying later does for a booking of the event `showEventId` (./payLater.ts): the setup's pay-later rules and
 * booking cut-off with the event's start, in one statement.
 */
export async function payLaterRules(knex: Knex, showEventId: string): Promise<PayLaterRules> {
  const row = await knex('show_events as e')
    .crossJoin(knex.raw('commercial_setup as c'))
    .where('e.id', showEventId)
    .andWhere('c.id', 1)
    .first(
      'e.starts_at',
      'c.booking_cutoff_minutes',
      'c.pay_at_venue_max_guests',
      'c.pay_at_venue_max_days_ahead',
      'c.pay_at_venue_over_limit',
      'c.pay_at_venue_approval_hours',
      'c.bank_transfer_hold_hours',
      'c.bank_transfer_reminder_hours',
    );
  const nullable = (value: unknown) => (value === null || value === undefined ? null : Number(value));
  return {
    eventStartsAt: new Date(row.starts_at),
    bookingCutoffMinutes: Number(row.booking_cutoff_minutes),
    payAtVenueMaxGuests: nullable(row.pay_at_venue_max_guests),
    payAtVenueMaxDaysAhead: nullable(row.pay_at_venue_max_days_ahead),
    payAtVenueOverLimit: row.pay_at_venue_over_limit,
    payAtVenueApprovalHours: Number(row.pay_at_venue_approval_hours),
    bankTransferHoldHours: Number(row.bank_transfer_hold_hours),
    bankTransferReminderHours: Number(row.bank_transfer_reminder_hours),
  };
}

// ---- show events and offers ---------------------------------------------------------------------------------

export interface LockedEvent {
  id: string;
  showId: string;
  slug: string;
  startsAt: Date;
  capacity: number;
  salesOpen: boolean;
  status: ShowEventStatus;
  showStatus: string;
  doorsAt: Date | null;
  showSlug: string;
  showCode: string;
  showTitle: Record<string, string>;
}

/** The event of `slug` with its show, the event row locked (`for update`: concurrent holds on one event queue here). */
export const lockEventBySlug = (trx: Knex.Transaction, slug: string) => eventBySlug(trx, slug, true);

/**
 * The event of `slug` with its show; with `lock`, its row locked (`for update of e`) — a hold's — else a snapshot
 * (a quote's, ./quote.ts: it takes no seat).
 */
export async function eventBySlug(knex: Knex, slug: string, lock = false): Promise<LockedEvent | undefined> {
  const { rows } = (await knex.raw(
    `select e.id, e.show_id, e.slug, e.starts_at, e.doors_at, e.capacity, e.sales_open, e.status, s.status as show_status,
            s.slug as show_slug, s.code as show_code, s.title as show_title
       from show_events e join shows s on s.id = e.show_id
      where e.slug = ?${lock ? '\n      for update of e' : ''}`,
    [slug],
  )) as { rows: Array<Record<string, unknown>> };
  return rows[0] ? camelRow<LockedEvent>(rows[0]) : undefined;
}

/**
 * What a hold's check before the lock reads (createHold.ts `outlookBeforeLock`), in one statement so one snapshot:
 * the event of `slug` with its show's status and its seats taken at `now` (the catalog's expression), the setup's
 * booking cut-off and the offer of `offerCode` (absent: `offerId` null). No lock: a snapshot for refusing what
 * certainly does not fit, never for granting seats (the locked count does that). Undefined: no such event.
 */
export async function holdOutlookRow(knex: Knex, slug: string, offerCode: string, now: Date): Promise<HoldOutlookRow | undefined> {
  const row = await knex('show_events as e')
    .join('shows as s', 's.id', 'e.show_id')
    .crossJoin(knex.raw('commercial_setup as c'))
    .leftJoin('offers as o', (join) => join.on('o.code', '=', knex.raw('?', [offerCode])))
    .where('e.slug', slug)
    .andWhere('c.id', 1)
    .first(
      'e.id', 'e.show_id', 'e.starts_at', 'e.capacity', 'e.sales_open', 'e.status', 's.status as show_status',
      knex.raw('? as seats_taken', [seatsTakenSql(knex, 'e.id', now)]),
      'c.booking_cutoff_minutes',
      'o.id as offer_id', 'o.show_id as offer_show_id', 'o.status as offer_status', 'o.min_guests as offer_min_guests',
      'o.max_guests as offer_max_guests', 'o.sales_starts_at as offer_sales_starts_at', 'o.sales_ends_at as offer_sales_ends_at',
    );
  return row ? camelRow<HoldOutlookRow>(row) : undefined;
}

export interface HoldOutlookRow {
  id: string;
  showId: string;
  startsAt: Date;
  capacity: number;
  salesOpen: boolean;
  status: ShowEventStatus;
  showStatus: string;
  seatsTaken: number | string;
  bookingCutoffMinutes: number | string;
  offerId: string | null;
  offerShowId: string | null;
  offerStatus: string | null;
  offerMinGuests: number | null;
  offerMaxGuests: number | null;
  offerSalesStartsAt: Date | null;
  offerSalesEndsAt: Date | null;
}

/** Locks one show event's row (`for update`): the first step of the booking lock order (event → reservation). */
export async function lockShowEvent(trx: Knex.Transaction, id: string): Promise<void> {
  await trx('show_events').where({ id }).forUpdate().first('id');
}

export async function eventCapacity(trx: Knex.Transaction, id: string): Promise<number> {
  const event = await trx('show_events').where({ id }).first('capacity');
  return event.capacity;
}

export async function eventStartsAt(trx: Knex.Transaction, id: string): Promise<Date> {
  const event = await trx('show_events').where({ id }).first('starts_at');
  return event.starts_at;
}

export interface OfferRow {
  id: string;
  code: string;
  showId: string | null;
  name: LocalizedText;
  bookingPath: BookingPath;
  experienceType: string;
  pricePerGuestVnd: number;
  minGuests: number;
  maxGuests: number;
  salesStartsAt: Date | null;
  salesEndsAt: Date | null;
  status: string;
}

export async function offerByCode(trx: Knex.Transaction, code: string): Promise<OfferRow | undefined> {
  const row = await trx('offers').where({ code }).first();
  return row ? camelRow<OfferRow>(row) : undefined;
}

/**
 * What a hold reads before the event's lock, in one statement: the setup's booking rules (`bookingRules`), the
 * offer of `offerCode` (`offerByCode`; undefined when there is none) and whether `reference` is already taken
 * (`referenceTaken`).
 */
export async function holdSetup(trx: Knex.Transaction, offerCode: string, reference: string): Promise<{ rules: BookingRules; offer: OfferRow | undefined; referenceTaken: boolean }> {
  const { rows } = (await trx.raw(
    `select o.*,
            c.hold_minutes as setup_hold_minutes, c.booking_cutoff_minutes as setup_booking_cutoff_minutes,
            c.cancellation_window_hours as setup_cancellation_window_hours,
            c.service_charge_percent as setup_service_charge_percent, c.vat_percent as setup_vat_percent,
            exists (select 1 from reservations r where r.reference = ?) as setup_reference_taken
       from commercial_setup c left join offers o on o.code = ?
      where c.id = 1`,
    [reference, offerCode],
  )) as { rows: Array<Record<string, unknown>> };
  const { setup_hold_minutes, setup_booking_cutoff_minutes, setup_cancellation_window_hours, setup_service_charge_percent, setup_vat_percent, setup_reference_taken, ...offer } = rows[0];
  return {
    rules: {
      holdMinutes: Number(setup_hold_minutes),
      bookingCutoffMinutes: Number(setup_booking_cutoff_minutes),
      cancellationWindowHours: Number(setup_cancellation_window_hours),
      serviceChargePercent: Number(setup_service_charge_percent),
      vatPercent: Number(setup_vat_percent),
    },
    offer: offer.id === null ? undefined : camelRow<OfferRow>(offer),
    referenceTaken: setup_reference_taken === true,
  };
}

/**
 * Writes the HELD reservation `row` and counts, in the same statement, the seats the event's other bookings take
 * at `now` (the catalog's expression; the statement does not see its own row). Run with the event locked, so the
 * count is the authority: a hold that does not fit is refused by the caller, and its transaction (this row with
 * it) rolls back. One round trip inside the lock instead of a count and then an insert.
 */
export async function insertHoldCounted(trx: Knex.Transaction, row: PartialModelObject<Reservation>, now: Date): Promise<{ reservation: Reservation; seatsTaken: number }> {
  // The row's columns named as the model's mappers name them, written and read back without a model instance on
  // either side (issue 37 §2: objection's insert and fromDatabaseJson were a tenth of a hold's server CPU; the
  // model has no JSON attributes and no insert hook, so the statement and the row are the same).
  // The statement's text depends only on which columns are given: made once per set of names (a plain hold is
  // always the same set) instead of built through the query builder on every hold; only the values change.
  const names: string[] = [];
  const values: unknown[] = [];
  for (const key in row) {
    const value = (row as Record<string, unknown>)[key];
    if (value === undefined) continue;
    names.push(snakeKey(key));
    values.push(value);
  }
  const statement = holdInsertSql(trx, names);
  const { rows } = (await trx.raw(statement.sql, [...values, ...statement.seatsBindings(now)] as Knex.Value[])) as { rows: Array<Record<string, unknown>> };
  const { seats_taken_by_others: seatsTaken, ...stored } = rows[0];
  return { reservation: camelRow<Reservation>(stored), seatsTaken: Number(seatsTaken) };
}

/** The hold's insert-and-count statement by its column names (a handful of shapes in a process's life). */
const holdInserts = new Map<string, { sql: string; seatsBindings: (now: Date) => unknown[] }>();

function holdInsertSql(trx: Knex.Transaction, names: string[]): { sql: string; seatsBindings: (now: Date) => unknown[] } {
  const key = names.join(',');
  let statement = holdInserts.get(key);
  if (!statement) {
    // The seats the event's other bookings take (the catalog's expression), its two clock bindings filled per hold.
    const MARK = new Date(0);
    const seats = seatsTakenSql(trx, 'inserted.show_event_id', MARK).toSQL();
    const positions = seats.bindings.map((binding) => binding === MARK);
    const fixed = [...seats.bindings];
    const quoted = names.map((name) => `"${name}"`).join(', ');
    statement = {
      sql: `with "inserted" as (insert into "reservations" (${quoted}) values (${names.map(() => '?').join(', ')}) returning *) select "inserted".*, ${seats.sql} as "seats_taken_by_others" from "inserted"`,
      seatsBindings: (now) => fixed.map((binding, i) => (positions[i] ? now : binding)),
    };
    if (holdInserts.size < 100) holdInserts.set(key, statement);
  }
  return statement;
}

/** `camelCase` → `snake_case`, as objection's snakeCaseMappers name a model's columns. */
const snakeKey = (key: string) => key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** Guests holding seats of one event at `now` (the catalog's expression, so both agree). */
export async function seatsTakenOf(knex: Knex, eventId: string, now: Date): Promise<number> {
  const row = await knex('show_events as e').where('e.id', eventId).first(knex.raw('? as seats_taken', [seatsTakenSql(knex, 'e.id', now)]));
  return Number(row?.seats_taken ?? 0);
}

export async function showEventIdBySlug(trx: Knex.Transaction, slug: string): Promise<string | undefined> {
  const event = await trx('show_events').where({ slug }).first('id');
  return event?.id;
}

export interface LiveLead {
  id: string;
  customerId: string;
  locale: string | null;
  honorific: string | null;
  name: string;
  email: string;
  phone: string | null;
}

/** The lead of `reference` while it is unexpired and its customer live. */
export async function liveLead(trx: Knex, reference: string, now: Date): Promise<LiveLead | undefined> {
  const row = await trx('customer_leads as l')
    .join('customers as c', 'c.id', 'l.customer_id')
    .where('l.reference_hash', digest(reference))
    .andWhere('l.expires_at', '>', now)
    .andWhere('c.is_deleted', false)
    .first('l.id', 'l.customer_id', 'l.locale', 'l.honorific', 'l.name', 'l.email', 'l.phone');
  return row ? camelRow<LiveLead>(row) : undefined;
}

// ---- reservations -------------------------------------------------------------------------------------------

/** Whether a reservation has this reference. */
export async function referenceTaken(trx: Knex.Transaction, reference: string): Promise<boolean> {
  return Boolean(await Reservation.query(trx).where('reference', reference).first().select('id'));
}

/**
 * Staff's edits of a reservation's own fields (the reservations module's create and update: notes, table, a new
 * guest count and its price), in the caller's transaction. Booking writes its table; its staff face asks it here.
 */
export async function patchReservation(trx: Knex.Transaction, id: string, changes: PartialModelObject<Reservation>): Promise<void> {
  await Reservation.query(trx).findById(id).patch(changes);
}

/** The reservation, locked (`for update`); 404 when there is none. */
export async function lockedReservation(trx: Knex.Transaction, id: string): Promise<Reservation> {
  const reservation = await Reservation.query(trx).findById(id).forUpdate();
  if (!reservation) throw NotFound('No such reservation.');
  return reservation;
}

/** HELD reservations whose hold ended by `now` become EXPIRED (one bulk update; called from expireHolds only). Their ids. */
export async function expireHeldUntil(trx: Knex.Transaction, now: Date): Promise<string[]> {
  const expired: Array<{ id: string }> = await trx('reservations')
    .where('status', 'HELD')
    .andWhere('hold_expires_at', '<=', now)
    .update({ status: 'EXPIRED', expired_at: now, updated_at: now })
    .returning(['id']);
  return expired.map((row) => row.id);
}

// ---- a reservation's view -----------------------------------------------------------------------------------

/** What a reservation's view adds to its row: its event, show and offer. */
export interface ReservationJoined {
  eventSlug: string;
  eventStartsAt: Date;
  eventDoorsAt: Date | null;
  eventStatus: ShowEventStatus;
  showSlug: string;
  showCode: string;
  showTitle: Record<string, string>;
  offerCode: string;
  offerName: Record<string, string>;
}

/** A reservation with its event, show and offer (camelCase); its contact is its own snapshot (no customer field). */
export type ReservationDetails = ModelObject<Reservation> & ReservationJoined;

/** A reservation with its event, show and offer (snake_case rows: the reservations module's lists build on it). */
export function reservationQuery(knex: Knex) {
  return knex('reservations as r')
    .join('show_events as e', 'e.id', 'r.show_event_id')
    .join('shows as s', 's.id', 'e.show_id')
    .join('offers as o', 'o.id', 'r.offer_id')
    .select(
      'r.*',
      'e.slug as event_slug',
      'e.starts_at as event_starts_at',
      'e.doors_at as event_doors_at',
      'e.status as event_status',
      's.slug as show_slug',
      's.code as show_code',
      's.title as show_title',
      'o.code as offer_code',
      'o.name as offer_name',
    );
}

export async function reservationDetails(knex: Knex, id: string): Promise<ReservationDetails> {
  return camelRow<ReservationDetails>(await reservationQuery(knex).where('r.id', id).first());
}

const DUMMY_HASH = digest('no reservation');

async function openedByToken(knex: Knex, rawReference: string, token: string | undefined): Promise<Record<string, unknown> | undefined> {
  const reference = normalizeReference(rawReference);
  const row = reference ? ((await reservationQuery(knex).where('r.reference', reference).first()) as Record<string, unknown> | undefined) : undefined;
  const ok = tokenMatches(token, (row?.access_token_hash as Buffer | undefined) ?? DUMMY_HASH);
  return row && ok ? row : undefined;
}

/**
 * The reservation of `reference` when `token` opens it; otherwise undefined — an unknown reference, a wrong
 * token and a missing one are the same answer (the token's digest is compared in constant time either way).
 */
export async function guestReservation(knex: Knex, rawReference: string, token: string | undefined): Promise<ReservationDetails | undefined> {
  const row = await openedByToken(knex, rawReference, token);
  return row ? camelRow<ReservationDetails>(row) : undefined;
}

/**
 * The check-in token behind the guest's ticket QR: only a CONFIRMED or CHECKED_IN reservation has a ticket (409
 * `no_ticket` otherwise), and one confirmed before tokens were kept sealed cannot show it again (409
 * `ticket_unavailable`: its QR is in the confirmation e-mail).
 */
export async function guestTicketToken(knex: Knex, reservation: ReservationDetails): Promise<string> {
  if (reservation.status !== 'CONFIRMED' && reservation.status !== 'CHECKED_IN') {
    throw Conflict('no_ticket', `A ${statusAt(reservation, new Date()).toLowerCase().replace('_', '-')} reservation has no ticket; it has one once it is confirmed.`);
  }
  const token = await openSecret(knex, reservation.checkInTokenSealed);
  if (!token) throw Conflict('ticket_unavailable', 'This ticket cannot be shown again here; its QR code is in the confirmation e-mail.');
  return token;
}

/** A reservation's payments and refunds, as far as its guest may see them (see `presentGuestMoney`). */
export interface GuestMoney {
  payments: Array<{ gateway: string; status: string; amountVnd: number; refundedVnd: number; txnRef: string; createdAt: Date; succeededAt: Date | null }>;
  refunds: Array<{ amountVnd: number; status: string; createdAt: Date; completedAt: Date | null }>;
}

/** A hold just made has neither. */
export const NO_MONEY: GuestMoney = Object.freeze({ payments: [], refunds: [] }) as unknown as GuestMoney;

/** The reservation's payments (oldest first) and their refunds (oldest first). */
export async function guestMoney(knex: Knex, reservationId: string): Promise<GuestMoney> {
  const [payments, refunds] = await Promise.all([
    knex('payments')
      .where('reservation_id', reservationId)
      .orderBy([{ column: 'created_at' }, { column: 'id' }])
      .select('gateway', 'status', 'amount_vnd', 'refunded_vnd', 'txn_ref', 'created_at', 'succeeded_at'),
    knex('refunds as f')
      .join('payments as p', 'p.id', 'f.payment_id')
      .where('p.reservation_id', reservationId)
      .orderBy([{ column: 'f.created_at' }, { column: 'f.id' }])
      .select('f.amount_vnd', 'f.status', 'f.created_at', 'f.completed_at'),
  ]);
  return { payments: payments.map((row) => camelRow(row)), refunds: refunds.map((row) => camelRow(row)) } as GuestMoney;
}

// ---- business events ----------------------------------------------------------------------------------------

export interface ReservationEventRow {
  reference: string;
  totalVnd: number;
  guestCount: number;
  bookingPath: string;
  referralCode: string | null;
  referralDiscountVnd: number;
  referralPartnerType: string | null;
  referralChannel: string | null;
  analyticsDistinctId: string | null;
  showCode: string;
  showSlug: string;
  startsAt: Date;
}

/** What a business event says of one reservation: its row, show, event start and referral partner and link. */
export async function reservationEventRow(knex: Knex, reservationId: string): Promise<ReservationEventRow | undefined> {
  const row = await knex('reservations as r')
    .join('show_events as e', 'e.id', 'r.show_event_id')
    .join('shows as s', 's.id', 'e.show_id')
    .leftJoin('referral_partners as rp', 'rp.id', 'r.referral_partner_id')
    .leftJoin('referral_links as rl', 'rl.id', 'r.referral_link_id')
    .where('r.id', reservationId)
    .first('r.reference', 'r.total_vnd', 'r.guest_count', 'r.booking_path', 'r.referral_code', 'r.referral_discount_vnd', 'rp.type as referral_partner_type', 'rl.channel as referral_channel', 'r.analytics_distinct_id', 's.code as show_code', 's.slug as show_slug', 'e.starts_at');
  return row ? camelRow<ReservationEventRow>(row) : undefined;
}

/**
 * A customer merge's part here (the customers module's mergeCustomers, in its transaction): every reservation of the
 * duplicate moves to the survivor.
 */
export async function moveCustomerReservations(trx: Knex.Transaction, fromCustomerId: string, toCustomerId: string): Promise<void> {
  await trx('reservations').where({ customer_id: fromCustomerId }).update({ customer_id: toCustomerId });
}
