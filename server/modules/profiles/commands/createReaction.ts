import type { operations } from '../../../../sdk/schema.d.ts';
import type { AppContext } from '../../../platform/context.ts';
import { Conflict } from '../../../platform/http/problem.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import { GuestReaction } from '../models.ts';
import type { ProfileView, ReactionView } from '../queries.ts';

export type ReactionInput = operations['createReaction']['requestBody']['content']['application/json'];

/** A reaction, only once the doors are open (or the show started) and for a reservation that is not cancelled. */
export async function createReaction(app: Pick<AppContext, 'db' | 'logger'>, profile: ProfileView, input: ReactionInput, now = new Date()): Promise<ReactionView> {
  const opensAt = new Date(profile.eventDoorsAt ?? profile.eventStartsAt);
  if (now < opensAt) throw Conflict('show_not_started', 'Reactions open when the doors open.');
  if (!['CONFIRMED', 'CHECKED_IN', 'NO_SHOW'].includes(profile.reservationStatus)) throw Conflict('reservation_not_active', 'This reservation takes no reactions.');
  const reaction = await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) =>
    GuestReaction.query(trx).insertAndFetch({ profileId: profile.id, emoji: input.emoji, comment: input.comment?.trim() || null, createdAt: now }),
  );
  return Object.assign(reaction, { displayName: profile.displayName, tableCode: profile.tableCode });
}
