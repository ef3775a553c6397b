import type { AppContext } from '../../../platform/context.ts';
import { Conflict, NotFound, Unprocessable } from '../../../platform/http/problem.ts';
import { priceBooking } from '../../booking/index.ts';
import { inTransition, lockReservation, type TransitionActor } from '../../booking/index.ts';
import { effectiveStatus, seatsTakenOf } from '../../booking/index.ts';
import { assertTable } from '../tables.ts';

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
    async ({ trx }) => {
      const found = await trx('reservations').where({ id }).first('show_event_id');
      if (!found) throw NotFound('No such reservation.');
      const resizing = patch.guestCount !== undefined;
      const event = resizing ? await trx('show_events').where({ id: found.show_event_id }).forUpdate().first() : undefined;
      const row = (await lockReservation(trx, id)) as unknown as Record<string, any>;
      const changes: Record<string, unknown> = { updated_at: now };
      if (patch.tableId !== undefined) {
        if (patch.tableId !== null) await assertTable(trx, patch.tableId, 'body/tableId');
        changes.table_id = patch.tableId;
      }
      if (patch.staffNotes !== undefined) changes.staff_notes = patch.staffNotes;
      if (resizing && patch.guestCount !== row.guest_count) {
        const guestCount = patch.guestCount!;
        const status = effectiveStatus(row as { status: never; hold_expires_at: Date | null }, now);
        if (status !== 'HELD' && status !== 'CONFIRMED') {
          throw Conflict('reservation_not_editable', `The guest count of a ${status.toLowerCase().replace('_', '-')} reservation cannot change.`);
        }
        if (event.status !== 'SCHEDULED') throw Conflict('event_not_bookable', `The event is ${String(event.status).toLowerCase()}.`);
        const offer = await trx('offers').where({ id: row.offer_id }).first();
        if (guestCount < offer.min_guests || guestCount > offer.max_guests) {
          throw Unprocessable('guest_count_out_of_range', `This offer takes ${offer.min_guests} to ${offer.max_guests} guests.`, [
            { path: 'body/guestCount', message: `must be between ${offer.min_guests} and ${offer.max_guests}`, code: 'guest_count_out_of_range' },
          ]);
        }
        if (guestCount > row.guest_count) {
          const free = event.capacity - (await seatsTakenOf(trx, event.id, now));
          if (guestCount - row.guest_count > free) throw Conflict('not_enough_seats', `Only ${Math.max(free, 0)} more seats are free.`);
        }
        const pricePerGuest = Number(row.price_per_guest_vnd);
        const { price, columns } = await priceBooking(
          {
            trx,
            input: {
              eventSlug: event.slug,
              offerCode: offer.code,
              guestCount,
              promoCode: row.promo_code ?? undefined,
              voucherCode: row.voucher_code ?? undefined,
              referral: { code: row.referral_code ?? undefined, linkSlug: row.referral_link_slug ?? undefined, partnerSlug: row.referral_partner_slug ?? undefined },
            },
            event: { id: event.id, show_id: event.show_id, starts_at: event.starts_at },
            offer: { id: offer.id, code: offer.code, show_id: offer.show_id, price_per_guest_vnd: pricePerGuest },
            guestCount,
            subtotalVnd: pricePerGuest * guestCount,
            now,
          },
          { serviceChargePercent: Number(row.service_charge_percent), vatPercent: Number(row.vat_percent) },
          app.bookingExtensions.priceAdjustments,
        );
        Object.assign(changes, {
          guest_count: guestCount,
          subtotal_vnd: price.subtotalVnd,
          discount_vnd: price.discountVnd,
          service_charge_vnd: price.serviceChargeVnd,
          vat_vnd: price.vatVnd,
          total_vnd: price.totalVnd,
          ...columns,
        });
      }
      await trx('reservations').where({ id }).update(changes);
    },
    now,
  );
}
