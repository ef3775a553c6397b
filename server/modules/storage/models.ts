import { BaseModel } from '../../platform/db/model.ts';

export const BLOB_PURPOSES = ['show-image', 'sticker', 'seed-asset', 'attachment'] as const;
export type BlobPurpose = (typeof BLOB_PURPOSES)[number];

/** A stored object's row (spec §2.3). The row outlives its object: `objectDeletedAt` says when the object went. */
export class StorageBlob extends BaseModel {
  static override tableName = 'storage_blobs';
  key!: string;
  contentType!: string;
  byteSize!: number;
  sha256!: string;
  purpose!: BlobPurpose;
  originalFilename!: string | null;
  uploadedByAccountId!: string | null;
  objectDeletedAt!: Date | null;

  // bigint arrives as a string from pg.
  override $parseDatabaseJson(json: Record<string, unknown>) {
    const parsed = super.$parseDatabaseJson(json);
    if (parsed.byteSize !== undefined && parsed.byteSize !== null) parsed.byteSize = Number(parsed.byteSize);
    return parsed;
  }
}
