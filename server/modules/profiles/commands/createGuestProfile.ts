import type { operations } from '../../../../sdk/schema.d.ts';
import type { AppContext } from '../../../platform/context.ts';
import { Conflict, NotFound } from '../../../platform/http/problem.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import { digest, newAccessToken } from '../../../platform/auth/tokens.ts';
import { guestReservation } from '../../booking/index.ts';
import { GuestProfile } from '../models.ts';
import { findProfileView, liveProfileCount, lockReservationForProfiles, type ProfileView } from '../queries.ts';

export type ProfileInput = Omit<operations['createGuestProfile']['requestBody']['content']['application/json'], 'reservationReference'>;

const LIVE_RESERVATION = ['HELD', 'CONFIRMED', 'CHECKED_IN'];

/**
 * A new profile for the party of the reservation `reference` opened by `reservationToken` (404 otherwise, one
 * answer for every miss). At most one profile per guest of the party (409 `party_full`); a cancelled, expired
 * or no-show reservation takes none (409 `reservation_not_active`). Answers the profile and its token (once).
 */
export async function createGuestProfile(
  app: Pick<AppContext, 'db' | 'logger'>,
  reference: string,
  reservationToken: string | undefined,
  input: ProfileInput,
): Promise<{ profile: ProfileView; token: string }> {
  const reservation = await guestReservation(app.db.knex, reference, reservationToken);
  if (!reservation) throw NotFound('No such reservation, or the token does not open it.');
  const token = newAccessToken();
  const id = await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    const locked = await lockReservationForProfiles(trx, reservation.id);
    const expired = locked.status === 'HELD' && locked.holdExpiresAt && new Date(locked.holdExpiresAt) <= new Date();
    if (!LIVE_RESERVATION.includes(locked.status) || expired) throw Conflict('reservation_not_active', 'Profiles can be added to a live reservation only.');
    const count = await liveProfileCount(trx, reservation.id);
    if (count >= locked.guestCount) throw Conflict('party_full', `The party has ${locked.guestCount} guests and each has a profile.`);
    const profile = await GuestProfile.query(trx).insert({
      reservationId: reservation.id,
      displayName: input.displayName.trim(),
      dietaryPreferences: [...new Set(input.dietaryPreferences ?? [])],
      dietaryNote: input.dietaryNote ?? null,
      tokenHash: digest(token),
    });
    return profile.id;
  });
  return { profile: (await findProfileView(id))!, token };
}
