import { NotFound } from '../../../platform/http/problem.ts';
import type { StorageDriver } from '../../../platform/storage/driver.ts';
import { StorageBlob } from '../models.ts';

/**
 * Deletes a blob's object; the row stays with `objectDeletedAt` set (spec §2.3). The object goes first: should
 * the row's update then fail, the row still says the object exists, and the cleanup will mark it. Deleting an
 * already deleted object is a no-op that returns the row.
 */
export async function deleteBlobObject(storage: StorageDriver, id: string): Promise<StorageBlob> {
  const blob = await StorageBlob.query().findById(id);
  if (!blob) throw NotFound('No such blob.');
  if (blob.objectDeletedAt) return blob;
  await storage.delete(blob.key);
  return StorageBlob.transaction(async (trx) => {
    const updated = await StorageBlob.query(trx).patchAndFetchById(id, { objectDeletedAt: new Date() });
    return updated ?? blob;
  });
}
