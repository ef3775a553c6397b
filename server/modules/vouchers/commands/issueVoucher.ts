import type { Knex } from 'knex';
import { newVoucherCode } from '../codes.ts';
import { Voucher } from '../models.ts';
import { insertVoucherUnlessCodeTaken, voidUnusedVoucher } from '../queries.ts';

/**
 * The voucher's writes another module asks for through the door (a gift-voucher order, issue 36 §1), in that
 * module's transaction.
 */

export interface VoucherIssue {
  valueVnd: number;
  expiresAt: Date;
  recipientName: string | null;
  recipientEmail: string | null;
  note: string | null;
  /** Who issued it (`gift-voucher-order:GO-…`). */
  createdBy: string;
}

/** Issues a voucher with a generated code (`GV-XXXX-XXXX`), drawing again on the rare collision. */
export async function issueVoucher(trx: Knex.Transaction, issue: VoucherIssue, now: Date): Promise<Voucher> {
  for (let attempt = 0; attempt < 6; attempt++) {
    const id = await insertVoucherUnlessCodeTaken(trx, { ...issue, code: newVoucherCode() }, now);
    if (id) return (await Voucher.query(trx).findById(id))!;
  }
  throw new Error('issueVoucher: six generated voucher codes in a row were taken');
}

/** Voids a voucher nobody has used (its whole value left, never redeemed); false when it has been used. */
export const voidVoucherIfUnused = (trx: Knex.Transaction, voucherId: string, now: Date): Promise<boolean> => voidUnusedVoucher(trx, voucherId, now);
