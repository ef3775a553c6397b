import { testDatabase } from '../../helpers/database.ts';

/** The inquiries module's rows. */

/** An inquiry (NEW, GENERAL unless told); answers its id. */
export async function buildInquiry(fields: {
  name: string;
  email: string;
  message: string;
  type?: 'PRIVATE_EVENT' | 'GROUP_BOOKING' | 'CORPORATE' | 'GENERAL';
  status?: 'NEW' | 'IN_PROGRESS' | 'FOLLOWED_UP' | 'CLOSED' | 'ARCHIVED';
  preferredDate?: string;
  guests?: number;
  createdAt?: Date;
}): Promise<string> {
  const { knex } = await testDatabase();
  const [row] = await knex('inquiries')
    .insert({
      type: fields.type ?? 'GENERAL',
      status: fields.status ?? 'NEW',
      name: fields.name,
      email: fields.email,
      message: fields.message,
      preferred_date: fields.preferredDate ?? null,
      guest_count: fields.guests ?? null,
      archived_at: fields.status === 'ARCHIVED' ? new Date() : null,
      created_at: fields.createdAt ?? new Date(),
      updated_at: fields.createdAt ?? new Date(),
    })
    .returning('id');
  return row.id;
}
