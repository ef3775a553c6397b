import type { AppContext } from '../../../platform/context.ts';
import { ValidationFailed, type FieldError } from '../../../platform/http/problem.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import type { StaffActor } from '../../../domain/actors.ts';
import { publish } from '../../../domain/events.ts';
import { CommercialSetup } from '../models.ts';

export type CommercialSetupPatch = Partial<Pick<CommercialSetup, 'bookingCutoffMinutes' | 'holdMinutes' | 'cancellationWindowHours' | 'serviceChargePercent' | 'vatPercent' | 'paymentGateways' | 'defaultMaxGuests' | 'limitedAvailabilityThreshold' | 'payAtVenueMaxGuests' | 'payAtVenueMaxDaysAhead' | 'payAtVenueOverLimit' | 'payAtVenueApprovalHours' | 'bankTransferHoldHours' | 'bankTransferReminderHours' | 'giftVoucherAmountsVnd' | 'giftVoucherMinVnd' | 'giftVoucherMaxVnd' | 'giftVoucherValidityMonths'>>;

/**
 * Updates the setup. Percentages are `numeric(5,2)`: a third decimal would be rounded away silently, so it is a
 * 400 instead (JSON Schema's `multipleOf: 0.01` cannot say this reliably with binary floats).
 */
export async function updateCommercialSetup(app: AppContext, patch: CommercialSetupPatch, actor: StaffActor): Promise<CommercialSetup> {
  const errors: FieldError[] = [];
  for (const field of ['serviceChargePercent', 'vatPercent'] as const) {
    const value = patch[field];
    if (value !== undefined && Math.abs(Math.round(value * 100) - value * 100) > 1e-6) {
      errors.push({ path: `body/${field}`, message: 'must have at most two decimals', code: 'multipleOf' });
    }
  }
  if (errors.length) throw ValidationFailed(errors);
  return inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx, now, afterCommit }) => {
    const current = (await CommercialSetup.query(trx).findById(1).forUpdate())!;
    checkGiftVoucherBounds({ ...current, ...patch });
    await publish({ trx, app, actor, now, afterCommit }, 'catalog.changed', { entity: 'commercialSetup' });
    return (await CommercialSetup.query(trx).patchAndFetchById(1, patch))!;
  });
}

/**
 * A gift voucher's free amount has both bounds or neither (only the listed amounts), the lower at most the upper: a
 * 400 naming the bound that breaks it, judged on the setup as the patch leaves it.
 */
function checkGiftVoucherBounds(setup: Pick<CommercialSetup, 'giftVoucherMinVnd' | 'giftVoucherMaxVnd'>): void {
  const { giftVoucherMinVnd: min, giftVoucherMaxVnd: max } = setup;
  if ((min === null) !== (max === null)) {
    const missing = min === null ? 'giftVoucherMinVnd' : 'giftVoucherMaxVnd';
    throw ValidationFailed([{ path: `body/${missing}`, message: 'both bounds of a free gift-voucher amount are set, or neither', code: 'required' }]);
  }
  if (min !== null && max !== null && min > max) throw ValidationFailed([{ path: 'body/giftVoucherMinVnd', message: 'must be at most giftVoucherMaxVnd', code: 'maximum' }]);
}
