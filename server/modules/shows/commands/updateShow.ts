import type { operations } from '../../../../sdk/schema.d.ts';
import type { AppContext } from '../../../platform/context.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import type { StaffActor } from '../../../domain/actors.ts';
import { publish } from '../../../domain/events.ts';
import { Conflict } from '../../../platform/http/problem.ts';
import { assertLocalized } from '../../../domain/localizedInput.ts';
import type { Show } from '../models.ts';
import { assertImageBlobs, findShowOrFail, takenColumn } from '../queries.ts';

export type UpdateShowInput = operations['updateShow']['requestBody']['content']['application/json'];

export const ShowArchived = () => Conflict('show_archived', 'The show is archived; it can no longer change.');

/** Changes a show's fields with its row locked; an archived show refuses (409 `show_archived`). */
export async function updateShow(app: AppContext, id: string, input: UpdateShowInput, actor: StaffActor): Promise<Show> {
  assertLocalized({ title: input.title, summary: input.summary, description: input.description }, app.config);
  return inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx, now, afterCommit }) => {
    await publish({ trx, app, actor, now, afterCommit }, 'catalog.changed', { entity: 'show' });
    const show = await findShowOrFail(id, trx, { forUpdate: true });
    if (show.status === 'ARCHIVED') throw ShowArchived();
    await assertImageBlobs(input.imageBlobIds, trx);
    try {
      return await show.$query(trx).patchAndFetch({ ...input });
    } catch (err) {
      const column = takenColumn(err, 'shows');
      if (column) throw Conflict(column === 'slug' ? 'slug_taken' : 'code_taken', `Another show has this ${column}.`);
      throw err;
    }
  });
}
