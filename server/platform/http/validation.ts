import { createRequire } from 'node:module';
import type { Ajv2020, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import type { Contract, JsonSchema, Operation } from './contract.ts';
import { BodyTooDeep, type FieldError } from './problem.ts';
import type { FieldErrorCode } from './problemCodes.ts';

type FormatsModule = typeof import('ajv-formats/dist/formats.js');
interface AjvModules {
  Ajv2020: typeof import('ajv/dist/2020.js').Ajv2020;
  addFormats: typeof import('ajv-formats').default;
  fullFormats: FormatsModule['fullFormats'];
}

/**
 * Ajv and ajv-formats (CommonJS), loaded at the first compile or date-time check rather than with the app: a start
 * answers readiness without them (issue 25: about 0.2 s of every start).
 */
let ajvModules: AjvModules | undefined;
function loadAjv(): AjvModules {
  if (!ajvModules) {
    const load = createRequire(import.meta.url);
    const ajv = load('ajv/dist/2020.js') as { Ajv2020?: AjvModules['Ajv2020']; default: AjvModules['Ajv2020'] };
    const formats = load('ajv-formats') as { default?: AjvModules['addFormats'] } & AjvModules['addFormats'];
    ajvModules = {
      Ajv2020: ajv.Ajv2020 ?? ajv.default,
      addFormats: formats.default ?? formats,
      fullFormats: (load('ajv-formats/dist/formats.js') as FormatsModule).fullFormats,
    };
  }
  return ajvModules;
}

/**
 * `format: uuid` is the canonical 36-character hex form with hyphens, nothing else: ajv-formats also takes
 * `urn:uuid:<uuid>`, which PostgreSQL's uuid type refuses (a 500 on every id route before this).
 */
export const CANONICAL_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

let rfc3339DateTime: ((value: string) => boolean) | undefined;

/**
 * `format: date-time` is RFC 3339 (ajv-formats) *and* a date JavaScript parses to the same instant the handlers
 * will store, inside the years 0001–9999 once in UTC (what toISOString prints as a 4-digit year, so the value
 * also round-trips through a reply). RFC 3339 alone admits leap seconds (`…T23:59:60Z`) and `+00` offsets that
 * `new Date()` cannot parse: an Invalid Date reached PostgreSQL (500) and passed "must be in the future".
 */
export function isDateTime(value: string): boolean {
  rfc3339DateTime ??= (loadAjv().fullFormats['date-time'] as { validate: (value: string) => boolean }).validate;
  if (!rfc3339DateTime(value)) return false;
  const time = Date.parse(value);
  if (!Number.isFinite(time)) return false;
  const year = new Date(time).getUTCFullYear();
  return year >= 1 && year <= 9999;
}

/**
 * How deep a JSON body may nest (objects and arrays; the body itself is level 1). The contract's bodies are
 * 2–3 levels deep; 64 leaves ample room for future schemas while keeping every walk of the body (ours are
 * iterative, Ajv's is recursive, so is any JSON.stringify of it) far from the stack limit. Deeper → 400
 * body_too_deep, checked before Ajv sees the body.
 */
export const MAX_BODY_DEPTH = 64;

/** True when `value` nests objects/arrays more than `max` levels deep. Iterative: any input is safe. */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  const stack: Array<{ node: object; depth: number }> = [{ node: value, depth: 1 }];
  while (stack.length) {
    const { node, depth } = stack.pop()!;
    if (depth > max) return true;
    for (const key in node) {
      const child = (node as Record<string, unknown>)[key];
      if (child !== null && typeof child === 'object') stack.push({ node: child, depth: depth + 1 });
    }
  }
  return false;
}

/** The bundled contract is registered with Ajv under this id; validators refer into it by JSON pointer. */
const CONTRACT_ID = 'openapi.yaml';
const at = (pointer: string) => ({ $ref: `${CONTRACT_ID}#${pointer}` });

/** How many Ajv instances this process made (each holds the whole document: tens of milliseconds). */
let ajvInstances = 0;
export const ajvInstancesMade = () => ajvInstances;

function createAjv(contract: Contract, options: { coerce: boolean; allErrors: boolean }): Ajv2020 {
  const { Ajv2020, addFormats } = loadAjv();
  ajvInstances++;
  const ajv = new Ajv2020({
    allErrors: options.allErrors,
    coerceTypes: options.coerce ? 'array' : false,
    useDefaults: true,
    strict: false,
    validateFormats: true,
    // The OpenAPI document is not itself a JSON Schema: only the schemas inside it are compiled.
    validateSchema: false,
  });
  addFormats(ajv);
  // OpenAPI's markers for bytes (files in a form); the bytes themselves are checked by size and magic bytes.
  ajv.addFormat('binary', true);
  ajv.addFormat('byte', true);
  ajv.addFormat('uuid', CANONICAL_UUID);
  ajv.addFormat('date-time', { type: 'string', validate: isDateTime });
  ajv.addSchema(contract.document, CONTRACT_ID);
  return ajv;
}

export interface RequestInput {
  path: Record<string, unknown>;
  query: Record<string, unknown>;
  headers: Record<string, unknown>;
  body?: unknown;
}

export interface OperationValidators {
  /** Validates (and coerces, and fills defaults in) path, query and header values in place. */
  parameters: (input: RequestInput) => FieldError[];
  /**
   * Validates a body in place (defaults filled) by its media type: JSON against its schema; a form's fields
   * against the multipart schema (coerced from text; a file field holds the file's name). Raw bytes have no
   * schema check here: their size and type are checked while reading them.
   */
  body?: (body: unknown, mediaType: string) => FieldError[];
}

/**
 * An operation's validators, compiled at its first use rather than all at boot: compiling every operation's
 * request and response validators took about 4 s of each start (issue 25), while a start answers readiness with
 * one operation. `get(operationId)` compiles that operation's validators once and keeps them; unknown ids give
 * undefined. `compileAll()` compiles what is left (the fuzz tests walk every operation).
 */
export class LazyValidators<V> {
  private readonly compiled = new Map<string, V>();
  private readonly operations: Map<string, Operation>;

  constructor(
    operations: Operation[],
    private readonly compile: (op: Operation) => V,
  ) {
    this.operations = new Map(operations.map((op) => [op.operationId, op]));
  }

  get(operationId: string): V | undefined {
    let validators = this.compiled.get(operationId);
    if (validators === undefined) {
      const op = this.operations.get(operationId);
      if (!op) return undefined;
      this.compiled.set(operationId, (validators = this.compile(op)));
    }
    return validators;
  }

  /** How many operations have been compiled so far. */
  get compiledCount(): number {
    return this.compiled.size;
  }

  compileAll(): this {
    for (const id of this.operations.keys()) this.get(id);
    return this;
  }
}

/**
 * Validators per Contract object: apps built on the same contract (the test servers, a process that builds more
 * than one) share them, and what one compiled the others reuse. Validators keep no state between calls, so
 * sharing is safe. Keyed weakly: a contract no longer used is freed with its validators.
 */
const requestCache = new WeakMap<Contract, Map<boolean, LazyValidators<OperationValidators>>>();
const responseCache = new WeakMap<Contract, LazyValidators<ResponseValidator>>();

/** One parameter validator and one body validator per operation, each compiled at the operation's first use. */
export function compileRequestValidators(contract: Contract, allErrors: boolean): LazyValidators<OperationValidators> {
  let byMode = requestCache.get(contract);
  if (!byMode) requestCache.set(contract, (byMode = new Map()));
  let compiled = byMode.get(allErrors);
  if (!compiled) byMode.set(allErrors, (compiled = requestValidatorsFor(contract, allErrors)));
  return compiled;
}

function requestValidatorsFor(contract: Contract, allErrors: boolean): LazyValidators<OperationValidators> {
  // Each Ajv instance (holding the whole document) is made at the first compile that needs it, not before: an
  // operation without parameters or body (the health probes a start is judged ready by) needs none.
  let paramsAjv: Ajv2020 | undefined;
  let bodyAjv: Ajv2020 | undefined;
  return new LazyValidators(contract.operations, (op) =>
    compileOperationRequest(op, {
      params: () => (paramsAjv ??= createAjv(contract, { coerce: true, allErrors })),
      body: () => (bodyAjv ??= createAjv(contract, { coerce: false, allErrors })),
    }),
  );
}

function compileOperationRequest(op: Operation, ajv: { params: () => Ajv2020; body: () => Ajv2020 }): OperationValidators {
  const groups: Record<'path' | 'query' | 'headers', { type: 'object'; properties: Record<string, JsonSchema>; required: string[] }> = {
    path: { type: 'object', properties: {}, required: [] },
    query: { type: 'object', properties: {}, required: [] },
    headers: { type: 'object', properties: {}, required: [] },
  };
  for (const param of op.parameters) {
    if (param.in === 'cookie') continue;
    const group = groups[param.in === 'header' ? 'headers' : param.in];
    const name = param.in === 'header' ? param.name.toLowerCase() : param.name;
    // Through a $ref Ajv applies no default, so the parameter's default is repeated beside it.
    group.properties[name] = param.schema.default === undefined ? at(param.pointer) : { ...at(param.pointer), default: param.schema.default };
    if (param.required || param.in === 'path') group.required.push(name);
  }
  const jsonPointer = op.requestBody?.pointers['application/json'];
  const jsonValidate = jsonPointer ? ajv.body().compile(at(jsonPointer)) : undefined;
  const formPointer = op.requestBody?.pointers['multipart/form-data'];
  const formValidate = formPointer ? ajv.params().compile(at(formPointer)) : undefined;
  const check = (validate: ValidateFunction, body: unknown) => [
    ...(validate(body) ? [] : toFieldErrors(validate.errors, 'body')),
    ...nulCharacters(body, 'body'),
  ];
  const bodyValidate =
    jsonValidate || formValidate
      ? (body: unknown, mediaType: string) =>
          mediaType === 'multipart/form-data' ? (formValidate ? check(formValidate, body) : []) : jsonValidate && isJsonMedia(mediaType) ? check(jsonValidate, body) : []
      : undefined;
  return {
    parameters: op.parameters.some((param) => param.in !== 'cookie')
      ? parameterValidator(ajv.params().compile({ type: 'object', properties: groups }))
      : // Nothing declared: no schema can fail and no header is collected; only stray query values are checked.
        (input) => nulCharacters(input.query, 'query'),
    body: bodyValidate
      ? (body, mediaType) => {
          if (nestedDeeperThan(body, MAX_BODY_DEPTH)) throw BodyTooDeep(MAX_BODY_DEPTH);
          return bodyValidate(body, mediaType);
        }
      : undefined,
  };
}

function parameterValidator(validate: ValidateFunction): OperationValidators['parameters'] {
  return (input) => {
    const errors = validate(input) ? [] : toFieldErrors(validate.errors, '');
    nulCharacters(input.path, 'path', errors);
    nulCharacters(input.query, 'query', errors);
    return nulCharacters(input.headers, 'header', errors);
  };
}

/**
 * PostgreSQL text cannot hold U+0000, so a string (or key) carrying it is refused here as bad input (400)
 * instead of failing in the database (500). JSON and URL encoding both let a caller send one.
 */
export function nulCharacters(value: unknown, path: string, out: FieldError[] = []): FieldError[] {
  // Nothing to walk (no parameters, an empty query): no allocation on the request path.
  if (typeof value === 'string') {
    if (value.includes('\u0000')) out.push({ path, message: 'must not contain the NUL character', code: 'nul_character' });
    return out;
  }
  if (!value || typeof value !== 'object' || isEmpty(value)) return out;
  // Iterative (an explicit stack, visited in document order): a deeply nested value cannot overflow the call
  // stack. Paths are spelled out only for a finding: each entry keeps its parent and key.
  const stack: NulEntry[] = [{ value, key: path, parent: undefined }];
  while (stack.length) {
    const current = stack.pop()!;
    const item = current.value;
    if (typeof item === 'string') {
      if (item.includes('\u0000')) out.push({ path: pathOf(current), message: 'must not contain the NUL character', code: 'nul_character' });
    } else if (item && typeof item === 'object') {
      const start = stack.length;
      if (Array.isArray(item)) {
        for (let index = 0; index < item.length; index++) stack.push({ value: item[index], key: String(index), parent: current });
      } else {
        for (const key in item) {
          const child = (item as Record<string, unknown>)[key];
          stack.push({ value: key.includes('\u0000') ? key : child, key: key.replace(/\u0000/g, '\\0'), parent: current });
        }
      }
      // Pushed in order; reversed so that pop() visits them in document order.
      for (let i = start, j = stack.length - 1; i < j; i++, j--) [stack[i], stack[j]] = [stack[j], stack[i]];
    }
  }
  return out;
}

interface NulEntry {
  value: unknown;
  key: string;
  parent: NulEntry | undefined;
}

function pathOf(entry: NulEntry): string {
  const keys: string[] = [];
  for (let at: NulEntry | undefined = entry; at; at = at.parent) keys.push(at.key);
  return keys.reverse().join('/');
}

function isEmpty(value: object): boolean {
  for (const _ in value) return false;
  return true;
}

export interface ResponseValidator {
  /** `opaque`: the body is bytes or a stream; only the status and content type can be checked. */
  (status: number, contentType: string | undefined, body: unknown, opaque?: boolean): string | undefined;
}

/** JSON media types are checked against their schema; for any other only the status and content type are. */
export const isJsonMedia = (type: string) => type === 'application/json' || /^application\/[\w.-]+\+json$/.test(type);

/** Checks a reply against the responses the operation declares; returns what is wrong, or undefined. Once per contract, each operation at its first use. */
export function compileResponseValidators(contract: Contract): LazyValidators<ResponseValidator> {
  let compiled = responseCache.get(contract);
  if (!compiled) responseCache.set(contract, (compiled = responseValidatorsFor(contract)));
  return compiled;
}

function responseValidatorsFor(contract: Contract): LazyValidators<ResponseValidator> {
  let ajv: Ajv2020 | undefined;
  return new LazyValidators(contract.operations, (op): ResponseValidator => {
    ajv ??= createAjv(contract, { coerce: false, allErrors: true });
    const compiled = new Map<string, ValidateFunction | undefined>();
    for (const [status, media] of Object.entries(op.responses)) {
      for (const type of Object.keys(media)) {
        const pointer = op.responsePointers[`${status} ${type}`];
        compiled.set(`${status} ${type}`, pointer ? ajv.compile(at(pointer)) : undefined);
      }
    }
    return (status, contentType, body, opaque) => describeMismatch(op, compiled, status, contentType, body, opaque);
  });
}

function describeMismatch(
  op: Operation,
  compiled: Map<string, ValidateFunction | undefined>,
  status: number,
  contentType: string | undefined,
  body: unknown,
  opaque = false,
): string | undefined {
  const declared = op.responses[String(status)] ?? op.responses.default;
  if (!declared) return `${op.operationId}: status ${status} is not declared`;
  const key = op.responses[String(status)] ? String(status) : 'default';
  const types = Object.keys(declared);
  if (types.length === 0) {
    return !opaque && (body === undefined || body === null || body === '') ? undefined : `${op.operationId}: ${status} declares no body`;
  }
  const type = contentType?.split(';')[0].trim();
  if (!type || !types.includes(type)) return `${op.operationId}: ${status} content type ${type} is not one of ${types.join(', ')}`;
  const validate = compiled.get(`${key} ${type}`);
  if (validate && !opaque && isJsonMedia(type) && !validate(body)) {
    return `${op.operationId}: ${status} body does not match: ${toFieldErrors(validate.errors, 'body')
      .map((e) => `${e.path} ${e.message}`)
      .join('; ')}`;
  }
  return undefined;
}

/** Ajv errors → `{ path, message, code }` naming the failing field (`body/email`, `query/limit`). */
export function toFieldErrors(errors: ErrorObject[] | null | undefined, root: string): FieldError[] {
  const seen = new Set<string>();
  const out: FieldError[] = [];
  for (const error of errors ?? []) {
    if (error.keyword === 'if' || error.keyword === 'anyOf' || error.keyword === 'oneOf' && out.length) continue;
    let pointer = [root, ...error.instancePath.split('/').filter(Boolean).map(decodeURIComponent)].filter(Boolean);
    let message = error.message ?? 'is invalid';
    if (error.keyword === 'required') {
      pointer = [...pointer, String(error.params.missingProperty)];
      message = 'is required';
    } else if (error.keyword === 'additionalProperties') {
      pointer = [...pointer, String(error.params.additionalProperty)];
      message = 'is not allowed here';
    } else if (error.keyword === 'enum') {
      message = `must be one of: ${(error.params.allowedValues as unknown[]).join(', ')}`;
    } else if (error.keyword === 'const') {
      message = `must be exactly: ${String(error.params.allowedValue)}`;
    }
    // Parameters are validated as { path, query, headers }: report them as `query/limit`, `header/x-foo`.
    const fieldPath = pointer.join('/').replace(/^headers\//, 'header/');
    const key = `${fieldPath} ${error.keyword}`;
    if (seen.has(key)) continue;
    seen.add(key);
    // Ajv's keyword names are the registry's schema field codes (GenericFieldErrorCode; problemCodes.spec.ts checks
    // that every keyword the contract's schemas use is listed).
    out.push({ path: fieldPath || root || '/', message, code: error.keyword as FieldErrorCode });
  }
  return out;
}
