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
    updatedAt: iso(setup.updatedAt)!,
  };
}
