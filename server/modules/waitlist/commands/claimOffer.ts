import { Unprocessable } from '../../../platform/http/problem.ts';
import type { SeatClaimProvider } from '../../../domain/bookingExtensions.ts';
import { digest } from '../../../platform/auth/tokens.ts';
import { WaitlistEntry } from '../models.ts';

const invalidOffer = (detail: string) => Unprocessable('waitlist_offer_invalid', detail, [{ path: 'body/waitlistToken', message: detail, code: 'waitlist_offer_invalid' }]);

/**
 * Booking through the offer link (`waitlistToken` on the hold), in the hold's transaction: the entry is locked,
 * checked (NOTIFIED, offer not expired, this event, party not larger), its held seats count as this booking's,
 * and once the reservation exists the entry is CONVERTED with it. Declared as the record's `seatClaims`.
 */
export const claimWaitlistOffer: SeatClaimProvider = {
  name: 'waitlist-offer',
  applies: (input) => Boolean(input.waitlistToken),
  claim: async (trx, input, event, now) => {
    if (!input.waitlistToken) return null;
    const entry = await WaitlistEntry.query(trx).where('offer_token_hash', digest(input.waitlistToken)).forUpdate().first();
    if (!entry || entry.status !== 'NOTIFIED' || entry.showEventId !== event.id) throw invalidOffer('This waiting-list offer is unknown, used, or for another event.');
    if (!entry.offerExpiresAt || new Date(entry.offerExpiresAt) <= now) throw invalidOffer('This waiting-list offer has expired.');
    if (input.guestCount > entry.guestCount) {
      throw Unprocessable('waitlist_party_too_large', `The offer holds ${entry.guestCount} seats.`, [
        { path: 'body/guestCount', message: `must be at most ${entry.guestCount}`, code: 'waitlist_party_too_large' },
      ]);
    }
    return {
      seats: entry.guestCount,
      afterInsert: async (reservationId) => {
        await WaitlistEntry.query(trx).findById(entry.id).patch({ status: 'CONVERTED', reservationId, convertedAt: now, offerTokenHash: null, updatedAt: now });
      },
    };
  },
};
