import { testDatabase } from '../../helpers/database.ts';

/** The payments module's rows (payments and their refunds). */

let txn = 0;
/**
 * A payment of the reservation (VNPAY unless told), with its refunds. The refunded amount is the succeeded
 * refunds' sum and the status follows from it (SUCCEEDED, PARTIALLY_REFUNDED, REFUNDED) unless told; a FAILED
 * or PENDING payment has no success time. Answers its id.
 */
export async function buildPayment(
  reservationId: string,
  fields: {
    amount: number;
    gateway?: string;
    status?: string;
    refundedVnd?: number;
    txnRef?: string;
    note?: string;
    refunds?: Array<{ amount: number; status?: string; reason?: string; gatewayRefundId?: string }>;
  },
): Promise<string> {
  const { knex } = await testDatabase();
  const succeededRefunds = (fields.refunds ?? []).filter((r) => (r.status ?? 'SUCCEEDED') === 'SUCCEEDED').reduce((a, r) => a + r.amount, 0);
  const status = fields.status ?? (succeededRefunds === 0 ? 'SUCCEEDED' : succeededRefunds >= fields.amount ? 'REFUNDED' : 'PARTIALLY_REFUNDED');
  const [payment] = await knex('payments')
    .insert({
      reservation_id: reservationId,
      gateway: fields.gateway ?? 'VNPAY',
      status,
      amount_vnd: fields.amount,
      refunded_vnd: fields.refundedVnd ?? succeededRefunds,
      txn_ref: fields.txnRef ?? `TXN${Date.now()}${++txn}`,
      note: fields.note ?? null,
      succeeded_at: status === 'FAILED' || status === 'PENDING' ? null : new Date(),
    })
    .returning('id');
  for (const refund of fields.refunds ?? []) {
    await knex('refunds').insert({
      payment_id: payment.id,
      amount_vnd: refund.amount,
      status: refund.status ?? 'SUCCEEDED',
      reason: refund.reason ?? null,
      gateway_refund_id: refund.gatewayRefundId ?? null,
    });
  }
  return payment.id;
}
