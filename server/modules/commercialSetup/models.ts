import { BaseModel } from '../../platform/db/model.ts';

export const PAYMENT_GATEWAYS = ['VNPAY', 'CASH'] as const;
export type PaymentGateway = (typeof PAYMENT_GATEWAYS)[number];

/** The one-row commercial setup (id 1, written by the catalog migration): every quoted price derives from it. */
export class CommercialSetup extends BaseModel {
  static override tableName = 'commercial_setup';
  static override jsonAttributes = ['paymentGateways'];
  bookingCutoffMinutes!: number;
  holdMinutes!: number;
  cancellationWindowHours!: number;
  serviceChargePercent!: number;
  vatPercent!: number;
  paymentGateways!: PaymentGateway[];
  defaultMaxGuests!: number;
  limitedAvailabilityThreshold!: number;

  // numeric arrives as a string from pg.
  override $parseDatabaseJson(json: Record<string, unknown>) {
    const parsed = super.$parseDatabaseJson(json);
    for (const key of ['serviceChargePercent', 'vatPercent']) {
      if (parsed[key] !== undefined && parsed[key] !== null) parsed[key] = Number(parsed[key]);
    }
    return parsed;
  }
}
