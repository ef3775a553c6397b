import type { operations } from '../../../../sdk/schema.d.ts';
import type { AppContext } from '../../../platform/context.ts';
import { Conflict, NotFound } from '../../../platform/http/problem.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import { Organization } from '../models.ts';
import { isUniqueViolation } from '../../../platform/db/uniqueViolation.ts';

export type UpdateOrganizationInput = operations['updateOrganization']['requestBody']['content']['application/json'];

/**
 * Renames an organization or changes its slug (409 `slug_taken`). `canonical` is never patched: renaming the
 * canonical organization keeps it canonical.
 */
export async function updateOrganization(app: Pick<AppContext, 'db' | 'logger'>, organizationId: string, body: UpdateOrganizationInput): Promise<Organization> {
  const patch: Partial<Organization> = {};
  if (body.name !== undefined) patch.name = body.name.trim();
  if (body.slug !== undefined) patch.slug = body.slug;
  try {
    const updated = await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => Organization.query(trx).patchAndFetchById(organizationId, patch));
    if (!updated) throw NotFound('No organization with this id.');
    return updated;
  } catch (err) {
    if (isUniqueViolation(err)) throw Conflict('slug_taken', `An organization with the slug ${body.slug} exists.`);
    throw err;
  }
}
