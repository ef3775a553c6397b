import { Unprocessable } from '../../platform/http/problem.ts';
import { subscriber } from '../../domain/events.ts';
import type { SeatClaimProvider } from '../booking/index.ts';
import { digest } from '../booking/index.ts';
import { queueNotifyNext } from './commands/offers.ts';

/**
 * The waiting list's part in other flows (declared in the module's record, server/modules/waitlist/index.ts):
 * - booking through the offer link (`waitlistToken` on the hold): the entry is locked, checked (NOTIFIED, offer
 *   not expired, this event, party not larger), its held seats count as this booking's, and once the
 *   reservation exists the entry is CONVERTED with it — all in the hold's transaction;
 * - seats freed (a reservation cancelled, holds expired): the notify job is queued for the event;
 * - an event cancelled: its WAITING and NOTIFIED entries expire.
 */

const invalidOffer = (detail: string) => Unprocessable('waitlist_offer_invalid', detail, [{ path: 'body/waitlistToken', message: detail, code: 'waitlist_offer_invalid' }]);

export const seatClaim: SeatClaimProvider = {
  name: 'waitlist-offer',
  claim: async (trx, input, event, now) => {
  if (!input.waitlistToken) return null;
  const entry = await trx('waitlist_entries').where({ offer_token_hash: digest(input.waitlistToken) }).forUpdate().first();
  if (!entry || entry.status !== 'NOTIFIED' || entry.show_event_id !== event.id) throw invalidOffer('This waiting-list offer is unknown, used, or for another event.');
  if (!entry.offer_expires_at || new Date(entry.offer_expires_at) <= now) throw invalidOffer('This waiting-list offer has expired.');
  if (input.guestCount > entry.guest_count) {
    throw Unprocessable('waitlist_party_too_large', `The offer holds ${entry.guest_count} seats.`, [
      { path: 'body/guestCount', message: `must be at most ${entry.guest_count}`, code: 'waitlist_party_too_large' },
    ]);
  }
  return {
    seats: entry.guest_count,
    afterInsert: async (reservationId) => {
      await trx('waitlist_entries')
        .where({ id: entry.id })
        .update({ status: 'CONVERTED', reservation_id: reservationId, converted_at: now, offer_token_hash: null, updated_at: now });
    },
  };
  },
};

export const subscribers = [
  subscriber({
    name: 'waitlist.seats-freed-on-cancel',
    event: 'reservation.cancelled',
    phase: 'in-transaction',
    order: 40,
    async handle({ reservationId }, ctx) {
      const row = await ctx.trx('reservations').where({ id: reservationId }).first('show_event_id');
      await queueNotifyNext(ctx.app.jobs, ctx.trx, [row.show_event_id]);
    },
  }),
  subscriber({
    name: 'waitlist.seats-freed-on-expiry',
    event: 'holds.expired',
    phase: 'in-transaction',
    order: 40,
    async handle({ reservationIds }, ctx) {
      const events: string[] = await ctx.trx('reservations').whereIn('id', reservationIds).distinct().pluck('show_event_id');
      const waiting: string[] = await ctx.trx('waitlist_entries').whereIn('show_event_id', events).where('status', 'WAITING').distinct().pluck('show_event_id');
      await queueNotifyNext(ctx.app.jobs, ctx.trx, waiting);
    },
  }),
  // Named as the cancellation flow's reply reports it (`hooks[].name`).
  subscriber({
    name: 'waitlist',
    event: 'showEvent.cancelled',
    phase: 'in-transaction',
    order: 20,
    async handle({ event }, ctx) {
      const now = new Date();
      const expired = await ctx
        .trx('waitlist_entries')
        .where({ show_event_id: event.id })
        .whereIn('status', ['WAITING', 'NOTIFIED'])
        .update({ status: 'EXPIRED', expired_at: now, offer_token_hash: null, updated_at: now });
      return { waitlistEntriesExpired: Number(expired) };
    },
  }),
];
