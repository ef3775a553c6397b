import type { AppContext } from '../../../platform/context.ts';
import { ValidationFailed, type FieldError } from '../../../platform/http/problem.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import type { StaffActor } from '../../../domain/actors.ts';
import { publish } from '../../../domain/events.ts';
import { CommercialSetup } from '../models.ts';

export type CommercialSetupPatch = Partial<Pick<CommercialSetup, 'bookingCutoffMinutes' | 'holdMinutes' | 'cancellationWindowHours' | 'serviceChargePercent' | 'vatPercent' | 'paymentGateways' | 'defaultMaxGuests' | 'limitedAvailabilityThreshold' | 'payAtVenueMaxGuests' | 'payAtVenueMaxDaysAhead' | 'payAtVenueOverLimit' | 'payAtVenueApprovalHours' | 'bankTransferHoldHours' | 'bankTransferReminderHours'>>;

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
    await publish({ trx, app, actor, now, afterCommit }, 'catalog.changed', { entity: 'commercialSetup' });
    return (await CommercialSetup.query(trx).patchAndFetchById(1, patch))!;
  });
}
