import type { Logger } from '../logger.ts';
import type { AuthContext } from '../auth/context.ts';

export { ANONYMOUS, type AuthContext, type AuthSource } from '../auth/context.ts';

/** One file of a multipart/form-data request, held in memory (never in a temp dir), already size- and type-checked. */
export interface UploadedFile {
  /** The form field it came in. */
  field: string;
  /** The client's file name (may be empty); never use it as a path. */
  filename: string;
  /** The part's declared Content-Type (lower case, no parameters). */
  contentType: string;
  /** What the magic bytes say (file-type), when they say anything. */
  detectedType?: string;
  size: number;
  bytes: Buffer;
}

export interface AppState {
  requestId: string;
  log: Logger;
  auth: AuthContext;
  /** Set by the body parser when the request carried a body. */
  hasBody?: boolean;
  /** The declared media type the body was taken as (lower case, no parameters). */
  mediaType?: string;
  /** The body's bytes: raw media types, and JSON for operations with `x-raw-body: true`. */
  rawBody?: Buffer;
  /** multipart/form-data files by field. */
  files?: Record<string, UploadedFile[]>;
  /** What log lines name instead of the request's path (an `x-log-path: template` operation's template). */
  logPath?: string;
  /** The contract operation the request was routed to; set only while metrics or tracing observe requests. */
  operation?: { operationId: string; path: string };
}
