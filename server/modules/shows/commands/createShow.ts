import type { operations } from '../../../../sdk/schema.d.ts';
import type { AppContext } from '../../../platform/context.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import type { StaffActor } from '../../../domain/actors.ts';
import { publish } from '../../../domain/events.ts';
import { Conflict } from '../../../platform/http/problem.ts';
import { assertLocalized } from '../../../domain/localizedInput.ts';
import { Show } from '../models.ts';
import { assertImageBlobs, takenColumn } from '../queries.ts';

export type CreateShowInput = operations['createShow']['requestBody']['content']['application/json'];

/**
 * Creates a show as a `DRAFT`. Code and slug uniqueness is the unique indexes' answer (409 `code_taken` /
 * `slug_taken`), so two requests racing for the same code cannot both win.
 */
export async function createShow(app: AppContext, input: CreateShowInput, actor: StaffActor): Promise<Show> {
  assertLocalized({ title: input.title, summary: input.summary, description: input.description }, app.config);
  return inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx, now, afterCommit }) => {
    await publish({ trx, app, actor, now, afterCommit }, 'catalog.changed', { entity: 'show' });
    await assertImageBlobs(input.imageBlobIds, trx);
    try {
      return await Show.query(trx).insertAndFetch({
        code: input.code,
        slug: input.slug,
        status: 'DRAFT',
        canonical: input.canonical ?? false,
        title: input.title,
        summary: input.summary ?? {},
        description: input.description ?? {},
        durationMinutes: input.durationMinutes,
        minimumAge: input.minimumAge ?? null,
        imageBlobIds: input.imageBlobIds ?? [],
        sortOrder: input.sortOrder ?? 0,
      });
    } catch (err) {
      const column = takenColumn(err, 'shows');
      if (column) throw Conflict(column === 'slug' ? 'slug_taken' : 'code_taken', `Another show has this ${column}.`);
      throw err;
    }
  });
}
