import { randomBytes, randomUUID } from 'node:crypto';
import { testDatabase } from '../../helpers/database.ts';

/** The storage module's rows. */

/** A stored blob's row, a PNG (no object is written: the specs only name it); answers its id and key. */
export async function buildBlob(overrides: { purpose?: string; deleted?: boolean } = {}): Promise<{ id: string; key: string }> {
  const { knex } = await testDatabase();
  const purpose = overrides.purpose ?? 'show-image';
  const id = randomUUID();
  // As uploads make them: a fresh uuid, not the row's id.
  const key = `${purpose}/2026/11/${randomUUID()}.png`;
  await knex('storage_blobs').insert({
    id,
    key,
    content_type: 'image/png',
    byte_size: 10,
    sha256: randomBytes(32).toString('hex'),
    purpose,
    object_deleted_at: overrides.deleted ? new Date() : null,
  });
  return { id, key };
}
