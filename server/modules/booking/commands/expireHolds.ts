import type { AppContext } from '../../../platform/context.ts';
import { publish } from '../../../domain/events.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import { expireHeldUntil } from '../queries.ts';

/**
 * The hold expiry run (the `booking.expire-holds` job's step): marks HELD reservations whose hold ended by `now`
 * EXPIRED and publishes `holds.expired` in the same transaction (a bulk update runs no per-row transition): the
 * subscribers give back promo redemptions and voucher credit, tell the waiting list, queue the guests' e-mails.
 * The count. Idempotent.
 */
export async function expireHolds(app: AppContext, now = new Date()): Promise<number> {
  return inUnitOfWork(
    { knex: app.db.knex, logger: app.logger },
    async ({ trx, afterCommit }) => {
      const ids = await expireHeldUntil(trx, now);
      if (ids.length) await publish({ trx, app, actor: 'SYSTEM', now, afterCommit }, 'holds.expired', { reservationIds: ids });
      return ids.length;
    },
    now,
  );
}
