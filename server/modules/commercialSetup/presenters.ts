import { iso } from '../presenting.ts';
import type { Schema } from '../../platform/http/handler.ts';
import type { CommercialSetup } from './models.ts';

export function presentCommercialSetup(setup: CommercialSetup): Schema<'CommercialSetup'> {
  return {
    bookingCutoffMinutes: setup.bookingCutoffMinutes,
    holdMinutes: setup.holdMinutes,
    cancellationWindowHours: setup.cancellationWindowHours,
    serviceChargePercent: setup.serviceChargePercent,
    vatPercent: setup.vatPercent,
    paymentGateways: [...setup.paymentGateways],
    defaultMaxGuests: setup.defaultMaxGuests,
    limitedAvailabilityThreshold: setup.limitedAvailabilityThreshold,
    payAtVenueMaxGuests: setup.payAtVenueMaxGuests,
    payAtVenueMaxDaysAhead: setup.payAtVenueMaxDaysAhead,
    payAtVenueOverLimit: setup.payAtVenueOverLimit,
    payAtVenueApprovalHours: setup.payAtVenueApprovalHours,
    bankTransferHoldHours: setup.bankTransferHoldHours,
    bankTransferReminderHours: setup.bankTransferReminderHours,
    giftVoucherAmountsVnd: [...setup.giftVoucherAmountsVnd],
    giftVoucherMinVnd: setup.giftVoucherMinVnd,
    giftVoucherMaxVnd: setup.giftVoucherMaxVnd,
    giftVoucherValidityMonths: setup.giftVoucherValidityMonths,
    updatedAt: iso(setup.updatedAt)!,
  };
}
