import type { StaffActor } from '../../../domain/actors.ts';
import { publish } from '../../../domain/events.ts';
import type { AppContext } from '../../../platform/context.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';

/**
 * Tells the rest of the server that stored objects are gone (one blob's, or whatever a cleanup removed): a show's
 * images leave the public catalog with their object, so `catalog.changed` is published, in a unit of work of its
 * own once the object store's write is done (no transaction covers the store).
 */
export async function announceObjectsGone(app: AppContext, actor: StaffActor, blobId: string | null): Promise<void> {
  await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, ({ trx, now, afterCommit }) =>
    publish({ trx, app, actor, now, afterCommit }, 'catalog.changed', { entity: 'storageBlob', id: blobId }),
  );
}
