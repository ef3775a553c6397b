import { testDatabase } from '../../helpers/database.ts';

/** The waitlist module's rows. */

/** A waiting-list entry for the event (WAITING unless told); answers its id. */
export async function buildWaitlistEntry(
  eventId: string,
  fields: { name: string; email: string; guests?: number; status?: 'WAITING' | 'NOTIFIED' | 'CONVERTED' | 'EXPIRED'; note?: string; createdAt?: Date },
): Promise<string> {
  const { knex } = await testDatabase();
  const [row] = await knex('waitlist_entries')
    .insert({
      show_event_id: eventId,
      name: fields.name,
      email: fields.email,
      guest_count: fields.guests ?? 2,
      status: fields.status ?? 'WAITING',
      note: fields.note ?? null,
      created_at: fields.createdAt ?? new Date(),
      updated_at: fields.createdAt ?? new Date(),
    })
    .returning('id');
  return row.id;
}
