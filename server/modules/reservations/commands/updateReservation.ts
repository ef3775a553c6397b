import type { PartialModelObject } from 'objection';
import type { AppContext } from '../../../platform/context.ts';
import { publish } from '../../../domain/events.ts';
import { Conflict, NotFound, Unprocessable } from '../../../platform/http/problem.ts';
import { lockedReservation, patchReservation, priceBooking, Reservation, seatsTakenOf, statusAt } from '../../booking/index.ts';
import { inTransition, type TransitionActor } from '../../../domain/unitOfWork.ts';
import { assertTable, lockShowEvent, offerOf } from '../queries.ts';

export interface ReservationPatch {
  guestCount?: number;
  tableId?: string | null;
  staffNotes?: string | null;
}

/**
 * Staff changes, in one transaction. A new guest count locks the event row first, then the reservation (the
 * booking lock order, lifecycle.ts), so it and concurrent holds or changes on the event are counted one after
 * the other and never oversell: more guests need that many free seats (this reservation's own are its already).
 * The booking is re-priced with the per-guest price and the percentages it was made with (a later change of
 * the offer or the commercial setup never re-prices it) through the registered price adjustments.
 */
export async function updateReservation(app: AppContext, actor: TransitionActor, id: string, patch: ReservationPatch, now = new Date()): Promise<void> {
  await inTransition(
    app,
    actor,
    async (ctx) => {
      const { trx } = ctx;
      const found = await Reservation.query(trx).findById(id).select('show_event_id');
      if (!found) throw NotFound('No such reservation.');
      const resizing = patch.guestCount !== undefined;
      const event = resizing ? await lockShowEvent(trx, found.showEventId) : undefined;
      const reservation = await lockedReservation(trx, id);
      const changes: PartialModelObject<Reservation> = { updatedAt: now };
      if (patch.tableId !== undefined) {
        if (patch.tableId !== null) await assertTable(trx, patch.tableId, 'body/tableId');
        changes.tableId = patch.tableId;
      }
      if (patch.staffNotes !== undefined) changes.staffNotes = patch.staffNotes;
      if (event && patch.guestCount !== reservation.guestCount) {
        const guestCount = patch.guestCount!;
        const status = statusAt(reservation, now);
        if (status !== 'HELD' && status !== 'CONFIRMED') {
          throw Conflict('reservation_not_editable', `The guest count of a ${status.toLowerCase().replace('_', '-')} reservation cannot change.`);
        }
        if (event.status !== 'SCHEDULED') throw Conflict('event_not_bookable', `The event is ${String(event.status).toLowerCase()}.`);
        const offer = await offerOf(trx, reservation.offerId);
        if (guestCount < offer.minGuests || guestCount > offer.maxGuests) {
          throw Unprocessable('guest_count_out_of_range', `This offer takes ${offer.minGuests} to ${offer.maxGuests} guests.`, [
            { path: 'body/guestCount', message: `must be between ${offer.minGuests} and ${offer.maxGuests}`, code: 'guest_count_out_of_range' },
          ]);
        }
        if (guestCount > reservation.guestCount) {
          const free = event.capacity - (await seatsTakenOf(trx, event.id, now));
          if (guestCount - reservation.guestCount > free) throw Conflict('not_enough_seats', `Only ${Math.max(free, 0)} more seats are free.`);
        }
        const pricePerGuest = Number(reservation.pricePerGuestVnd);
        const { price, columns } = await priceBooking(
          {
            trx,
            input: {
              eventSlug: event.slug,
              offerCode: offer.code,
              guestCount,
              promoCode: reservation.promoCode ?? undefined,
              voucherCode: reservation.voucherCode ?? undefined,
              referral: { code: reservation.referralCode ?? undefined, linkSlug: reservation.referralLinkSlug ?? undefined, partnerSlug: reservation.referralPartnerSlug ?? undefined },
            },
            event: { id: event.id, showId: event.showId, startsAt: event.startsAt },
            offer: { id: offer.id, code: offer.code, showId: offer.showId, pricePerGuestVnd: pricePerGuest },
            guestCount,
            subtotalVnd: pricePerGuest * guestCount,
            now,
          },
          { serviceChargePercent: Number(reservation.serviceChargePercent), vatPercent: Number(reservation.vatPercent) },
          app.bookingExtensions.priceAdjustments,
        );
        Object.assign(changes, {
          guestCount,
          subtotalVnd: price.subtotalVnd,
          discountVnd: price.discountVnd,
          serviceChargeVnd: price.serviceChargeVnd,
          vatVnd: price.vatVnd,
          totalVnd: price.totalVnd,
          // What the adjustments set, named as columns.
          ...columns,
        });
      }
      await patchReservation(trx, id, changes);
      if (changes.guestCount !== undefined) {
        await publish(ctx, 'reservation.resized', {
          reservationId: id,
          fromShowEventId: reservation.showEventId,
          toShowEventId: reservation.showEventId,
          fromGuests: reservation.guestCount,
          toGuests: changes.guestCount as number,
        });
      }
    },
    now,
  );
}
