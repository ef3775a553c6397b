import type { operations } from '../../../../sdk/schema.d.ts';
import type { AppContext } from '../../../platform/context.ts';
import { Conflict, Unprocessable } from '../../../platform/http/problem.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import { isUniqueViolation } from '../../../platform/db/uniqueViolation.ts';
import { newVoucherCode, normalizeVoucherCode } from '../codes.ts';
import { Voucher } from '../models.ts';

export type VoucherInput = operations['createVoucher']['requestBody']['content']['application/json'];

export const assertInFuture = (expiresAt: string, now: Date) => {
  if (new Date(expiresAt) <= now) {
    throw Unprocessable('expiry_in_past', 'The expiry must be in the future.', [{ path: 'body/expiresAt', message: 'must be in the future', code: 'expiry_in_past' }]);
  }
};

/**
 * Issues a voucher. A given code that is taken is 409 `code_taken`; a generated one that collides is drawn again
 * (each attempt its own unit of work, up to six).
 */
export async function createVoucher(app: Pick<AppContext, 'db' | 'logger'>, input: VoucherInput, createdBy: string | null, now = new Date()): Promise<Voucher> {
  assertInFuture(input.expiresAt, now);
  for (let attempt = 0; ; attempt++) {
    try {
      return await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) =>
        Voucher.query(trx).insertAndFetch({
          code: input.code ? normalizeVoucherCode(input.code) : newVoucherCode(),
          initialValueVnd: input.valueVnd,
          remainingValueVnd: input.valueVnd,
          expiresAt: input.expiresAt,
          recipientName: input.recipientName ?? null,
          recipientEmail: input.recipientEmail ?? null,
          note: input.note ?? null,
          createdBy,
        }),
      );
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      if (input.code) throw Conflict('code_taken', 'Another voucher has this code.');
      if (attempt >= 5) throw err;
    }
  }
}
