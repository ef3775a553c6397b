import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

export const CONTRACT_PATH = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../openapi.yaml');

export const ACCESS_LEVELS = ['public', 'session', 'staff', 'admin', 'superuser', 'disabled'] as const;
export type Access = (typeof ACCESS_LEVELS)[number];
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

export type JsonSchema = Record<string, unknown>;

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  schema: JsonSchema;
}

export interface Operation {
  operationId: string;
  method: string; // upper case
  path: string; // OpenAPI form: /api/sudo/users/{userId}
  tags: string[];
  access: Access;
  permission?: string;
  apiKey: 'allow' | 'deny';
  parameters: Parameter[];
  requestBody?: RequestBody;
  /** Status ("200", "default") → content type → schema (undefined when the response has no body). */
  responses: Record<string, Record<string, JsonSchema | undefined>>;
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

/** Problems found while reading the contract; boot refuses to continue when there are any. */
export class ContractError extends Error {
  constructor(readonly problems: string[]) {
    super(`openapi.yaml is not servable:\n  - ${problems.join('\n  - ')}`);
  }
}

export function loadContract(file = CONTRACT_PATH): Contract {
  const text = fs.readFileSync(file, 'utf8');
  const document = parse(text) as Record<string, any>;
  const problems: string[] = [];
  const operations: Operation[] = [];
  const resolve = <T>(node: any): T => {
    let current = node;
    for (let hops = 0; current && typeof current.$ref === 'string' && hops < 10; hops++) {
      current = current.$ref
        .replace(/^#\//, '')
        .split('/')
        .reduce((acc: any, key: string) => acc?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], document);
    }
    return current as T;
  };

  for (const [routePath, pathItem] of Object.entries<any>(document.paths ?? {})) {
    const shared = (pathItem.parameters ?? []).map((p: unknown) => resolve<Parameter>(p));
    for (const method of METHODS) {
      const op = pathItem[method];
      if (!op) continue;
      const where = `${method.toUpperCase()} ${routePath}`;
      if (!op.operationId) problems.push(`${where}: no operationId`);
      const access = op['x-access'];
      if (!ACCESS_LEVELS.includes(access)) problems.push(`${where}: x-access must be one of ${ACCESS_LEVELS.join(', ')}`);
      const needsPermission = ['staff', 'admin', 'superuser'].includes(access);
      if (needsPermission && !/^[a-z][a-z0-9-]*:[a-z][a-z0-9-]*$/.test(op['x-permission'] ?? '')) {
        problems.push(`${where}: x-access ${access} needs x-permission <resource>:<action>`);
      }
      const own = (op.parameters ?? []).map((p: unknown) => resolve<Parameter>(p));
      const parameters = [...shared.filter((s: Parameter) => !own.some((o: Parameter) => o.name === s.name && o.in === s.in)), ...own];
      const body = op.requestBody ? resolve<any>(op.requestBody) : undefined;
      const responses: Operation['responses'] = {};
      for (const [status, response] of Object.entries<any>(op.responses ?? {})) {
        const resolved = resolve<any>(response);
        responses[status] = {};
        for (const [type, media] of Object.entries<any>(resolved?.content ?? {})) responses[status][type] = media.schema;
      }
      operations.push({
        operationId: op.operationId,
        method: method.toUpperCase(),
        path: routePath,
        tags: op.tags ?? [],
        access,
        permission: op['x-permission'],
        apiKey: op['x-api-key'] === 'deny' ? 'deny' : 'allow',
        parameters: parameters.map((p: any) => ({ name: p.name, in: p.in, required: Boolean(p.required), schema: p.schema ?? {} })),
        requestBody: body ? readRequestBody(op, body, where, problems) : undefined,
        responses,
      });
    }
  }
  const seen = new Set<string>();
  for (const op of operations) {
    if (seen.has(op.operationId)) problems.push(`operationId ${op.operationId} is used twice`);
    seen.add(op.operationId);
  }
  if (problems.length) throw new ContractError(problems);
  return { text, document, operations };
}

const byteLimit = (value: unknown, where: string, problems: string[]): number | undefined => {
  if (value === undefined) return undefined;
  if (Number.isSafeInteger(value) && (value as number) > 0) return value as number;
  problems.push(`${where}: x-max-upload-bytes must be a positive whole number of bytes`);
  return undefined;
};

function readRequestBody(op: any, body: any, where: string, problems: string[]): RequestBody {
  const media: Record<string, MediaType> = {};
  for (const [type, m] of Object.entries<any>(body.content ?? {})) {
    const encoding: MediaType['encoding'] = {};
    for (const [field, enc] of Object.entries<any>(m?.encoding ?? {})) {
      encoding[field] = {
        contentType: typeof enc?.contentType === 'string' ? enc.contentType.split(',').map((t: string) => t.trim().toLowerCase()).filter(Boolean) : undefined,
      };
    }
    media[type.toLowerCase()] = { schema: m?.schema ?? {}, maxBytes: byteLimit(m?.['x-max-upload-bytes'], `${where} ${type}`, problems), encoding };
  }
  if (op['x-raw-body'] !== undefined && typeof op['x-raw-body'] !== 'boolean') problems.push(`${where}: x-raw-body must be true or false`);
  return {
    required: Boolean(body.required),
    content: Object.fromEntries(Object.entries(media).map(([t, m]) => [t, m.schema])),
    media,
    maxBytes: byteLimit(op['x-max-upload-bytes'], where, problems),
    rawBody: op['x-raw-body'] === true,
  };
}

/** `/api/sudo/users/{userId}` → `/api/sudo/users/:userId` for @koa/router. */
export function toRouterPath(openApiPath: string): string {
  return openApiPath.replace(/\{([^}]+)\}/g, ':$1');
}

/** Every permission an API key can be given: the x-permission of each operation keys may call. */
export function grantablePermissions(contract: Contract): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const op of contract.operations) {
    if (!op.permission || op.apiKey === 'deny' || op.access === 'disabled') continue;
    map.set(op.permission, [...(map.get(op.permission) ?? []), op.operationId]);
  }
  return new Map([...map.entries()].sort(([a], [b]) => a.localeCompare(b)));
}
