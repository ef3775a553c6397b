import type { AppContext } from '../../../platform/context.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import type { StaffActor } from '../../../domain/actors.ts';
import { publish } from '../../../domain/events.ts';
import type { Show } from '../models.ts';
import { findShowOrFail } from '../queries.ts';
import { ShowArchived } from './updateShow.ts';

/**
 * Publishes (`DRAFT` → `PUBLISHED`, `publishedAt` now) or unpublishes (`PUBLISHED` → `DRAFT`, `publishedAt`
 * cleared) a show with its row locked. Asking for the state it is in changes nothing; an archived show
 * refuses either (409 `show_archived`).
 */
export async function setShowPublished(app: AppContext, id: string, published: boolean, actor: StaffActor): Promise<Show> {
  return inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx, now, afterCommit }) => {
    await publish({ trx, app, actor, now, afterCommit }, 'catalog.changed', { entity: 'show' });
    const show = await findShowOrFail(id, trx, { forUpdate: true });
    if (show.status === 'ARCHIVED') throw ShowArchived();
    const target = published ? 'PUBLISHED' : 'DRAFT';
    if (show.status === target) return show;
    return show.$query(trx).patchAndFetch({ status: target, publishedAt: published ? new Date() : null });
  });
}
