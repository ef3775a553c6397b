import busboy from 'busboy';
import type Koa from 'koa';
import type { JsonSchema, MediaType } from './contract.ts';
import type { UploadedFile } from './state.ts';
import { MalformedBody, PayloadTooLarge, Problem, UnsupportedMediaType, ValidationFailed, type FieldError } from './problem.ts';
import type { AppState } from './state.ts';

type Ctx = Koa.ParameterizedContext<AppState>;

/**
 * Past the limit: the rest of the request is read and dropped (so the client, still sending, gets the 413
 * instead of a reset), and the connection is closed after the reply.
 */
function refuse(ctx: Ctx, limit: number): Problem {
  ctx.set('Connection', 'close');
  ctx.req.unpipe();
  ctx.req.resume();
  return PayloadTooLarge(limit);
}

/** The request body as bytes, at most `limit` of them (413 past it, as soon as the excess is seen). */
export function readBody(ctx: Ctx, limit: number): Promise<Buffer> {
  const declared = Number(ctx.get('content-length') || NaN);
  if (declared > limit) return Promise.reject(refuse(ctx, limit));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const req = ctx.req;
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('aborted', onAborted);
    };
    const onData = (chunk: Buffer) => {
      total += chunk.length;
      if (total > limit) {
        cleanup();
        reject(refuse(ctx, limit));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks, total));
    };
    const onError = (err: Error) => {
      cleanup();
      reject(MalformedBody(`The body could not be read: ${err.message}`));
    };
    const onAborted = () => onError(new Error('the client went away'));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('aborted', onAborted);
  });
}

/** `image/png` against `image/png, image/*, *\/*`. */
export function typeMatches(type: string, patterns: string[]): boolean {
  return patterns.some((p) => p === '*/*' || p === type || (p.endsWith('/*') && type.startsWith(p.slice(0, -1))));
}

/**
 * Checks bytes against their declared type by magic bytes (file-type). A declared type outside `allowed` is
 * 415 (`unsupported_media_type`); bytes that are something else than the declared type are 400
 * (`file_type_mismatch`): detected as another type, or not detected although file-type knows the declared
 * one (a "PNG" without the PNG signature). Text types have no signature: they pass unless the bytes are a
 * known binary format. `application/octet-stream` claims nothing and is not compared.
 * Returns what the bytes were detected as.
 */
let fileType: Promise<typeof import('file-type')> | undefined;

export async function checkFileType(bytes: Uint8Array, declared: string, where: string, allowed?: string[]): Promise<string | undefined> {
  if (allowed && allowed.length && !typeMatches(declared, allowed)) {
    throw new Problem(415, 'unsupported_media_type', 'Unsupported media type', {
      detail: `${where} is ${declared}; accepted: ${allowed.join(', ')}.`,
      errors: [{ path: where, message: `must be one of: ${allowed.join(', ')}`, code: 'unsupported_file_type' }],
    });
  }
  // file-type is loaded at the first upload, not with the app (issue 25: a start serves no upload).
  const { fileTypeFromBuffer, supportedMimeTypes } = await (fileType ??= import('file-type'));
  const detected = (await fileTypeFromBuffer(bytes))?.mime;
  if (declared === 'application/octet-stream') return detected;
  const mismatch = detected ? detected !== declared : supportedMimeTypes.has(declared as never);
  if (mismatch) {
    const seen = detected ? `it looks like ${detected}` : 'its signature is missing';
    throw new Problem(400, 'file_type_mismatch', 'Content does not match its type', {
      detail: `${where} is declared as ${declared}, but ${seen}.`,
      errors: [{ path: where, message: `content is not ${declared} (${seen})`, code: 'file_type_mismatch' }],
    });
  }
  return detected;
}

/** Properties of a form schema that carry files: `format: binary`, `contentMediaType` or `contentEncoding` (or arrays of them). */
export function fileFields(schema: JsonSchema): Map<string, { many: boolean }> {
  const out = new Map<string, { many: boolean }>();
  const isFile = (s: any) => s && typeof s === 'object' && (s.format === 'binary' || s.contentMediaType !== undefined || s.contentEncoding !== undefined);
  for (const [name, prop] of Object.entries<any>((schema as any).properties ?? {})) {
    if (isFile(prop)) out.set(name, { many: false });
    else if (prop?.type === 'array' && isFile(prop.items)) out.set(name, { many: true });
  }
  return out;
}

const MAX_FIELDS = 100;
const MAX_FIELD_BYTES = 64 * 1024;

/**
 * multipart/form-data, in memory: at most `limit` bytes of body in all (413 past it), files kept as Buffers
 * (no temp files), each file checked by magic bytes against its part type and the media type's `encoding`.
 * Returns the text fields (a file field holds its file's name, so the schema sees it) and the files.
 */
export function parseMultipart(
  ctx: Ctx,
  media: MediaType,
  limit: number,
): Promise<{ fields: Record<string, unknown>; files: Record<string, UploadedFile[]> }> {
  const declared = Number(ctx.get('content-length') || NaN);
  if (declared > limit) return Promise.reject(refuse(ctx, limit));
  const fileProps = fileFields(media.schema);
  const arrays = new Set(Object.entries<any>((media.schema as any).properties ?? {}).filter(([, p]) => p?.type === 'array').map(([n]) => n));
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: ctx.req.headers, limits: { fields: MAX_FIELDS, fieldSize: MAX_FIELD_BYTES, fileSize: limit, parts: MAX_FIELDS + 20 } });
  } catch (err) {
    return Promise.reject(MalformedBody(`The multipart body cannot be read: ${(err as Error).message}.`));
  }
  return new Promise((resolve, reject) => {
    const fields: Record<string, unknown> = {};
    const files: Record<string, UploadedFile[]> = {};
    const errors: FieldError[] = [];
    let settled = false;
    let total = 0;
    const fail = (problem: Problem) => {
      if (settled) return;
      settled = true;
      ctx.req.off('data', count);
      ctx.req.unpipe(parser);
      parser.removeAllListeners();
      parser.on('error', () => {});
      ctx.req.resume();
      reject(problem);
    };
    const count = (chunk: Buffer) => {
      total += chunk.length;
      if (total > limit) fail(refuse(ctx, limit));
    };
    const put = (name: string, value: unknown) => {
      if (arrays.has(name)) ((fields[name] ??= []) as unknown[]).push(value);
      else if (name in fields) errors.push({ path: `body/${name}`, message: 'must be sent once', code: 'duplicate_field' });
      else fields[name] = value;
    };

    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) errors.push({ path: `body/${name}`, message: `is over ${MAX_FIELD_BYTES} bytes`, code: 'maxLength' });
      if (fileProps.has(name)) errors.push({ path: `body/${name}`, message: 'must be a file', code: 'file_required' });
      else put(name, value);
    });
    parser.on('file', (name, stream, info) => {
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        chunks.push(chunk);
      });
      stream.on('limit', () => fail(refuse(ctx, limit)));
      stream.on('end', () => {
        if (settled) return;
        if (!fileProps.has(name)) {
          errors.push({ path: `body/${name}`, message: 'is not a file field', code: 'unexpected_file' });
          return;
        }
        const file: UploadedFile = {
          field: name,
          filename: info.filename ?? '',
          contentType: (info.mimeType || 'application/octet-stream').toLowerCase().split(';')[0].trim(),
          size,
          bytes: Buffer.concat(chunks, size),
        };
        (files[name] ??= []).push(file);
        put(name, file.filename);
      });
    });
    parser.on('filesLimit', () => fail(new Problem(413, 'payload_too_large', 'Payload too large', { detail: 'Too many files.' })));
    parser.on('fieldsLimit', () => fail(new Problem(413, 'payload_too_large', 'Payload too large', { detail: `More than ${MAX_FIELDS} fields.` })));
    parser.on('partsLimit', () => fail(new Problem(413, 'payload_too_large', 'Payload too large', { detail: 'Too many parts.' })));
    parser.on('error', (err: Error) => fail(MalformedBody(`The multipart body cannot be read: ${err.message}.`)));
    parser.on('close', () => {
      if (settled) return;
      ctx.req.off('data', count);
      (async () => {
        if (errors.length) throw ValidationFailed(errors);
        for (const [field, list] of Object.entries(files)) {
          for (const [index, file] of list.entries()) {
            const where = fileProps.get(field)!.many ? `body/${field}/${index}` : `body/${field}`;
            file.detectedType = await checkFileType(file.bytes, file.contentType, where, media.encoding[field]?.contentType);
          }
        }
        return { fields, files };
      })().then(
        (result) => {
          settled = true;
          resolve(result);
        },
        (problem) => {
          settled = true;
          reject(problem);
        },
      );
    });
    ctx.req.on('data', count);
    ctx.req.on('aborted', () => fail(MalformedBody('The client went away.')));
    ctx.req.pipe(parser);
  });
}

/** `application/json` (and `+json`) media types. */
export const isJsonType = (type: string) => type === 'application/json' || /^application\/[\w.-]+\+json$/.test(type);

/** Everything that is not JSON or a form is taken as raw bytes. */
export const isRawType = (type: string) => !isJsonType(type) && type !== 'multipart/form-data';

export { UnsupportedMediaType };
