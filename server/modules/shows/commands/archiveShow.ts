import type { AppContext } from '../../../platform/context.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import type { StaffActor } from '../../../domain/actors.ts';
import { publish } from '../../../domain/events.ts';
import { Conflict } from '../../../platform/http/problem.ts';
import type { Show } from '../models.ts';
import { findShowOrFail } from '../queries.ts';

/**
 * Archives a show (spec §3: "admin or superuser; canonical shows are protected"; the role is the contract's
 * `x-access: admin`, the rule is here). The row is locked for the check and the write, so a concurrent
 * `canonical: true` cannot slip between them. Nothing is deleted: the show's events and their history stay.
 * Archiving an archived show changes nothing and returns it.
 */
export async function archiveShow(app: AppContext, id: string, actor: StaffActor): Promise<Show> {
  return inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx, now, afterCommit }) => {
    await publish({ trx, app, actor, now, afterCommit }, 'catalog.changed', { entity: 'show' });
    const show = await findShowOrFail(id, trx, { forUpdate: true });
    if (show.status === 'ARCHIVED') return show;
    if (show.canonical) throw Conflict('canonical_show', 'A canonical show cannot be archived; clear `canonical` first.');
    return show.$query(trx).patchAndFetch({ status: 'ARCHIVED', archivedAt: new Date() });
  });
}
