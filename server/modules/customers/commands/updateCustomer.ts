import type { AppContext } from '../../../platform/context.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import { isUniqueViolation } from '../../../platform/db/uniqueViolation.ts';
import { normalizeEmail } from '../../booking/index.ts';
import { Customer } from '../models.ts';
import { CustomerDeleted, EmailTaken, lockCustomer, noteCustomerEmail } from '../queries.ts';

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
      const changes: Partial<Pick<Customer, 'honorific' | 'name' | 'phone' | 'locale' | 'email' | 'emailNormalized'>> = {};
      if (patch.honorific !== undefined) changes.honorific = patch.honorific;
      if (patch.name !== undefined) changes.name = patch.name.trim();
      if (patch.phone !== undefined) changes.phone = patch.phone;
      if (patch.locale !== undefined) changes.locale = patch.locale;
      if (patch.email !== undefined) {
        const email = patch.email.trim();
        changes.email = email;
        changes.emailNormalized = normalizeEmail(email);
      }
      const updated = await Customer.query(trx).patchAndFetchById(id, changes);
      if (patch.email !== undefined) await noteCustomerEmail(trx, id, updated.email, updated.emailNormalized);
      return updated;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw EmailTaken();
    throw err;
  }
}
