import type { AppContext } from '../../../platform/context.ts';
import { Conflict, NotFound } from '../../../platform/http/problem.ts';
import { publish } from '../../../domain/events.ts';
import { confirmReservation, createHold, EXPIRE_HOLDS_QUEUE, patchReservation, Reservation, type Contact } from '../../booking/index.ts';
import { inTransition, type TransitionActor } from '../../../domain/unitOfWork.ts';
import { assertTable, showEventSlug } from '../queries.ts';

export interface StaffReservationInput {
  eventId: string;
  offerCode: string;
  guestCount: number;
  contact: Contact;
  locale?: string;
  customerNote?: string;
  staffNotes?: string;
  tableId?: string;
  confirm?: boolean;
}

/**
 * A phone booking: the guest's hold (`createHold`: the event row locked, its bookability, the offer, the guests
 * range and the free seats checked, the price computed, the customer upserted by e-mail with staff's contact), the staff's notes and
 * table, and — when staff say so — the confirmation (check-in token, confirmation e-mail), all in one
 * transaction. A hold left HELD gets its expiry job, as the guest's does. The access token createHold makes is
 * not shown to anyone (staff act with their own credentials). `hold.placed` (by STAFF): booking's subscriber sends
 * `reservation created` after the commit.
 */
export async function createReservation(app: AppContext, actor: TransitionActor, input: StaffReservationInput, now = new Date()): Promise<string> {
  return inTransition(
    app,
    actor,
    async (ctx) => {
      const event = await showEventSlug(ctx.trx, input.eventId);
      if (!event) throw NotFound('No such show event.');
      if (!event.slug) throw Conflict('event_not_bookable', 'The event has no slug yet; run the slug backfill first.');
      if (input.tableId) await assertTable(ctx.trx, input.tableId, 'body/tableId');
      const { reservationId } = await createHold(
        app.bookingExtensions,
        ctx.trx,
        { eventSlug: event.slug, offerCode: input.offerCode, guestCount: input.guestCount, contact: input.contact, customerNote: input.customerNote, locale: input.locale },
        now,
        // A phone booking: staff's contact edits the customer record (a guest's never does).
        'staff',
      );
      await publish(ctx, 'hold.placed', { reservationId, showEventId: input.eventId, by: 'STAFF' });
      await patchReservation(ctx.trx, reservationId, { staffNotes: input.staffNotes ?? null, tableId: input.tableId ?? null, updatedAt: now });
      if (input.confirm) {
        await confirmReservation(ctx, reservationId, { by: 'STAFF' });
      } else {
        const held = await Reservation.query(ctx.trx).findById(reservationId).select('hold_expires_at');
        await app.jobs.enqueue(EXPIRE_HOLDS_QUEUE, { reservationId }, { trx: ctx.trx, startAfter: new Date(held!.holdExpiresAt!) });
      }
      return reservationId;
    },
    now,
  );
}
