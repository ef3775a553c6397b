import type { StorageDriver } from '../../../platform/storage/driver.ts';
import { listAll } from '../../../platform/storage/driver.ts';
import { StorageBlob } from '../models.ts';

export interface CleanupOptions {
  /** Report what would be done, change nothing. */
  dryRun?: boolean;
  /**
   * Objects younger than this are never treated as orphans: an upload stores its object a moment before it
   * writes its row.
   */
  graceSeconds?: number;
  now?: Date;
}

export interface CleanupReport {
  dryRun: boolean;
  objectsScanned: number;
  rowsScanned: number;
  /** Objects without a row, deleted (or, dry run, that would be). */
  orphanObjectsDeleted: string[];
  /** Objects without a row, kept because they are younger than the grace period. */
  orphanObjectsKeptRecent: string[];
  /** Rows (ids) whose object is gone, now marked `objectDeletedAt`. */
  rowsMarkedMissing: string[];
}

/**
 * Hard cleanup: objects that no row names are deleted; rows whose object is gone are marked. Rows written
 * after the store was listed are left alone, and each missing object is checked once more before its row
 * is marked, so uploads running meanwhile are not mistaken for either.
 */
export async function cleanupStorage(storage: StorageDriver, options: CleanupOptions = {}): Promise<CleanupReport> {
  const dryRun = options.dryRun ?? false;
  const now = options.now ?? new Date();
  const graceMs = (options.graceSeconds ?? 3600) * 1000;
  const listedAt = new Date();
  const objects = new Map<string, Date>();
  for await (const object of listAll(storage)) objects.set(object.key, object.lastModified);

  const rows = await StorageBlob.query().select('id', 'key', 'object_deleted_at', 'created_at');
  const rowKeys = new Set(rows.map((row) => row.key));
  const report: CleanupReport = {
    dryRun,
    objectsScanned: objects.size,
    rowsScanned: rows.length,
    orphanObjectsDeleted: [],
    orphanObjectsKeptRecent: [],
    rowsMarkedMissing: [],
  };

  for (const [key, lastModified] of objects) {
    if (rowKeys.has(key)) continue;
    if (now.getTime() - lastModified.getTime() < graceMs) {
      report.orphanObjectsKeptRecent.push(key);
      continue;
    }
    if (!dryRun) await storage.delete(key);
    report.orphanObjectsDeleted.push(key);
  }

  const missing: string[] = [];
  for (const row of rows) {
    if (row.objectDeletedAt || objects.has(row.key) || new Date(row.createdAt) >= listedAt) continue;
    if (await storage.head(row.key)) continue;
    missing.push(row.id);
  }
  if (missing.length && !dryRun) {
    await StorageBlob.transaction(async (trx) => StorageBlob.query(trx).patch({ objectDeletedAt: new Date() }).whereIn('id', missing).whereNull('object_deleted_at'));
  }
  report.rowsMarkedMissing = missing;
  report.orphanObjectsDeleted.sort();
  report.orphanObjectsKeptRecent.sort();
  return report;
}
