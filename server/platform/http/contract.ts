import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { checkSecurity } from './access.ts';
import { ACCESS_LEVELS, isTokenLevel, type Access } from './accessLevels.ts';
import type { Contract, JsonSchema, MediaType, Operation, Parameter, RequestBody } from './operation.ts';

export const CONTRACT_PATH = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../openapi.yaml');
/**
 * openapi.yaml already parsed, written by the build (`npm run build`, server/cli/build.ts) with the digest of the
 * text it was parsed from: reading it takes milliseconds where parsing the 700 kB of YAML took half a second of
 * every start. Used only while the digest matches openapi.yaml; otherwise the YAML is parsed as before.
 */
export const CONTRACT_CACHE_PATH = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../.build/openapi.json');

/** The YAML parser, loaded only when the parsed copy cannot be used (CommonJS build of `yaml`). */
const parse = (text: string): unknown => (createRequire(import.meta.url)('yaml') as typeof import('yaml')).parse(text);

const digest = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * Writes the parsed contract beside the build (`file`), for loadContract to read instead of the YAML. Only a
 * servable contract is written (loadContract throws otherwise), so a document read from the cache needs no second
 * look for references to other files.
 */
export function writeContractCache(file = CONTRACT_CACHE_PATH, source = CONTRACT_PATH): void {
  const contract = loadContract(source, undefined);
  fs.writeFileSync(file, JSON.stringify({ sha256: digest(contract.text), document: contract.document }));
}

/** The parsed document from the cache when it was made from exactly `text`; undefined otherwise (or unreadable). */
function cachedDocument(text: string, cacheFile: string): Record<string, any> | undefined {
  let raw: string;
  try {
    raw = fs.readFileSync(cacheFile, 'utf8');
  } catch {
    return undefined;
  }
  // The digest is the first field: checked before the rest is parsed.
  const match = /^\{"sha256":"([0-9a-f]{64})",/.exec(raw.slice(0, 90));
  if (!match || match[1] !== digest(text)) return undefined;
  try {
    return (JSON.parse(raw) as { document: Record<string, any> }).document;
  } catch {
    return undefined;
  }
}

export { ACCESS_LEVELS, type Access };
export type { Contract, DeprecatedAlias, JsonSchema, MediaType, Operation, Parameter, RequestBody } from './operation.ts';
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

/** Problems found while reading the contract; boot refuses to continue when there are any. */
export class ContractError extends Error {
  constructor(readonly problems: string[]) {
    super(`openapi.yaml is not servable:\n  - ${problems.join('\n  - ')}`);
  }
}

/** JSON pointer escaping of one path segment. */
export const pointerSegment = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * Follows a local `$ref` (`#/components/...`) inside the bundled document: the one resolver for the
 * contract's path items, parameters, request bodies and responses (schemas are resolved by Ajv against the
 * document itself). Returns the node and its JSON pointer, from which validators refer to it.
 */
export function resolveRefAt<T = any>(document: Record<string, any>, node: unknown, pointer: string): { node: T; pointer: string } {
  let current: any = node;
  let at = pointer;
  for (let hops = 0; current && typeof current.$ref === 'string'; hops++) {
    if (hops >= 10) throw new ContractError([`$ref ${current.$ref}: more than 10 hops`]);
    const ref: string = current.$ref;
    if (!ref.startsWith('#/')) throw new ContractError([`$ref ${ref} points outside openapi.yaml: bundle the contract (npm run contract:bundle)`]);
    at = ref.slice(1);
    current = ref
      .slice(2)
      .split('/')
      .reduce((acc: any, key: string) => acc?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], document);
    if (current === undefined) throw new ContractError([`$ref ${ref} points at nothing`]);
  }
  return { node: current as T, pointer: at };
}

export const resolveRef = <T = any>(document: Record<string, any>, node: unknown): T => resolveRefAt<T>(document, node, '').node;

/** Every `$ref` of the document that is not local: the bundle must hold them all. */
function externalRefs(node: unknown, out: string[] = []): string[] {
  const stack = [node];
  while (stack.length) {
    const current = stack.pop();
    if (Array.isArray(current)) stack.push(...current);
    else if (current && typeof current === 'object') {
      for (const [key, value] of Object.entries(current)) {
        if (key === '$ref' && typeof value === 'string' && !value.startsWith('#/')) out.push(value);
        else if (value && typeof value === 'object') stack.push(value);
      }
    }
  }
  return out;
}

export function loadContract(file = CONTRACT_PATH, cacheFile = file === CONTRACT_PATH ? CONTRACT_CACHE_PATH : undefined): Contract {
  const text = fs.readFileSync(file, 'utf8');
  const cached = cacheFile ? cachedDocument(text, cacheFile) : undefined;
  const document = cached ?? (parse(text) as Record<string, any>);
  const problems: string[] = [];
  const operations: Operation[] = [];
  const aliases: Array<{ operation: Operation; declared: any; deprecated: boolean; where: string }> = [];
  const external = cached ? [] : [...new Set(externalRefs(document))];
  if (external.length) {
    throw new ContractError([`${path.basename(file)} refers to other files (${external.slice(0, 5).join(', ')}): serve the bundle written by npm run contract:bundle`]);
  }
  const resolve = <T>(node: any, pointer: string) => resolveRefAt<T>(document, node, pointer);
  const parameterList = (list: unknown[] | undefined, pointer: string): Parameter[] =>
    (list ?? []).map((raw, index) => {
      const { node: p, pointer: at } = resolve<any>(raw, `${pointer}/parameters/${index}`);
      return { name: p.name, in: p.in, required: Boolean(p.required), schema: p.schema ?? {}, pointer: `${at}/schema` };
    });

  for (const [routePath, rawItem] of Object.entries<any>(document.paths ?? {})) {
    const { node: pathItem, pointer: itemPointer } = resolve<any>(rawItem, `/paths/${pointerSegment(routePath)}`);
    const shared = parameterList(pathItem.parameters, itemPointer);
    for (const method of METHODS) {
      const op = pathItem[method];
      if (!op) continue;
      const opPointer = `${itemPointer}/${method}`;
      const where = `${method.toUpperCase()} ${routePath}`;
      if (!op.operationId) problems.push(`${where}: no operationId`);
      const access = op['x-access'];
      if (!ACCESS_LEVELS.includes(access)) problems.push(`${where}: x-access must be one of ${ACCESS_LEVELS.join(', ')}`);
      const apiKey = op['x-api-key'] ?? 'allow';
      if (!['allow', 'deny', 'any'].includes(apiKey)) problems.push(`${where}: x-api-key must be allow, deny or any`);
      const needsPermission = ['staff', 'admin', 'superuser'].includes(access) && apiKey !== 'any';
      if (apiKey === 'any' && op['x-permission'] !== undefined) problems.push(`${where}: x-api-key any admits every key whatever it holds: declare no x-permission`);
      if (apiKey === 'any' && !['staff', 'admin', 'superuser'].includes(access)) problems.push(`${where}: x-api-key any applies to staff, admin and superuser operations only`);
      if (needsPermission && !/^[a-z][a-z0-9-]*:[a-z][a-z0-9-]*$/.test(op['x-permission'] ?? '')) {
        problems.push(`${where}: x-access ${access} needs x-permission <resource>:<action>`);
      }
      if (isTokenLevel(access) && op['x-permission']) problems.push(`${where}: x-access ${access} is a token level; x-permission applies to human and API-key callers only`);
      if (op['x-log-path'] !== undefined && op['x-log-path'] !== 'template') problems.push(`${where}: x-log-path must be template`);
      if ((op.tags ?? []).length !== 1) problems.push(`${where}: needs exactly one tag (its module: server/modules/<tag>/)`);
      const own = parameterList(op.parameters, opPointer);
      const parameters = [...shared.filter((s) => !own.some((o) => o.name === s.name && o.in === s.in)), ...own];
      const body = op.requestBody ? resolve<any>(op.requestBody, `${opPointer}/requestBody`) : undefined;
      const responses: Operation['responses'] = {};
      const responsePointers: Operation['responsePointers'] = {};
      for (const [status, response] of Object.entries<any>(op.responses ?? {})) {
        const { node: resolved, pointer: at } = resolve<any>(response, `${opPointer}/responses/${pointerSegment(status)}`);
        responses[status] = {};
        for (const [type, media] of Object.entries<any>(resolved?.content ?? {})) {
          responses[status][type] = media.schema;
          if (media.schema) responsePointers[`${status} ${type}`] = `${at}/content/${pointerSegment(type)}/schema`;
        }
      }
      const operation: Operation = {
        operationId: op.operationId,
        method: method.toUpperCase(),
        path: routePath,
        tags: op.tags ?? [],
        access,
        permission: op['x-permission'],
        apiKey: apiKey === 'deny' || apiKey === 'any' ? apiKey : 'allow',
        security: op.security,
        parameters,
        requestBody: body ? readRequestBody(op, body.node, body.pointer, where, problems) : undefined,
        responses,
        responsePointers,
        ...(op['x-log-path'] === 'template' ? { logTemplate: true } : {}),
      };
      if (op['x-deprecated-alias'] !== undefined) aliases.push({ operation, declared: op['x-deprecated-alias'], deprecated: op.deprecated === true, where });
      if (ACCESS_LEVELS.includes(access)) {
        const mismatch = checkSecurity(operation);
        if (mismatch) problems.push(`${where}: ${mismatch}`);
      }
      operations.push(operation);
    }
  }
  problems.push(...linkAliases(operations, aliases));
  if (operations.length === 0) problems.push(`${path.basename(file)} declares no operation`);
  const seen = new Set<string>();
  for (const op of operations) {
    if (seen.has(op.operationId)) problems.push(`operationId ${op.operationId} is used twice`);
    seen.add(op.operationId);
  }
  if (problems.length) throw new ContractError(problems);
  return { text, document, operations };
}

/**
 * Resolves each `x-deprecated-alias` to its successor. An alias must be `deprecated: true`, name an operation
 * that is no alias itself, with the same method and the same access (`x-access`, `x-permission`, `x-api-key`):
 * an old path never admits anyone the new one refuses, nor the reverse. The successor's path parameters must
 * be the alias's own (so the `Link` names the same resource).
 */
function linkAliases(operations: Operation[], aliases: Array<{ operation: Operation; declared: any; deprecated: boolean; where: string }>): string[] {
  const problems: string[] = [];
  const byId = new Map(operations.map((op) => [op.operationId, op]));
  const aliased = new Set(aliases.map((a) => a.operation.operationId));
  for (const { operation, declared, deprecated, where } of aliases) {
    const of = declared?.of;
    // A calendar day (`2026-02-31` is none: Date would roll it over to 3 March). Its being in the past is checked by
    // test/http/deprecatedAliases.spec.ts, not here: boot does not depend on the machine's clock (a host whose clock
    // is behind would refuse to start).
    const day = typeof declared?.since === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(declared.since) ? new Date(`${declared.since}T00:00:00Z`) : undefined;
    const since = day && !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === declared.since ? day : undefined;
    const successor = typeof of === 'string' ? byId.get(of) : undefined;
    const prefix = `${where}: x-deprecated-alias`;
    if (!deprecated) problems.push(`${prefix} needs deprecated: true`);
    if (!since) problems.push(`${prefix}.since must be a date (YYYY-MM-DD)`);
    if (!successor) {
      problems.push(`${prefix}.of must name an operation (got ${JSON.stringify(of)})`);
      continue;
    }
    if (aliased.has(successor.operationId)) problems.push(`${prefix}.of names ${successor.operationId}, itself an alias: name the current operation`);
    if (successor.method !== operation.method) problems.push(`${prefix}.of names ${successor.operationId}, a ${successor.method}: an alias keeps the method`);
    for (const key of ['access', 'permission', 'apiKey'] as const) {
      if (successor[key] !== operation[key]) problems.push(`${prefix}: ${key} ${operation[key]} differs from ${successor.operationId}'s ${successor[key]}`);
    }
    const pathParams = (op: Operation) => op.parameters.filter((p) => p.in === 'path').map((p) => p.name).sort().join(',');
    if (pathParams(successor) !== pathParams(operation)) problems.push(`${prefix}: path parameters differ from ${successor.operationId}'s`);
    if (since) operation.alias = { of: successor.operationId, since, successorPath: successor.path };
  }
  return problems;
}

const byteLimit = (value: unknown, where: string, problems: string[]): number | undefined => {
  if (value === undefined) return undefined;
  if (Number.isSafeInteger(value) && (value as number) > 0) return value as number;
  problems.push(`${where}: x-max-upload-bytes must be a positive whole number of bytes`);
  return undefined;
};

function readRequestBody(op: any, body: any, pointer: string, where: string, problems: string[]): RequestBody {
  const media: Record<string, MediaType> = {};
  const pointers: Record<string, string> = {};
  for (const [type, m] of Object.entries<any>(body.content ?? {})) {
    const encoding: MediaType['encoding'] = {};
    for (const [field, enc] of Object.entries<any>(m?.encoding ?? {})) {
      encoding[field] = {
        contentType: typeof enc?.contentType === 'string' ? enc.contentType.split(',').map((t: string) => t.trim().toLowerCase()).filter(Boolean) : undefined,
      };
    }
    media[type.toLowerCase()] = { schema: m?.schema ?? {}, maxBytes: byteLimit(m?.['x-max-upload-bytes'], `${where} ${type}`, problems), encoding };
    pointers[type.toLowerCase()] = `${pointer}/content/${pointerSegment(type)}/schema`;
  }
  if (op['x-raw-body'] !== undefined && typeof op['x-raw-body'] !== 'boolean') problems.push(`${where}: x-raw-body must be true or false`);
  return {
    required: Boolean(body.required),
    content: Object.fromEntries(Object.entries(media).map(([t, m]) => [t, m.schema])),
    pointers,
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
    if (!op.permission || op.apiKey !== 'allow' || op.access === 'disabled') continue;
    map.set(op.permission, [...(map.get(op.permission) ?? []), op.operationId]);
  }
  return new Map([...map.entries()].sort(([a], [b]) => a.localeCompare(b)));
}
