import { BaseModel } from '../../platform/db/model.ts';

export const PAYMENT_GATEWAYS = ['VNPAY', 'CASH'] as const;
export type PaymentGateway = (typeof PAYMENT_GATEWAYS)[number];

/** The one-row commercial setup (id 1, written by the catalog migration): every quoted price derives from it. */
export class CommercialSetup extends BaseModel {
  static override tableName = 'commercial_setup';
  static override jsonAttributes = ['paymentGateways', 'giftVoucherAmountsVnd'];
  bookingCutoffMinutes!: number;
  holdMinutes!: number;
  cancellationWindowHours!: number;
  serviceChargePercent!: number;
  vatPercent!: number;
  paymentGateways!: PaymentGateway[];
  defaultMaxGuests!: number;
  limitedAvailabilityThreshold!: number;
  /** Paying later (issue 34 §1; migrations/20261207000000_pay_later.ts): the caps of paying at the venue, and what is done above them. */
  payAtVenueMaxGuests!: number | null;
  payAtVenueMaxDaysAhead!: number | null;
  payAtVenueOverLimit!: 'REFUSE' | 'STAFF_APPROVAL';
  payAtVenueApprovalHours!: number;
  /** How long a bank transfer keeps the seats, from the booking; its reminder, before that. */
  bankTransferHoldHours!: number;
  bankTransferReminderHours!: number;
  /**
   * Gift vouchers sold online (issue 36 §1; migrations/20261212000000_gift_vouchers.ts): the amounts offered, the
   * bounds of an amount the buyer chooses (both null: only the listed ones), and how long a sold voucher is valid.
   */
  giftVoucherAmountsVnd!: number[];
  giftVoucherMinVnd!: number | null;
  giftVoucherMaxVnd!: number | null;
  giftVoucherValidityMonths!: number;

  // numeric arrives as a string from pg.
  override $parseDatabaseJson(json: Record<string, unknown>) {
    const parsed = super.$parseDatabaseJson(json);
    for (const key of ['serviceChargePercent', 'vatPercent']) {
      if (parsed[key] !== undefined && parsed[key] !== null) parsed[key] = Number(parsed[key]);
    }
    return parsed;
  }
}
