import { randomBytes } from 'node:crypto';
import { testDatabase } from '../../helpers/database.ts';

/** The profiles module's rows. */

/** A guest profile of the reservation (a party member with dietary needs); answers its id. */
export async function buildGuestProfile(
  reservationId: string,
  fields: { displayName: string; dietaryPreferences?: string[]; dietaryNote?: string | null; deleted?: boolean },
): Promise<string> {
  const { knex } = await testDatabase();
  const [row] = await knex('guest_profiles')
    .insert({
      reservation_id: reservationId,
      display_name: fields.displayName,
      dietary_preferences: JSON.stringify(fields.dietaryPreferences ?? []),
      dietary_note: fields.dietaryNote ?? null,
      token_hash: randomBytes(32),
      is_deleted: fields.deleted ?? false,
      deleted_at: fields.deleted ? new Date() : null,
    })
    .returning('id');
  return row.id;
}
