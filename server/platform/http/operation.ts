import type { Access } from './accessLevels.ts';

/** The contract as the server reads it (./contract.ts `loadContract`): its operations and their parts. Types only. */
export type JsonSchema = Record<string, unknown>;

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  schema: JsonSchema;
  /** JSON pointer of `schema` in the bundled document (validators refer to it there). */
  pointer: string;
}

export interface Operation {
  operationId: string;
  method: string; // upper case
  path: string; // OpenAPI form: /api/sudo/users/{userId}
  tags: string[];
  access: Access;
  permission?: string;
  /**
   * `x-api-key`: `allow` (default: a key holding `permission`), `deny` (no key, whatever it holds), or `any` (any
   * valid key, whatever its permission map; the operation then declares no `x-permission`).
   */
  apiKey: 'allow' | 'deny' | 'any';
  /** The declared security requirements (derived from x-access by the bundler; checked at boot). */
  security?: Array<Record<string, string[]>>;
  parameters: Parameter[];
  requestBody?: RequestBody;
  /** Status ("200", "default") → content type → schema (undefined when the response has no body). */
  responses: Record<string, Record<string, JsonSchema | undefined>>;
  /** `"<status> <content type>"` → JSON pointer of that response's schema in the bundled document. */
  responsePointers: Record<string, string>;
  /**
   * `x-log-path: template`: log lines name the route template (`/api/check-ins/by-token/{token}`) instead of
   * the request's path, for an operation that carries a secret in its path.
   */
  logTemplate?: boolean;
  /**
   * `x-deprecated-alias: { of: <operationId>, since: <YYYY-MM-DD> }` (with `deprecated: true`): this operation is
   * an older path of `of`, kept for one release. It is bound to the successor's handler, admits exactly who the
   * successor admits, and every answer carries `Deprecation` (RFC 9745) and `Link: <successor>; rel="successor-version"`.
   */
  alias?: DeprecatedAlias;
}

export interface DeprecatedAlias {
  /** The successor's operationId. */
  of: string;
  /**
   * When the alias was deprecated (RFC 9745 `Deprecation: @<unix seconds>`): a day already past, since RFC 9745
   * reads a future date as "will be deprecated then".
   */
  since: Date;
  /** The successor's path template (its `{params}` are filled from this request's path parameters of the same name). */
  successorPath: string;
}

/** One declared request media type. */
export interface MediaType {
  schema: JsonSchema;
  /** `x-max-upload-bytes` on the media type object; overrides the operation's. */
  maxBytes?: number;
  /** OpenAPI `encoding`: per form field, the accepted part types (`image/png, image/jpeg`, `image/*`). */
  encoding: Record<string, { contentType?: string[] }>;
}

export interface RequestBody {
  required: boolean;
  /** Media type → schema (`application/json`, `multipart/form-data`, `image/png` …). */
  content: Record<string, JsonSchema>;
  /** Media type → JSON pointer of its schema in the bundled document (validators refer to it there). */
  pointers: Record<string, string>;
  media: Record<string, MediaType>;
  /** `x-max-upload-bytes` on the operation: the largest non-JSON body (multipart or raw) it takes. */
  maxBytes?: number;
  /** `x-raw-body: true`: the handler also gets a JSON body's exact bytes (`call.rawBody`), e.g. for signatures. */
  rawBody: boolean;
}

export interface Contract {
  text: string;
  document: Record<string, any>;
  operations: Operation[];
}
