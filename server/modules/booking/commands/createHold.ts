import type { Knex } from 'knex';
import { Conflict, NotFound, Unprocessable } from '../../../platform/http/problem.ts';
import { priceBooking } from '../adjustments.ts';
import type { BookingExtensions, SeatClaim } from '../extensions.ts';
import type { ContactSource, CustomerContact, HoldInput } from '../inputs.ts';
import { Reservation } from '../models.ts';
import { bookingRules, liveLead, lockEventBySlug, offerByCode, referenceTaken, seatsTakenOf, type ReservationDetails } from '../queries.ts';
import { digest, newAccessToken, newReservationReference, sealSecret } from '../tokens.ts';
import { bookContact } from './upsertCustomer.ts';

/**
 * Takes seats: in the caller's transaction, the event row locked (`select … for update`, so concurrent holds on
 * one event queue here), its bookability and the offer checked, the seats taken counted with the catalog's
 * expression, and the HELD reservation written with its price. Returns the reservation's id and the access token
 * (once). Shared by the guest's hold (createPublicReservation) and staff's phone booking (reservations).
 */
export async function createHold(
  extensions: BookingExtensions,
  trx: Knex.Transaction,
  input: HoldInput,
  now: Date,
  contactSource: ContactSource = 'guest',
): Promise<{ reservationId: string; accessToken: string; cancellationWindowHours: number; view: ReservationDetails }> {
  const event = await lockEventBySlug(trx, input.eventSlug);
  if (!event || event.showStatus !== 'PUBLISHED') throw NotFound('No such show event.');

  const rules = await bookingRules(trx);
  const startsAt = new Date(event.startsAt);
  if (event.status !== 'SCHEDULED') throw Conflict('event_not_bookable', `The event is ${event.status.toLowerCase()}.`);
  if (!event.salesOpen) throw Conflict('sales_closed', 'Sales for this event are closed.');
  if (now.getTime() >= startsAt.getTime() - rules.bookingCutoffMinutes * 60_000) {
    throw Conflict('booking_closed', 'Booking for this event has closed (the booking cut-off has passed).');
  }

  const offer = await offerByCode(trx, input.offerCode);
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

  const { customer, leadId, locale } = await bookingCustomer(trx, input, now, contactSource);
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
    {
      trx,
      input,
      event: { id: event.id, showId: event.showId, startsAt: event.startsAt },
      offer: { id: offer.id, code: offer.code, showId: offer.showId, pricePerGuestVnd: offer.pricePerGuestVnd },
      guestCount: input.guestCount,
      subtotalVnd: offer.pricePerGuestVnd * input.guestCount,
      now,
    },
    { serviceChargePercent: rules.serviceChargePercent, vatPercent: rules.vatPercent },
    extensions.priceAdjustments,
  );
  const accessToken = newAccessToken();
  const reference = await freeReference(trx);
  const reservation = await Reservation.query(trx)
    .insert({
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
      holdExpiresAt: new Date(now.getTime() + rules.holdMinutes * 60_000),
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
      accessTokenSealed: await sealSecret(trx, accessToken),
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
    })
    .returning('*');
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

async function freeReference(trx: Knex.Transaction): Promise<string> {
  for (;;) {
    const reference = newReservationReference();
    if (!(await referenceTaken(trx, reference))) return reference;
  }
}
