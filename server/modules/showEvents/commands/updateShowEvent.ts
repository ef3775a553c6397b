import type { AppContext } from '../../../platform/context.ts';
import type { StaffActor } from '../../../domain/actors.ts';
import { eventSlug } from '../../../domain/venueTime.ts';
import { Show } from '../../shows/index.ts';
import { ShowEvent } from '../models.ts';
import { checkDoors, eventClosed } from '../rules.ts';
import { changeShowEvent, withSlugCheck } from './eventChange.ts';

export interface UpdateShowEventInput {
  startsAt?: string;
  doorsAt?: string | null;
  capacity?: number;
  staffNotes?: string | null;
}

/**
 * Changes a scheduled event. A new start regenerates the slug (it always names the local start) and moves the
 * doors by the same amount unless the caller sets them too.
 */
export async function updateShowEvent(app: AppContext, id: string, input: UpdateShowEventInput, actor: StaffActor) {
  const zone = app.config.venueTimezone;
  return changeShowEvent(app, id, actor, async (trx, event) => {
    if (event.status !== 'SCHEDULED') throw eventClosed(event);
    const oldStart = new Date(event.startsAt);
    const startsAt = input.startsAt ? new Date(input.startsAt) : oldStart;
    let doorsAt = event.doorsAt ? new Date(event.doorsAt) : null;
    if (input.doorsAt !== undefined) doorsAt = input.doorsAt ? new Date(input.doorsAt) : null;
    else if (doorsAt) doorsAt = new Date(doorsAt.getTime() + (startsAt.getTime() - oldStart.getTime()));
    checkDoors(startsAt, doorsAt);

    const patch: Partial<ShowEvent> = { startsAt, doorsAt };
    if (input.capacity !== undefined) patch.capacity = input.capacity;
    if (input.staffNotes !== undefined) patch.staffNotes = input.staffNotes;
    if (startsAt.getTime() === oldStart.getTime()) return ShowEvent.query(trx).patchAndFetchById(id, patch);
    const show = await Show.query(trx).findById(event.showId);
    const slug = eventSlug(show!.slug, startsAt, zone);
    return withSlugCheck(trx, slug, id, () => ShowEvent.query(trx).patchAndFetchById(id, { ...patch, slug }));
  });
}
