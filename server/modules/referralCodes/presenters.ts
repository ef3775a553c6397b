import { iso } from '../presenting.ts';
import type { Schema } from '../../platform/http/handler.ts';
import type { ReferralCode } from './models.ts';

export function presentCode(code: ReferralCode): Schema<'Code-3'> {
  return {
    id: code.id,
    code: code.code,
    partnerId: code.partnerId,
    status: code.status,
    guestDiscount: code.guestDiscountPercent > 0,
    guestDiscountPercent: code.guestDiscountPercent,
    commissionRule: code.commissionKind !== null && code.commissionValue !== null ? { kind: code.commissionKind, value: code.commissionValue } : null,
    description: code.description,
    archivedAt: iso(code.archivedAt),
    createdAt: iso(code.createdAt)!,
    updatedAt: iso(code.updatedAt)!,
  };
}
