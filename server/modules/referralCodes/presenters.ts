import { iso } from '../presenting.ts';
import type { CodeRow } from './service.ts';

export function presentCode(row: CodeRow) {
  return {
    id: row.id,
    code: row.code,
    partnerId: row.partner_id,
    status: row.status,
    guestDiscount: row.guest_discount_percent > 0,
    guestDiscountPercent: row.guest_discount_percent,
    commissionRule: row.commission_kind !== null && row.commission_value !== null ? { kind: row.commission_kind, value: row.commission_value } : null,
    description: row.description,
    archivedAt: iso(row.archived_at),
    createdAt: iso(row.created_at)!,
    updatedAt: iso(row.updated_at)!,
  };
}
