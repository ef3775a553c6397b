import type { Knex } from 'knex';
import type { CallbackQuery } from '../../../platform/integrations/vnpay.ts';
import { PaymentCallback } from '../models.ts';

/**
 * The audit of VNPay's two callbacks (./vnpayIpn.ts, ./vnpayReturn.ts): every one received is written to
 * `payment_callbacks` whatever happens, in the IPN's transaction when it has one, else on its own.
 */

/** The `vnp_*` parameters as received (single values; a repeated key keeps its first value), for the audit. */
export function auditParams(query: CallbackQuery): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [key, value] of Object.entries(query)) {
    if (!key.startsWith('vnp_')) continue;
    const single = Array.isArray(value) ? value[0] : value;
    if (single !== undefined) params[key] = String(single).slice(0, 1000);
  }
  return params;
}

export async function auditCallback(knex: Knex, row: { kind: 'IPN' | 'RETURN'; paymentId: string | null; txnRef: string | undefined; params: Record<string, string>; valid: boolean; outcome: string | null }): Promise<void> {
  await PaymentCallback.query(knex).insert({
    gateway: 'VNPAY',
    kind: row.kind,
    paymentId: row.paymentId,
    txnRef: row.txnRef?.slice(0, 200) ?? null,
    params: row.params,
    signatureValid: row.valid,
    outcome: row.outcome,
  });
}
