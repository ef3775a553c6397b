import type { Schema } from '../../platform/http/handler.ts';
import type { PaymentOutcomeEvent, ReservationStatus } from '../../domain/events.ts';
import { iso } from '../presenting.ts';
import type { ReservationFacts, ShowEventFacts } from './queries.ts';

/**
 * The `data` of each webhook body (the contract's `webhooks`, issue 36 §3): allow-lists typed by the contract, so a
 * field the contract lacks fails tsc. Ids, the reference, statuses, amounts in whole VND, the performance and the
 * party's size; never the guest's name, e-mail or phone (the `customerId` leads to them through the API, for a
 * system whose key may read the CRM): bodies leave the venue, are retried for a day and logged by receivers.
 */

export function showEventData(event: ShowEventFacts): Schema<'WebhookShowEvent'> {
  return { id: event.id, startsAt: iso(event.startsAt)!, slug: event.slug, showId: event.showId, showSlug: event.showSlug, showTitle: event.showTitle };
}

export function reservationData(facts: ReservationFacts, previousStatus: ReservationStatus): Schema<'WebhookReservationData'> {
  const showEvent = { id: facts.showEventId, startsAt: facts.eventStartsAt, slug: facts.eventSlug, showId: facts.showId, showSlug: facts.showSlug, showTitle: facts.showTitle };
  const totalVnd = Number(facts.totalVnd);
  return {
    reservationId: facts.id,
    reference: facts.reference,
    status: facts.status,
    previousStatus,
    guestCount: facts.guestCount,
    customerId: facts.customerId,
    bookingPath: facts.bookingPath,
    showEvent: showEventData(showEvent),
    offer: { id: facts.offerId, code: facts.offerCode },
    amounts: {
      subtotalVnd: Number(facts.subtotalVnd),
      discountVnd: Number(facts.discountVnd),
      serviceChargeVnd: Number(facts.serviceChargeVnd),
      vatVnd: Number(facts.vatVnd),
      voucherCreditVnd: Number(facts.voucherCreditVnd),
      totalVnd,
      paidVnd: facts.paidVnd,
      dueVnd: Math.max(0, totalVnd - facts.paidVnd),
    },
    confirmedAt: iso(facts.confirmedAt),
    checkedInAt: iso(facts.checkedInAt),
    cancelledAt: iso(facts.cancelledAt),
    noShowAt: iso(facts.noShowAt),
    cancelledBy: facts.cancelledBy as 'GUEST' | 'STAFF' | 'SYSTEM' | null,
  };
}

/** A payment's figures as its event says them; `status` is the event's (`payment.refunded` or `.partiallyRefunded`). */
export function paymentData(event: PaymentOutcomeEvent, status: 'SUCCEEDED' | 'PARTIALLY_REFUNDED' | 'REFUNDED', reference: string | null): Schema<'WebhookPaymentEvent'>['data'] {
  return {
    paymentId: event.paymentId,
    status,
    gateway: event.gateway,
    amountVnd: event.amountVnd,
    refundedVnd: event.refundedVnd,
    refundKind: status === 'REFUNDED' ? 'full' : status === 'PARTIALLY_REFUNDED' ? 'partial' : null,
    payableKind: event.payableKind,
    payableId: event.payableId,
    reservationId: event.reservationId ?? null,
    reference,
  };
}
