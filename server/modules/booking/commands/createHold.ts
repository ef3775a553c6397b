import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { Conflict, NotFound, Problem, Unprocessable } from '../../../platform/http/problem.ts';
import type { ShowEventStatus } from '../../showEvents/index.ts';
import { priceBooking } from '../adjustments.ts';
import type { BookingExtensions, SeatClaim } from '../extensions.ts';
import type { ContactSource, CustomerContact, HoldInput } from '../inputs.ts';
import { holdSetup, insertHoldCounted, liveLead, lockEventBySlug, referenceTaken, seatsTakenOf, type BookingRules, type HoldOutlookRow, type OfferRow, type ReservationDetails } from '../queries.ts';
import { digest, newAccessToken, sealSecret } from '../../../platform/auth/tokens.ts';
import { newReservationReference } from '../tokens.ts';
import { bookContact } from './upsertCustomer.ts';

/** The hold createHold is about to write, known before the event's lock: its id and when it runs out. */
export interface PlannedHold {
  reservationId: string;
  holdExpiresAt: Date;
}

/**
 * Takes seats: in the caller's transaction, the event row locked (`select … for update`, so concurrent holds on
 * one event queue here), its bookability and the offer checked, the HELD reservation written with its price and
 * the seats the event's other bookings take counted in the same statement (the catalog's expression), and a hold
 * that does not fit refused. Returns the reservation's id and the access token (once). Shared by the guest's hold
 * (createPublicReservation) and staff's phone booking (reservations). A refusal is thrown and the caller's
 * transaction must roll back with it (both callers' do): the rows written before it go with it.
 *
 * The lock is held from that `for update` to the commit, so what needs no lock comes before it (issue 25 §8), in
 * as few statements as it takes: the setup, the offer and a new reference (one read), the contact's customer upserted
 * with its e-mail history (one statement; it locks no event; every hold, the guest's and staff's, takes its
 * customer row before its event's, one lock order), the access token sealed, and the caller's `beforeLock` step
 * (the guest's hold enqueues its expiry job there). Under the lock: the seat claims and the price adjustments
 * (none of them for a plain hold; a promo code or a voucher is locked after the event, their lock order), then the
 * one statement that writes and counts. Under a rush each statement inside the lock is paid by every hold queued
 * behind it.
 * Their refusals are still answered in the order below (404, the event, the offer, the guests, the contact, the
 * seats, the price), whatever was read first.
 */
export async function createHold(
  extensions: BookingExtensions,
  trx: Knex.Transaction,
  input: HoldInput,
  now: Date,
  contactSource: ContactSource = 'guest',
  beforeLock?: (planned: PlannedHold) => Promise<void>,
): Promise<{ reservationId: string; accessToken: string; cancellationWindowHours: number; view: ReservationDetails }> {
  const { rules, offer: offerRow, referenceTaken: taken, reference: firstReference } = await holdSetupWithReference(trx, input.offerCode);
  const booking = await bookingCustomer(trx, input, now, contactSource).then(
    (found) => () => found,
    (err: unknown) => {
      // A refusal of the contact is answered after the event's and the offer's (their order, below).
      if (!(err instanceof Problem)) throw err;
      return (): never => {
        throw err;
      };
    },
  );
  const accessToken = newAccessToken();
  const accessTokenSealed = await sealSecret(trx, accessToken);
  const reference = taken ? await freeReference(trx) : firstReference;
  const planned: PlannedHold = { reservationId: randomUUID(), holdExpiresAt: new Date(now.getTime() + rules.holdMinutes * 60_000) };
  await beforeLock?.(planned);

  // From here to the commit the event's row is locked: keep it short.
  const { event, offer } = assertBookable(await lockEventBySlug(trx, input.eventSlug), rules, offerRow, input, now);
  const { customer, leadId, locale } = booking();
  const claims: SeatClaim[] = [];
  for (const claimer of extensions.seatClaims) {
    const claim = await claimer.claim(trx, input, event, now);
    if (claim) claims.push(claim);
  }
  // Seats held for this booking elsewhere (a waiting-list offer) are counted as taken; they are this booking's.
  const claimed = claims.reduce((sum, claim) => sum + claim.seats, 0);
  const { price, columns, adjustments } = await priceHold(trx, input, event, offer, rules, extensions, now).catch(async (refusal: unknown) => {
    // The seats are counted with the insert below; a refusal of the price is answered after theirs, so they are
    // counted here first.
    if (refusal instanceof Problem) assertSeatsLeft(event.capacity - ((await seatsTakenOf(trx, event.id, now)) - claimed), input.guestCount);
    throw refusal;
  });
  const { reservation, seatsTaken } = await insertHoldCounted(
    trx,
    {
      id: planned.reservationId,
      reference,
      showEventId: event.id,
      offerId: offer.id,
      customerId: customer.id,
      contactHonorific: customer.honorific,
      contactName: customer.name,
      contactEmail: customer.email,
      contactPhone: customer.phone,
      leadId,
      guestCount: input.guestCount,
      status: 'HELD',
      holdExpiresAt: planned.holdExpiresAt,
      pricePerGuestVnd: price.pricePerGuestVnd,
      subtotalVnd: price.subtotalVnd,
      discountVnd: price.discountVnd,
      serviceChargeVnd: price.serviceChargeVnd,
      vatVnd: price.vatVnd,
      totalVnd: price.totalVnd,
      serviceChargePercent: rules.serviceChargePercent as unknown as string,
      vatPercent: rules.vatPercent as unknown as string,
      bookingPath: offer.bookingPath,
      experienceType: offer.experienceType,
      locale,
      accessTokenHash: digest(accessToken),
      accessTokenSealed,
      customerNote: input.customerNote ?? null,
      analyticsSessionId: input.analytics?.sessionId ?? null,
      analyticsDistinctId: input.analytics?.distinctId ?? null,
      analyticsLocalSessionId: input.analytics?.localSessionId ?? null,
      promoCode: input.promoCode ?? null,
      voucherCode: input.voucherCode ?? null,
      referralCode: input.referral?.code ?? null,
      referralLinkSlug: input.referral?.linkSlug ?? null,
      referralPartnerSlug: input.referral?.partnerSlug ?? null,
      // What the adjustments set (their amounts by kind, codes, referral ids), named as columns.
      ...columns,
      createdAt: now,
      updatedAt: now,
    },
    now,
  );
  // Refused: the transaction rolls back, the row just written with it.
  assertSeatsLeft(event.capacity - (seatsTaken - claimed), input.guestCount);
  for (const adjustment of adjustments) await adjustment.afterInsert?.(reservation.id);
  for (const claim of claims) await claim.afterInsert(reservation.id);
  // The guest's view of what was just written, from the rows this transaction already holds (no read-back;
  // the after-insert steps above write other tables, never this row).
  const view: ReservationDetails = {
    ...reservation,
    eventSlug: event.slug,
    eventStartsAt: event.startsAt,
    eventDoorsAt: event.doorsAt,
    eventStatus: event.status,
    showSlug: event.showSlug,
    showCode: event.showCode,
    showTitle: event.showTitle,
    offerCode: offer.code,
    offerName: offer.name,
  };
  return { reservationId: reservation.id, accessToken, cancellationWindowHours: rules.cancellationWindowHours, view };
}

/**
 * A hold's price: offer × guests, every module's price adjustment (in their order), the setup's service charge and
 * VAT (`priceBooking`). The hold's, and the quote's before it (../quote.ts), so the two never differ.
 */
export function priceHold(
  trx: Knex.Transaction,
  input: Pick<HoldInput, 'guestCount'> & Partial<HoldInput>,
  event: { id: string; showId: string; startsAt: Date },
  offer: Pick<OfferRow, 'id' | 'code' | 'showId' | 'pricePerGuestVnd'>,
  rules: Pick<BookingRules, 'serviceChargePercent' | 'vatPercent'>,
  extensions: Pick<BookingExtensions, 'priceAdjustments'>,
  now: Date,
) {
  return priceBooking(
    {
      trx,
      input: input as HoldInput,
      event: { id: event.id, showId: event.showId, startsAt: event.startsAt },
      offer: { id: offer.id, code: offer.code, showId: offer.showId, pricePerGuestVnd: offer.pricePerGuestVnd },
      guestCount: input.guestCount,
      subtotalVnd: offer.pricePerGuestVnd * input.guestCount,
      now,
    },
    { serviceChargePercent: rules.serviceChargePercent, vatPercent: rules.vatPercent },
    extensions.priceAdjustments,
  );
}

/** The rows a hold is judged on before its seats: the event (and its show), the setup's cut-off, the offer. */
export interface BookableEvent {
  showId: string;
  showStatus: string;
  status: ShowEventStatus;
  salesOpen: boolean;
  startsAt: Date;
}
export type BookableOffer = Pick<OfferRow, 'showId' | 'status' | 'salesStartsAt' | 'salesEndsAt' | 'minGuests' | 'maxGuests'>;

/**
 * Everything a hold is refused for before its contact and its seats, in the order it is answered: no such
 * (published) event 404, the event not bookable, sales closed, the cut-off passed, the offer not on sale for
 * it, the guests out of the offer's range. The locked check and the check before the lock (`outlookBeforeLock`)
 * both run it, so they refuse alike.
 */
export function assertBookable<E extends BookableEvent, O extends BookableOffer>(
  event: E | undefined,
  rules: Pick<BookingRules, 'bookingCutoffMinutes'>,
  offer: O | undefined,
  input: Pick<HoldInput, 'guestCount'>,
  now: Date,
): { event: E; offer: O } {
  if (!event || event.showStatus !== 'PUBLISHED') throw NotFound('No such show event.');
  const startsAt = new Date(event.startsAt);
  if (event.status !== 'SCHEDULED') throw Conflict('event_not_bookable', `The event is ${event.status.toLowerCase()}.`);
  if (!event.salesOpen) throw Conflict('sales_closed', 'Sales for this event are closed.');
  if (now.getTime() >= startsAt.getTime() - rules.bookingCutoffMinutes * 60_000) {
    throw Conflict('booking_closed', 'Booking for this event has closed (the booking cut-off has passed).');
  }
  if (!offer || offer.status !== 'ACTIVE' || (offer.showId !== null && offer.showId !== event.showId)) {
    throw Unprocessable('offer_unavailable', 'No such offer on sale for this event.', [{ path: 'body/offerCode', message: 'is not on sale for this event', code: 'offer_unavailable' }]);
  }
  const salesStart = offer.salesStartsAt ? new Date(offer.salesStartsAt) : null;
  const salesEnd = offer.salesEndsAt ? new Date(offer.salesEndsAt) : null;
  if ((salesStart && now < salesStart) || (salesEnd && now >= salesEnd)) {
    throw Conflict('offer_sales_closed', 'This offer is not on sale now.');
  }
  if (input.guestCount < offer.minGuests || input.guestCount > offer.maxGuests) {
    throw Unprocessable('guest_count_out_of_range', `This offer takes ${offer.minGuests} to ${offer.maxGuests} guests.`, [
      { path: 'body/guestCount', message: `must be between ${offer.minGuests} and ${offer.maxGuests}`, code: 'guest_count_out_of_range' },
    ]);
  }
  return { event, offer };
}

/** The seats refusal: none left 409 `sold_out`, fewer than the guests 409 `not_enough_seats` (the locked check's and the one before it). */
export function assertSeatsLeft(left: number, guestCount: number): void {
  if (left <= 0) throw Conflict('sold_out', 'The event is sold out.');
  if (left < guestCount) throw Conflict('not_enough_seats', `Only ${left} seats are left.`);
}

/**
 * The hold judged before the lock (issue 25 §8), on an unlocked snapshot of its event (`holdOutlookRow`): the
 * seats the snapshot leaves when the hold fits them; the refusal the locked check would answer when it certainly
 * does not (thrown: `assertSeatsLeft`'s, the same status, code and text); `bypass` when the locked check must
 * judge it — anything it would refuse for before the seats (no such event, sales closed, the offer, the guests,
 * the contact or lead), or seats another module holds for it (a waiting-list offer: `SeatClaimProvider.applies`).
 * The snapshot counts committed bookings only, so a refusal here is one the lock would give at that moment.
 */
export async function outlookBeforeLock(
  knex: Knex,
  extensions: BookingExtensions,
  input: HoldInput,
  row: HoldOutlookRow | undefined,
  now: Date,
): Promise<{ bypass: true } | { left: number }> {
  const bypass = { bypass: true } as const;
  if (!row || mayClaimSeats(extensions, input)) return bypass;
  try {
    assertBookable(
      row,
      { bookingCutoffMinutes: Number(row.bookingCutoffMinutes) },
      row.offerId === null
        ? undefined
        : { showId: row.offerShowId, status: row.offerStatus!, salesStartsAt: row.offerSalesStartsAt, salesEndsAt: row.offerSalesEndsAt, minGuests: row.offerMinGuests!, maxGuests: row.offerMaxGuests! },
      input,
      now,
    );
  } catch {
    return bypass;
  }
  if (!input.contact && !input.leadReference) return bypass;
  const left = row.capacity - Number(row.seatsTaken);
  if (left >= input.guestCount) return { left };
  // Refused for its seats, unless the locked check would refuse its lead first.
  if (!input.contact && !(await liveLead(knex, input.leadReference!, now))) return bypass;
  assertSeatsLeft(left, input.guestCount);
  return { left };
}

/** Whether another module may bring seats to this hold (then only the locked count judges it). */
export const mayClaimSeats = (extensions: BookingExtensions, input: HoldInput) => extensions.seatClaims.some((provider) => !provider.applies || provider.applies(input));

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
  const customer = { id: lead.customerId, honorific: lead.honorific, name: lead.name, email: lead.email, phone: lead.phone };
  return { customer, leadId: lead.id, locale: input.locale ?? lead.locale ?? null };
}

/** The setup, the offer, and a new reference with whether it is taken, in one statement (`holdSetup`). */
async function holdSetupWithReference(trx: Knex.Transaction, offerCode: string) {
  const reference = newReservationReference();
  return { ...(await holdSetup(trx, offerCode, reference)), reference };
}

async function freeReference(trx: Knex.Transaction): Promise<string> {
  for (;;) {
    const reference = newReservationReference();
    if (!(await referenceTaken(trx, reference))) return reference;
  }
}
