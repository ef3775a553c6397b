import type { AppContext } from '../../../platform/context.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import { isUniqueViolation } from '../../../platform/db/uniqueViolation.ts';
import { type Customer, type CustomerChanges, normalizeEmail, patchCustomer } from '../../booking/index.ts';
import { CustomerDeleted, EmailTaken, lockCustomer } from '../queries.ts';

export interface CustomerPatch {
  honorific?: string | null;
  name?: string;
  email?: string;
  phone?: string | null;
  locale?: string | null;
}

/**
 * Changes contact fields in one transaction. A new e-mail is stored trimmed with its normalized key and goes
 * into the e-mail history; the live-row unique index turns a clash into 409 `email_taken`.
 */
export async function updateCustomer(app: AppContext, id: string, patch: CustomerPatch): Promise<Customer> {
  try {
    return await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
      const current = await lockCustomer(trx, id);
      if (current.isDeleted) throw CustomerDeleted();
      const changes: CustomerChanges = {};
      if (patch.honorific !== undefined) changes.honorific = patch.honorific;
      if (patch.name !== undefined) changes.name = patch.name.trim();
      if (patch.phone !== undefined) changes.phone = patch.phone;
      if (patch.locale !== undefined) changes.locale = patch.locale;
      if (patch.email !== undefined) {
        const email = patch.email.trim();
        changes.email = email;
        changes.emailNormalized = normalizeEmail(email);
      }
      return patchCustomer(trx, id, changes);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw EmailTaken();
    throw err;
  }
}
