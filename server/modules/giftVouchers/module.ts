import type { ModuleRecord } from '../record.ts';
import { handlers } from './handlers.ts';
import { jobs } from './jobs.ts';
import { giftVouchersServices } from './limits.ts';
import { voucherOrderPayable } from './payable.ts';
import { policy } from './publicPolicy.ts';

/**
 * The `giftVouchers` module's record (server/modules/record.ts): gift vouchers sold online (issue 36 §1) — its
 * handlers, policy entries, the recipient's delivery queue, its payable (`voucher_order`) and its services. Imported
 * by server/modules/index.ts only; nothing else uses this module (it has no index.ts).
 */
export function record() {
  return { tag: 'giftVouchers', handlers, policy, jobs, payables: [voucherOrderPayable], services: giftVouchersServices } satisfies ModuleRecord;
}
