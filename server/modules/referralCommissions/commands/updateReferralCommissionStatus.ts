import type { AppContext } from '../../../platform/context.ts';
import { Conflict, NotFound } from '../../../platform/http/problem.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import { ReferralCommission, type CommissionStatus } from '../models.ts';
import { findCommissionOrFail, type CommissionView } from '../queries.ts';

/** Moves an admin may make (PAID comes from a payout batch only). */
const ADMIN_MOVES: Record<CommissionStatus, CommissionStatus[]> = { PENDING: ['APPROVED', 'VOID'], APPROVED: ['PENDING', 'VOID'], PAID: [], VOID: [] };

/**
 * An admin's settlement move, with the commission's row locked: the same status changes nothing; a move not in
 * ADMIN_MOVES is 409 `illegal_transition`. A VOID keeps the reason given (or "voided by an admin"). The commission
 * is read again once committed.
 */
export async function updateReferralCommissionStatus(
  app: Pick<AppContext, 'db' | 'logger'>,
  id: string,
  to: CommissionStatus,
  reason: string | undefined,
  now = new Date(),
): Promise<CommissionView> {
  await inUnitOfWork(
    { knex: app.db.knex, logger: app.logger },
    async ({ trx }) => {
      const row = await ReferralCommission.query(trx).findById(id).forUpdate().select('status');
      if (!row) throw NotFound('No such commission.');
      if (row.status === to) return;
      if (!ADMIN_MOVES[row.status].includes(to)) throw Conflict('illegal_transition', `A ${row.status} commission cannot become ${to}.`);
      await ReferralCommission.query(trx)
        .findById(id)
        .patch({ status: to, statusChangedAt: now, voidReason: to === 'VOID' ? (reason ?? 'voided by an admin') : null });
    },
    now,
  );
  return findCommissionOrFail(id);
}
