import { createHash, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { checkFileType } from '../../platform/http/body.ts';
import type { UploadedFile } from '../../platform/http/handler.ts';
import { PayloadTooLarge, ValidationFailed } from '../../platform/http/problem.ts';
import type { StorageDriver } from '../../platform/storage/driver.ts';
import { BLOB_PURPOSES, StorageBlob, type BlobPurpose } from './models.ts';
import { EXTENSIONS, PURPOSES } from './purposes.ts';

export interface UploadBlobInput {
  purpose: BlobPurpose;
  /** The type the caller declared (the part's or the request's Content-Type). */
  contentType: string;
  body: Readable | Buffer | Uint8Array;
  originalFilename?: string | null;
  uploadedByAccountId?: string | null;
  /** Where the bytes came from, for error paths (`body/file`, `body`). */
  field?: string;
}

/** An upload as the operation receives it: a multipart form (its `file` and `purpose` fields) or a raw body. */
export interface UploadRequest {
  /** The form's `file` part, when the body is multipart/form-data. */
  file: UploadedFile | undefined;
  /** The form's `purpose` field (multipart). */
  formPurpose: BlobPurpose | undefined;
  /** `?purpose=` and `?filename=` (a raw body). */
  query: { purpose?: BlobPurpose; filename?: string };
  /** The request's media type and bytes (a raw body). */
  contentType: string | undefined;
  rawBody: Buffer | undefined;
  uploadedByAccountId: string | null;
}

/**
 * The upload's input from the request: a multipart form names its purpose as a form field (never in the query), a
 * raw body in the query (required there).
 */
export function uploadInputFrom(request: UploadRequest): UploadBlobInput {
  const { file, query } = request;
  if (file) {
    if (query.purpose !== undefined) {
      throw ValidationFailed([{ path: 'query/purpose', message: 'send purpose as a form field with a multipart body', code: 'not_allowed' }]);
    }
    return {
      purpose: request.formPurpose!,
      contentType: file.contentType,
      body: file.bytes,
      originalFilename: file.filename || null,
      uploadedByAccountId: request.uploadedByAccountId,
      field: 'body/file',
    };
  }
  if (!query.purpose) throw ValidationFailed([{ path: 'query/purpose', message: 'is required with a raw body', code: 'required' }]);
  return {
    purpose: query.purpose,
    contentType: request.contentType!,
    body: request.rawBody!,
    originalFilename: query.filename ?? null,
    uploadedByAccountId: request.uploadedByAccountId,
    field: 'body',
  };
}

/** file-type reads at most this much to decide. */
const SNIFF_BYTES = 4100;

/**
 * Upload: the purpose's size limit and types; the declared type must be what the magic bytes say; the bytes
 * streamed to the store while their SHA-256 and length are computed; then the row, in its own transaction.
 * Nothing is left behind on a failure: a refused or broken stream stores no object, and a row that cannot be
 * written takes its object with it.
 */
export async function storeBlob(storage: StorageDriver, input: UploadBlobInput): Promise<StorageBlob> {
  const field = input.field ?? 'body/file';
  const rule = PURPOSES[input.purpose];
  if (!rule) throw ValidationFailed([{ path: 'body/purpose', message: `must be one of: ${BLOB_PURPOSES.join(', ')}`, code: 'enum' }]);
  const declared = input.contentType.toLowerCase().split(';')[0].trim();

  const source = (input.body instanceof Readable ? input.body : Readable.from([Buffer.from(input.body)]))[Symbol.asyncIterator]();
  // The first bytes decide the type before anything is stored.
  const head: Buffer[] = [];
  let headLength = 0;
  let ended = false;
  while (headLength < SNIFF_BYTES) {
    const next = await source.next();
    if (next.done) {
      ended = true;
      break;
    }
    const chunk = Buffer.from(next.value);
    head.push(chunk);
    headLength += chunk.length;
  }
  if (headLength > rule.maxBytes) throw tooLarge(input.body, rule.maxBytes);
  const detected = await checkFileType(Buffer.concat(head), declared, field, rule.types);

  const hash = createHash('sha256');
  let size = 0;
  const counted = Readable.from(
    (async function* () {
      const take = (chunk: Buffer) => {
        size += chunk.length;
        if (size > rule.maxBytes) throw PayloadTooLarge(rule.maxBytes);
        hash.update(chunk);
        return chunk;
      };
      for (const chunk of head) yield take(chunk);
      if (ended) return;
      for (let next = await source.next(); !next.done; next = await source.next()) yield take(Buffer.from(next.value));
    })(),
    { objectMode: false },
  );

  const now = new Date();
  const ext = EXTENSIONS[declared] ?? (detected ? undefined : 'bin');
  const key = `${input.purpose}/${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, '0')}/${randomUUID()}${ext ? `.${ext}` : ''}`;
  try {
    await storage.put(key, counted, { contentType: declared });
  } catch (err) {
    await storage.delete(key).catch(() => false);
    throw err;
  }

  try {
    return await StorageBlob.transaction(async (trx) =>
      StorageBlob.query(trx).insertAndFetch({
        key,
        contentType: declared,
        byteSize: size,
        sha256: hash.digest('hex'),
        purpose: input.purpose,
        originalFilename: input.originalFilename ? input.originalFilename.replace(/\u0000/g, '').slice(0, 255) : null,
        uploadedByAccountId: input.uploadedByAccountId ?? null,
      }),
    );
  } catch (err) {
    await storage.delete(key).catch(() => false);
    throw err;
  }
}

function tooLarge(body: UploadBlobInput['body'], limit: number) {
  if (body instanceof Readable) body.destroy();
  return PayloadTooLarge(limit);
}
