import { subscriber, type DomainContext, type PaymentOutcomeEvent, type ReservationStatusChanged } from '../../domain/events.ts';
import { recordWebhookMessages } from './commands/recordWebhookMessages.ts';
import type { WebhookEventType } from './eventTypes.ts';
import { paymentData, reservationData, showEventData } from './payloads.ts';
import { reservationFacts, reservationReference, waitlistOfferFacts } from './queries.ts';

/**
 * The webhooks' part in other flows (issue 36 §3; declared in the module's record): each domain event a webhook tells
 * of writes its messages in the publisher's transaction (./commands/recordWebhookMessages.ts), so a message exists
 * exactly when the change it tells of committed. Late (900: after the other modules' in-transaction effects, before
 * the catalog forgets its answers), so a body reads the rows as the command leaves them — but for a confirmation, 15:
 * before the voucher's retake (20) publishes `voucher.redeemed`, so a receiver hears of the confirmation first. The
 * order of an endpoint's messages about one reservation is the order they were written in.
 */
const LATE = 900;

const reservationKey = (reservationId: string) => `reservation:${reservationId}`;

function reservationEvent(type: WebhookEventType, event: 'reservation.confirmed' | 'reservation.cancelled' | 'reservation.checkedIn' | 'reservation.noShow', order: number) {
  return subscriber({
    name: `webhooks.${type}`,
    event,
    phase: 'in-transaction',
    order,
    handle: (change: ReservationStatusChanged, ctx: DomainContext) =>
      recordWebhookMessages(ctx, type, reservationKey(change.reservationId), async () => {
        const facts = await reservationFacts(ctx.trx, change.reservationId);
        return facts && reservationData(facts, change.from);
      }),
  });
}

async function paymentMessages(ctx: DomainContext, payment: PaymentOutcomeEvent, status: 'SUCCEEDED' | 'PARTIALLY_REFUNDED' | 'REFUNDED') {
  const key = payment.reservationId ? reservationKey(payment.reservationId) : `${payment.payableKind}:${payment.payableId}`;
  return recordWebhookMessages(ctx, status === 'SUCCEEDED' ? 'payment.succeeded' : 'payment.refunded', key, async () => {
    const reference = payment.reservationId ? ((await reservationReference(ctx.trx, payment.reservationId)) ?? null) : null;
    return paymentData(payment, status, reference);
  });
}

export const subscribers = [
  reservationEvent('reservation.confirmed', 'reservation.confirmed', 15),
  reservationEvent('reservation.cancelled', 'reservation.cancelled', LATE),
  reservationEvent('reservation.checked_in', 'reservation.checkedIn', LATE),
  reservationEvent('reservation.no_show', 'reservation.noShow', LATE),
  subscriber({ name: 'webhooks.payment.succeeded', event: 'payment.captured', phase: 'in-transaction', order: LATE, handle: (payment, ctx) => paymentMessages(ctx, payment, 'SUCCEEDED') }),
  subscriber({ name: 'webhooks.payment.refunded', event: 'payment.refunded', phase: 'in-transaction', order: LATE, handle: (payment, ctx) => paymentMessages(ctx, payment, 'REFUNDED') }),
  subscriber({
    name: 'webhooks.payment.partially-refunded',
    event: 'payment.partiallyRefunded',
    phase: 'in-transaction',
    order: LATE,
    handle: (payment, ctx) => paymentMessages(ctx, payment, 'PARTIALLY_REFUNDED'),
  }),
  subscriber({
    name: 'webhooks.inquiry.received',
    event: 'inquiry.received',
    phase: 'in-transaction',
    order: LATE,
    handle: (inquiry, ctx) =>
      recordWebhookMessages(ctx, 'inquiry.received', `inquiry:${inquiry.inquiryId}`, async () => ({
        inquiryId: inquiry.inquiryId,
        inquiryType: inquiry.type,
        customerId: inquiry.customerId,
        preferredDate: inquiry.preferredDate,
        guestCount: inquiry.guestCount,
        locale: inquiry.locale,
      })),
  }),
  subscriber({
    name: 'webhooks.waitlist.offer_made',
    event: 'waitlist.offered',
    phase: 'in-transaction',
    order: LATE,
    handle: (offer, ctx) =>
      recordWebhookMessages(ctx, 'waitlist.offer_made', `waitlist:${offer.entryId}`, async () => {
        const facts = await waitlistOfferFacts(ctx.trx, offer.entryId);
        return facts && { entryId: offer.entryId, customerId: facts.customerId, guestCount: facts.guestCount, offerExpiresAt: offer.offerExpiresAt.toISOString(), showEvent: showEventData(facts.showEvent) };
      }),
  }),
  subscriber({
    name: 'webhooks.voucher.redeemed',
    event: 'voucher.redeemed',
    phase: 'in-transaction',
    order: LATE,
    handle: (redemption, ctx) =>
      recordWebhookMessages(ctx, 'voucher.redeemed', reservationKey(redemption.reservationId), async () => {
        const reference = await reservationReference(ctx.trx, redemption.reservationId);
        return reference === undefined ? undefined : { voucherId: redemption.voucherId, amountVnd: redemption.amountVnd, remainingVnd: redemption.remainingVnd, reservationId: redemption.reservationId, reference };
      }),
  }),
  subscriber({
    name: 'webhooks.voucher.sold',
    event: 'voucher.sold',
    phase: 'in-transaction',
    order: LATE,
    handle: (sale, ctx) =>
      recordWebhookMessages(ctx, 'voucher.sold', `voucher_order:${sale.orderId}`, async () => ({
        orderId: sale.orderId,
        reference: sale.reference,
        voucherId: sale.voucherId,
        amountVnd: sale.amountVnd,
        expiresAt: sale.expiresAt.toISOString(),
        deliveryDate: sale.deliveryDate,
        paymentId: sale.paymentId,
      })),
  }),
];
