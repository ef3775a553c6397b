import type { operations } from '../../../../sdk/schema.d.ts';
import type { AppContext } from '../../../platform/context.ts';
import { Conflict } from '../../../platform/http/problem.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import { Organization } from '../models.ts';
import { isUniqueViolation } from '../../../platform/db/uniqueViolation.ts';

export type CreateOrganizationInput = operations['createOrganization']['requestBody']['content']['application/json'];

/** Creates a (non-canonical) organization; the slug's uniqueness is the unique index's answer (409 `slug_taken`). */
export async function createOrganization(app: Pick<AppContext, 'db' | 'logger'>, body: CreateOrganizationInput): Promise<Organization> {
  try {
    return await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) =>
      Organization.query(trx).insertAndFetch({ name: body.name.trim(), slug: body.slug, canonical: false }),
    );
  } catch (err) {
    if (isUniqueViolation(err)) throw Conflict('slug_taken', `An organization with the slug ${body.slug} exists.`);
    throw err;
  }
}
