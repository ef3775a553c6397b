import type { Knex } from 'knex';
import type { AppContext } from '../../../platform/context.ts';
import { Conflict } from '../../../platform/http/problem.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import type { StaffActor } from '../../../domain/actors.ts';
import { publish } from '../../../domain/events.ts';
import { isUniqueViolation } from '../../../platform/db/uniqueViolation.ts';
import { Show } from '../../shows/index.ts';
import { ShowEvent } from '../models.ts';
import { lockShowEvent } from '../queries.ts';

/** Runs `change` on the locked event in its own transaction; answers the event with its show. */
export async function changeShowEvent(app: AppContext, id: string, actor: StaffActor, change: (trx: Knex.Transaction, event: ShowEvent) => Promise<ShowEvent>) {
  return inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx, now, afterCommit }) => {
    await publish({ trx, app, actor, now, afterCommit }, 'catalog.changed', { entity: 'showEvent' });
    const event = await change(trx, await lockShowEvent(trx, id));
    const show = await Show.query(trx).findById(event.showId);
    return { event, show: show! };
  });
}

/** A write whose slug another event holds → 409 `event_exists` (also when a concurrent write won the race). */
export async function withSlugCheck<T>(trx: Knex.Transaction, slug: string, exceptId: string | null, write: () => PromiseLike<T>): Promise<T> {
  const holder = await ShowEvent.query(trx).select('id').where('slug', slug).modify((q) => exceptId && q.whereNot('id', exceptId)).first();
  if (holder) throw slugTaken(slug);
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err)) throw slugTaken(slug);
    throw err;
  }
}

const slugTaken = (slug: string) => Conflict('event_exists', `The show already has an event at that local time (${slug}).`);

