import type { Knex } from 'knex';
import type { ShowEventStatus } from '../showEvents/index.ts';
import type { BookingPath } from '../offers/index.ts';
import { seatsTakenSql } from '../../domain/availability.ts';
import type { AppContext } from '../../platform/context.ts';
import { addressKey, consumeOrThrow, RateLimit, rateLimitStoreFor } from '../../platform/http/rateLimit.ts';
import { Conflict, NotFound, Unprocessable } from '../../platform/http/problem.ts';
import { priceBooking, type PriceAdjustment } from './adjustments.ts';
import { publish } from '../../domain/events.ts';
import { inUnitOfWork } from '../../platform/unitOfWork.ts';
import { digest, newAccessToken, newLeadReference, newReservationReference, normalizeReference, openSecret, sealSecret, tokenMatches } from './tokens.ts';

/**
 * The guest's side of booking, first part (issue 9): lead capture, the hold, reading and cancelling one's own
 * reservation with its access token, and the expiry of holds. Every write owns its transaction here.
 */

export const RESERVATION_STATUSES = ['HELD', 'CONFIRMED', 'CHECKED_IN', 'CANCELLED', 'EXPIRED', 'NO_SHOW'] as const;
export type ReservationStatus = (typeof RESERVATION_STATUSES)[number];

/** A lead reference is good for this long after its capture. */
export const LEAD_TTL_HOURS = 24;

// ---- rate limits (per client address; one set per running app) -------------------------------------------

export interface BookingLimits {
  leads: RateLimit;
  holds: RateLimit;
}

const limitsByApp = new WeakMap<AppContext, BookingLimits>();

/** Lead captures: 20 per address per 10 minutes. Holds: 30 per address per 10 minutes. */
export function bookingLimits(app: AppContext): BookingLimits {
  let limits = limitsByApp.get(app);
  if (!limits) {
    const store = rateLimitStoreFor(app.db);
    limits = {
      leads: new RateLimit({ name: 'booking-lead-address', points: 20, windowSeconds: 600 }, store),
      holds: new RateLimit({ name: 'booking-hold-address', points: 30, windowSeconds: 600 }, store),
    };
    limitsByApp.set(app, limits);
  }
  return limits;
}

export async function throttle(limit: RateLimit, ip: string): Promise<void> {
  await consumeOrThrow([[limit, addressKey(ip)]], 'Too many booking requests from this address; try again later.');
}

// ---- customers ------------------------------------------------------------------------------------------------

export interface Contact {
  honorific?: string;
  name: string;
  email: string;
  phone?: string;
  locale?: string;
}

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

/** The contact a booking, lead or join was made with, as the guest's answers show it (its own snapshot). */
export interface CustomerContact {
  id: string;
  honorific: string | null;
  name: string;
  email: string;
  phone: string | null;
}

/**
 * Who supplies a contact: a guest (anonymous: the public routes) never changes an existing customer — what it
 * typed is kept on its own row (the reservation's, the lead's, the entry's snapshot) as that customer's contact
 * history; staff (a phone booking, the CRM) edit the record.
 */
export type ContactSource = 'guest' | 'staff';

/**
 * The live CRM customer of the contact's normalized e-mail. None yet: one is created with the contact. One
 * already: a guest's contact leaves it exactly as it is (issue 21 §1: a stranger who knows an address must
 * neither read nor overwrite what is stored under it); staff's contact updates it (the latest wins; an omitted
 * honorific, phone or locale keeps the stored one). A soft-deleted customer is never touched: the partial unique
 * index covers live rows only, so the insert makes a new live customer.
 */
export async function upsertCustomer(trx: Knex.Transaction, contact: Contact, source: ContactSource = 'guest'): Promise<string> {
  const email = contact.email.trim();
  const values = [contact.honorific ?? null, contact.name.trim(), email, normalizeEmail(email), contact.phone ?? null, contact.locale ?? null];
  const onConflict =
    source === 'staff'
      ? `do update set
           name = excluded.name,
           email = excluded.email,
           honorific = coalesce(excluded.honorific, customers.honorific),
           phone = coalesce(excluded.phone, customers.phone),
           locale = coalesce(excluded.locale, customers.locale),
           updated_at = now()`
      : 'do nothing';
  const { rows } = (await trx.raw(
    `insert into customers (honorific, name, email, email_normalized, phone, locale)
     values (?, ?, ?, ?, ?, ?)
     on conflict (email_normalized) where not is_deleted ${onConflict}
     returning id`,
    values,
  )) as { rows: Array<{ id: string }> };
  const customerId = rows[0]?.id ?? (await trx('customers').where({ email_normalized: normalizeEmail(email), is_deleted: false }).first('id')).id;
  await trx.raw(
    `insert into customer_emails (customer_id, email, email_normalized) values (?, ?, ?)
     on conflict (customer_id, email_normalized) do update set last_seen_at = now()${source === 'staff' ? ', email = excluded.email' : ''}`,
    [customerId, email, normalizeEmail(email)],
  );
  return customerId;
}

/** The snapshot of `contact` a row keeps (trimmed as stored), with the customer it belongs to. */
export async function bookContact(trx: Knex.Transaction, contact: Contact, source: ContactSource): Promise<CustomerContact> {
  const id = await upsertCustomer(trx, contact, source);
  return { id, honorific: contact.honorific ?? null, name: contact.name.trim(), email: contact.email.trim(), phone: contact.phone ?? null };
}

// ---- leads ----------------------------------------------------------------------------------------------------

export interface AnalyticsIds {
  sessionId?: string;
  distinctId?: string;
  localSessionId?: string;
}

export interface LeadInput extends Contact {
  eventSlug?: string;
  bookingPath?: string;
  guestCount?: number;
  experienceType?: string;
  analytics?: AnalyticsIds;
}

/**
 * Records the lead with the contact it was made with, under the customer of its e-mail (created when there is
 * none; an existing one is left as it is); the same answer whether the e-mail was known or not. An `eventSlug`
 * must name a show event (422 `unknown_event` otherwise: a lead for nothing is a front end's bug to surface).
 */
export async function captureLead(knex: Knex, input: LeadInput, now = new Date()): Promise<{ leadReference: string; expiresAt: Date }> {
  const leadReference = newLeadReference();
  const expiresAt = new Date(now.getTime() + LEAD_TTL_HOURS * 3_600_000);
  await knex.transaction(async (trx) => {
    const event = input.eventSlug ? await trx('show_events').where({ slug: input.eventSlug }).first('id') : undefined;
    if (input.eventSlug && !event) {
      throw Unprocessable('unknown_event', 'No show event has this slug.', [{ path: 'body/eventSlug', message: 'is not a show event', code: 'unknown_event' }]);
    }
    const contact = await bookContact(trx, input, 'guest');
    await trx('customer_leads').insert({
      customer_id: contact.id,
      honorific: contact.honorific,
      name: contact.name,
      email: contact.email,
      phone: contact.phone,
      locale: input.locale ?? null,
      reference_hash: digest(leadReference),
      show_event_id: event?.id ?? null,
      booking_path: input.bookingPath ?? null,
      guest_count: input.guestCount ?? null,
      experience_type: input.experienceType ?? null,
      analytics_session_id: input.analytics?.sessionId ?? null,
      analytics_distinct_id: input.analytics?.distinctId ?? null,
      analytics_local_session_id: input.analytics?.localSessionId ?? null,
      expires_at: expiresAt,
    });
  });
  return { leadReference, expiresAt };
}

// ---- the hold -------------------------------------------------------------------------------------------------

export interface HoldInput {
  eventSlug: string;
  offerCode: string;
  guestCount: number;
  leadReference?: string;
  contact?: Contact;
  customerNote?: string;
  locale?: string;
  analytics?: AnalyticsIds;
  promoCode?: string;
  voucherCode?: string;
  /** The waiting list's offer link token (server/modules/waitlist): books the seats its offer holds. */
  waitlistToken?: string;
  referral?: { code?: string; linkSlug?: string; partnerSlug?: string; attributionToken?: string };
}

interface LockedEvent {
  id: string;
  show_id: string;
  slug: string;
  starts_at: Date;
  capacity: number;
  sales_open: boolean;
  status: ShowEventStatus;
  show_status: string;
  doors_at: Date | null;
  show_slug: string;
  show_code: string;
  show_title: Record<string, string>;
}

/**
 * Takes seats: in one transaction, the event row locked (`select … for update`, so concurrent holds on one event
 * queue here), its bookability and the offer checked, the seats taken counted with the catalog's expression,
 * and the HELD reservation written with its price. Returns the reservation's id and the access token (once).
 */
export async function createHold(
  extensions: BookingExtensions,
  trx: Knex.Transaction,
  input: HoldInput,
  now: Date,
  contactSource: ContactSource = 'guest',
): Promise<{ reservationId: string; accessToken: string; cancellationWindowHours: number; view: ReservationView }> {
  const { rows: events } = (await trx.raw(
    `select e.id, e.show_id, e.slug, e.starts_at, e.doors_at, e.capacity, e.sales_open, e.status, s.status as show_status,
            s.slug as show_slug, s.code as show_code, s.title as show_title
       from show_events e join shows s on s.id = e.show_id
      where e.slug = ?
      for update of e`,
    [input.eventSlug],
  )) as { rows: LockedEvent[] };
  const event = events[0];
  if (!event || event.show_status !== 'PUBLISHED') throw NotFound('No such show event.');

  const setup = await trx('commercial_setup').where({ id: 1 }).first();
  const startsAt = new Date(event.starts_at);
  if (event.status !== 'SCHEDULED') throw Conflict('event_not_bookable', `The event is ${event.status.toLowerCase()}.`);
  if (!event.sales_open) throw Conflict('sales_closed', 'Sales for this event are closed.');
  if (now.getTime() >= startsAt.getTime() - Number(setup.booking_cutoff_minutes) * 60_000) {
    throw Conflict('booking_closed', 'Booking for this event has closed (the booking cut-off has passed).');
  }

  const offer = await trx('offers').where({ code: input.offerCode }).first();
  if (!offer || offer.status !== 'ACTIVE' || (offer.show_id !== null && offer.show_id !== event.show_id)) {
    throw Unprocessable('offer_unavailable', 'No such offer on sale for this event.', [{ path: 'body/offerCode', message: 'is not on sale for this event', code: 'offer_unavailable' }]);
  }
  const salesStart = offer.sales_starts_at ? new Date(offer.sales_starts_at) : null;
  const salesEnd = offer.sales_ends_at ? new Date(offer.sales_ends_at) : null;
  if ((salesStart && now < salesStart) || (salesEnd && now >= salesEnd)) {
    throw Conflict('offer_sales_closed', 'This offer is not on sale now.');
  }
  if (input.guestCount < offer.min_guests || input.guestCount > offer.max_guests) {
    throw Unprocessable('guest_count_out_of_range', `This offer takes ${offer.min_guests} to ${offer.max_guests} guests.`, [
      { path: 'body/guestCount', message: `must be between ${offer.min_guests} and ${offer.max_guests}`, code: 'guest_count_out_of_range' },
    ]);
  }

  const { customer, leadId, locale } = await bookingCustomer(trx, input, now, contactSource);
  const customerId = customer.id;
  const claims: SeatClaim[] = [];
  for (const claimer of extensions.seatClaims) {
    const claim = await claimer.claim(trx, input, event, now);
    if (claim) claims.push(claim);
  }
  // Seats held for this booking elsewhere (a waiting-list offer) are counted as taken; they are this booking's.
  const seatsTaken = (await seatsTakenOf(trx, event.id, now)) - claims.reduce((sum, claim) => sum + claim.seats, 0);
  const left = event.capacity - seatsTaken;
  if (left <= 0) throw Conflict('sold_out', 'The event is sold out.');
  if (left < input.guestCount) throw Conflict('not_enough_seats', `Only ${left} seats are left.`);

  const { price, columns, adjustments } = await priceBooking(
    { trx, input, event, offer, guestCount: input.guestCount, subtotalVnd: offer.price_per_guest_vnd * input.guestCount, now },
    { serviceChargePercent: Number(setup.service_charge_percent), vatPercent: Number(setup.vat_percent) },
    extensions.priceAdjustments,
  );
  const accessToken = newAccessToken();
  const reference = await freeReference(trx);
  const [row] = await trx('reservations')
    .insert({
      reference,
      show_event_id: event.id,
      offer_id: offer.id,
      customer_id: customerId,
      contact_honorific: customer.honorific,
      contact_name: customer.name,
      contact_email: customer.email,
      contact_phone: customer.phone,
      lead_id: leadId,
      guest_count: input.guestCount,
      status: 'HELD',
      hold_expires_at: new Date(now.getTime() + Number(setup.hold_minutes) * 60_000),
      price_per_guest_vnd: price.pricePerGuestVnd,
      subtotal_vnd: price.subtotalVnd,
      discount_vnd: price.discountVnd,
      service_charge_vnd: price.serviceChargeVnd,
      vat_vnd: price.vatVnd,
      total_vnd: price.totalVnd,
      service_charge_percent: Number(setup.service_charge_percent),
      vat_percent: Number(setup.vat_percent),
      booking_path: offer.booking_path,
      experience_type: offer.experience_type,
      locale,
      access_token_hash: digest(accessToken),
      access_token_sealed: await sealSecret(trx, accessToken),
      customer_note: input.customerNote ?? null,
      analytics_session_id: input.analytics?.sessionId ?? null,
      analytics_distinct_id: input.analytics?.distinctId ?? null,
      analytics_local_session_id: input.analytics?.localSessionId ?? null,
      promo_code: input.promoCode ?? null,
      voucher_code: input.voucherCode ?? null,
      referral_code: input.referral?.code ?? null,
      referral_link_slug: input.referral?.linkSlug ?? null,
      referral_partner_slug: input.referral?.partnerSlug ?? null,
      ...columns,
      created_at: now,
      updated_at: now,
    })
    .returning('*');
  for (const adjustment of adjustments) await adjustment.afterInsert?.(row.id);
  for (const claim of claims) await claim.afterInsert(row.id);
  // The guest's view of what was just written, from the rows this transaction already holds (no read-back;
  // the after-insert steps above write other tables, never this row).
  const view: ReservationView = {
    ...row,
    event_slug: event.slug,
    event_starts_at: event.starts_at,
    event_doors_at: event.doors_at,
    event_status: event.status,
    show_slug: event.show_slug,
    show_code: event.show_code,
    show_title: event.show_title,
    offer_code: offer.code,
    offer_name: offer.name,
  };
  return { reservationId: row.id, accessToken, cancellationWindowHours: Number(setup.cancellation_window_hours), view };
}

/** Seats a booking brings with it (held for it by another module), and what that module does once it exists. */
export interface SeatClaim {
  seats: number;
  afterInsert(reservationId: string): Promise<void>;
}

export type SeatClaimer = (trx: Knex.Transaction, input: HoldInput, event: { id: string }, now: Date) => Promise<SeatClaim | null>;

/** A module's claim on a booking's seats, as its record declares it; it runs in the hold's transaction with the event locked. */
export interface SeatClaimProvider {
  name: string;
  claim: SeatClaimer;
}

/**
 * What other modules bring to a hold, declared in their records (`priceAdjustments`, `seatClaims`) and gathered
 * at boot (server/modules/index.ts): the booking module calls them, it never imports them.
 */
export interface BookingExtensions {
  priceAdjustments: readonly PriceAdjustment[];
  seatClaims: readonly SeatClaimProvider[];
}

declare module '../../platform/context.ts' {
  interface AppContext {
    /** What other modules bring to a hold (price adjustments, seat claims), declared in their records. */
    bookingExtensions: BookingExtensions;
  }
}

/** Guests holding seats of one event at `now` (the catalog's expression, so both agree). */
export async function seatsTakenOf(knex: Knex, eventId: string, now: Date): Promise<number> {
  const row = await knex('show_events as e').where('e.id', eventId).first(knex.raw('? as seats_taken', [seatsTakenSql(knex, 'e.id', now)]));
  return Number(row?.seats_taken ?? 0);
}

/**
 * The contact the booking is made with and its customer: the contact sent (its customer found or created by
 * e-mail, see `upsertCustomer`), else the live, unexpired lead's own snapshot — never the customer record's
 * fields, which only staff see.
 */
async function bookingCustomer(trx: Knex.Transaction, input: HoldInput, now: Date, source: ContactSource): Promise<{ customer: CustomerContact; leadId: string | null; locale: string | null }> {
  if (input.contact) {
    const customer = await bookContact(trx, input.contact, source);
    const lead = input.leadReference ? await liveLead(trx, input.leadReference, now) : undefined;
    return { customer, leadId: lead?.id ?? null, locale: input.locale ?? input.contact.locale ?? null };
  }
  if (!input.leadReference) {
    throw Unprocessable('contact_required', 'Send a lead reference or the contact.', [{ path: 'body/contact', message: 'is required without leadReference', code: 'required' }]);
  }
  const lead = await liveLead(trx, input.leadReference, now);
  if (!lead) {
    throw Unprocessable('unknown_lead', 'The lead reference is unknown or has expired; send the contact.', [
      { path: 'body/leadReference', message: 'is unknown or expired', code: 'unknown_lead' },
    ]);
  }
  const customer = { id: lead.customer_id, honorific: lead.honorific, name: lead.name, email: lead.email, phone: lead.phone };
  return { customer, leadId: lead.id, locale: input.locale ?? lead.locale ?? null };
}

async function liveLead(trx: Knex.Transaction, reference: string, now: Date) {
  return trx('customer_leads as l')
    .join('customers as c', 'c.id', 'l.customer_id')
    .where('l.reference_hash', digest(reference))
    .andWhere('l.expires_at', '>', now)
    .andWhere('c.is_deleted', false)
    .first('l.id', 'l.customer_id', 'l.locale', 'l.honorific', 'l.name', 'l.email', 'l.phone');
}

async function freeReference(trx: Knex.Transaction): Promise<string> {
  for (;;) {
    const reference = newReservationReference();
    if (!(await trx('reservations').where({ reference }).first('id'))) return reference;
  }
}

// ---- reading and cancelling with the token ----------------------------------------------------------------

export interface ReservationView {
  id: string;
  reference: string;
  status: ReservationStatus;
  hold_expires_at: Date | null;
  guest_count: number;
  locale: string | null;
  customer_note: string | null;
  price_per_guest_vnd: number;
  subtotal_vnd: number;
  discount_vnd: number;
  service_charge_vnd: number;
  vat_vnd: number;
  voucher_credit_vnd: number;
  total_vnd: number;
  service_charge_percent: string | number;
  vat_percent: string | number;
  booking_path: BookingPath;
  promo_code: string | null;
  voucher_code: string | null;
  referral_code: string | null;
  access_token_hash: Buffer;
  cancelled_at: Date | null;
  created_at: Date;
  event_slug: string;
  event_starts_at: Date;
  event_doors_at: Date | null;
  event_status: ShowEventStatus;
  show_slug: string;
  show_code: string;
  show_title: Record<string, string>;
  offer_code: string;
  offer_name: Record<string, string>;
  /** The contact the reservation was booked with (its own snapshot: what its guest sees). */
  contact_honorific: string | null;
  contact_name: string;
  contact_email: string;
  contact_phone: string | null;
}

/** A reservation with its event, show and offer; its contact is its own snapshot (no customer field). */
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

export async function reservationById(knex: Knex, id: string): Promise<ReservationView> {
  return (await reservationQuery(knex).where('r.id', id).first()) as ReservationView;
}

/**
 * The reservation of `reference` when `token` opens it; otherwise undefined — an unknown reference, a wrong
 * token and a missing one are the same answer (the token's digest is compared in constant time either way).
 */
export async function reservationForGuest(knex: Knex, rawReference: string, token: string | undefined): Promise<ReservationView | undefined> {
  const reference = normalizeReference(rawReference);
  const row = reference ? ((await reservationQuery(knex).where('r.reference', reference).first()) as ReservationView | undefined) : undefined;
  const ok = tokenMatches(token, row?.access_token_hash ?? DUMMY_HASH);
  return row && ok ? row : undefined;
}

const DUMMY_HASH = digest('no reservation');

/**
 * The check-in token behind the guest's ticket QR: only a CONFIRMED or CHECKED_IN reservation has a ticket (409
 * `no_ticket` otherwise), and one confirmed before tokens were kept sealed cannot show it again (409
 * `ticket_unavailable`: its QR is in the confirmation e-mail).
 */
export async function guestTicketToken(knex: Knex, row: ReservationView & { check_in_token_sealed?: string | null }): Promise<string> {
  if (row.status !== 'CONFIRMED' && row.status !== 'CHECKED_IN') {
    throw Conflict('no_ticket', `A ${effectiveStatus(row, new Date()).toLowerCase().replace('_', '-')} reservation has no ticket; it has one once it is confirmed.`);
  }
  const token = await openSecret(knex, row.check_in_token_sealed);
  if (!token) throw Conflict('ticket_unavailable', 'This ticket cannot be shown again here; its QR code is in the confirmation e-mail.');
  return token;
}

/** A reservation's payments and refunds, as far as its guest may see them (see `presentGuestMoney`). */
export interface GuestMoney {
  payments: Array<{ gateway: string; status: string; amount_vnd: number; refunded_vnd: number; created_at: Date; succeeded_at: Date | null }>;
  refunds: Array<{ amount_vnd: number; status: string; created_at: Date; completed_at: Date | null }>;
}

/** A hold just made has neither. */
export const NO_MONEY: GuestMoney = Object.freeze({ payments: [], refunds: [] }) as GuestMoney;

/** The reservation's payments (oldest first) and their refunds (oldest first). */
export async function guestMoney(knex: Knex, reservationId: string): Promise<GuestMoney> {
  const [payments, refunds] = await Promise.all([
    knex('payments')
      .where('reservation_id', reservationId)
      .orderBy([{ column: 'created_at' }, { column: 'id' }])
      .select('gateway', 'status', 'amount_vnd', 'refunded_vnd', 'created_at', 'succeeded_at'),
    knex('refunds as f')
      .join('payments as p', 'p.id', 'f.payment_id')
      .where('p.reservation_id', reservationId)
      .orderBy([{ column: 'f.created_at' }, { column: 'f.id' }])
      .select('f.amount_vnd', 'f.status', 'f.created_at', 'f.completed_at'),
  ]);
  return { payments, refunds } as GuestMoney;
}

/** The status a guest sees: a HELD reservation past its hold is EXPIRED, whether or not the job has run yet. */
export function effectiveStatus(row: Pick<ReservationView, 'status' | 'hold_expires_at'>, now: Date): ReservationStatus {
  if (row.status === 'HELD' && row.hold_expires_at && new Date(row.hold_expires_at) <= now) return 'EXPIRED';
  return row.status;
}

/** Until when the guest may cancel: the event's start − the setup's cancellation window. */
export const cancellableUntil = (startsAt: Date, windowHours: number) => new Date(new Date(startsAt).getTime() - windowHours * 3_600_000);

// ---- hold expiry ------------------------------------------------------------------------------------------

/**
 * Marks HELD reservations whose hold ended by `now` EXPIRED and publishes `holds.expired` in the same transaction
 * (a bulk update runs no per-row transition): the subscribers give back promo redemptions and voucher credit,
 * tell the waiting list, queue the guests' e-mails. The count. Idempotent.
 */
export async function expireHolds(app: AppContext, now = new Date()): Promise<number> {
  return inUnitOfWork(
    { knex: app.db.knex, logger: app.logger },
    async ({ trx, afterCommit }) => {
      const expired: Array<{ id: string }> = await trx('reservations')
        .where('status', 'HELD')
        .andWhere('hold_expires_at', '<=', now)
        .update({ status: 'EXPIRED', expired_at: now, updated_at: now })
        .returning(['id']);
      const ids = expired.map((row) => row.id);
      if (ids.length) await publish({ trx, app, actor: 'SYSTEM', now, afterCommit }, 'holds.expired', { reservationIds: ids });
      return ids.length;
    },
    now,
  );
}
