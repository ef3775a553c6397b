import type { operations } from '../../../../sdk/schema.d.ts';
import type { AppContext } from '../../../platform/context.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import { GuestProfile } from '../models.ts';
import { findProfileView, type ProfileView } from '../queries.ts';

export type OwnProfileUpdate = operations['updateOwnProfile']['requestBody']['content']['application/json'];

/** The guest changes their display name or dietary preferences (a profile deleted meanwhile stays as it is). */
export async function updateOwnProfile(app: Pick<AppContext, 'db' | 'logger'>, profile: ProfileView, input: OwnProfileUpdate): Promise<ProfileView> {
  return inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    const fields: Partial<GuestProfile> = {};
    if (input.displayName !== undefined) fields.displayName = input.displayName.trim();
    if (input.dietaryPreferences !== undefined) fields.dietaryPreferences = [...new Set(input.dietaryPreferences)];
    if (input.dietaryNote !== undefined) fields.dietaryNote = input.dietaryNote;
    await GuestProfile.query(trx).where({ id: profile.id, is_deleted: false }).patch(fields);
    return (await findProfileView(profile.id, trx))!;
  });
}
