import type { AppContext } from '../../../platform/context.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import type { StaffActor } from '../../../domain/actors.ts';
import { publish } from '../../../domain/events.ts';
import { findOfferOrFail, withItems, type OfferWithItems } from '../queries.ts';

/**
 * The offer's delete: `INACTIVE`, never removed (reservations name it). Deactivating an inactive offer changes
 * nothing and returns it.
 */
export async function deactivateOffer(app: AppContext, id: string, actor: StaffActor): Promise<OfferWithItems> {
  return inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx, now, afterCommit }) => {
    await publish({ trx, app, actor, now, afterCommit }, 'catalog.changed', { entity: 'offer' });
    const offer = await findOfferOrFail(id, trx, { forUpdate: true });
    const result = offer.status === 'INACTIVE' ? offer : await offer.$query(trx).patchAndFetch({ status: 'INACTIVE' });
    return (await withItems([result], trx))[0];
  });
}
