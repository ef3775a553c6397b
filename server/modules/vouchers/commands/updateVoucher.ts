import type { operations } from '../../../../sdk/schema.d.ts';
import type { AppContext } from '../../../platform/context.ts';
import { Conflict } from '../../../platform/http/problem.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import type { Voucher } from '../models.ts';
import { findVoucherOrFail } from '../queries.ts';
import { assertInFuture } from './createVoucher.ts';

export type VoucherUpdate = operations['updateVoucher']['requestBody']['content']['application/json'];

/** Changes the expiry and the recipient fields; an EXPIRED voucher (deleted) cannot be changed (409). */
export async function updateVoucher(app: Pick<AppContext, 'db' | 'logger'>, id: string, input: VoucherUpdate, now = new Date()): Promise<Voucher> {
  return inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    const current = await findVoucherOrFail(id, trx, { forUpdate: true });
    if (current.status === 'EXPIRED') throw Conflict('voucher_expired', 'The voucher was deleted (expired); it cannot be changed.');
    if (input.expiresAt !== undefined) assertInFuture(input.expiresAt, now);
    const fields: Partial<Voucher> = {};
    if (input.expiresAt !== undefined) fields.expiresAt = input.expiresAt;
    if (input.recipientName !== undefined) fields.recipientName = input.recipientName;
    if (input.recipientEmail !== undefined) fields.recipientEmail = input.recipientEmail;
    if (input.note !== undefined) fields.note = input.note;
    return current.$query(trx).patchAndFetch(fields);
  });
}
