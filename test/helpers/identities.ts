import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Role } from '../../server/platform/auth/roles.ts';
import { resolveRef, type JsonSchema, type Operation } from '../../server/platform/http/contract.ts';
import type { AuthSource } from '../../server/platform/http/state.ts';
import { contract } from './contract.ts';
import { buildAccount, buildApiKey, buildMembership, buildMemberSession, buildOrganization, buildSession, permissionMap } from './factories.ts';
import { cookieHeader, SUPERUSER_TOKEN } from './server.ts';

/**
 * Every kind of caller the access matrix walks (issue 2 §8), built as rows once, with what the server must
 * resolve each to, written down from the spec (§5.1–5.2) and not from the server's code.
 */
export interface MatrixIdentity {
  name: string;
  /** The request role the resolver must produce. */
  role: Role;
  authSource: AuthSource;
  /** The `<resource>:<action>` permissions the caller carries when it calls `op` (API keys only). */
  permissionsFor(op: Operation): string[];
  headersFor(op: Operation): Record<string, string>;
}

/** A permission no operation declares: the "other" permission keys hold. */
export const PROBE_PERMISSION = 'matrix-probe:read';

/** Every x-permission in the contract (also of operations API keys may not call). */
export function contractPermissions(): string[] {
  return [...new Set(contract.operations.flatMap((op) => (op.permission ? [op.permission] : [])))].sort();
}

export async function buildMatrixIdentities(knex: Knex): Promise<MatrixIdentity[]> {
  const permissions = contractPermissions();
  const fixed = (name: string, role: Role, authSource: AuthSource, headers: Record<string, string>): MatrixIdentity => ({
    name,
    role,
    authSource,
    permissionsFor: () => [],
    headersFor: () => headers,
  });

  // Sessions. The membership-less ones belong to SUPERUSER accounts that own the canonical organization:
  // neither the account role nor a membership elsewhere may lift them above `public`.
  const noActive = await buildAccount({ role: 'SUPERUSER' });
  await buildMembership(noActive, 'owner');
  const noActiveToken = await buildSession(noActive, null);

  const elsewhere = await buildAccount({ role: 'SUPERUSER' });
  await buildMembership(elsewhere, 'owner');
  const otherOrganization = await buildOrganization();
  const elsewhereToken = await buildSession(elsewhere, otherOrganization.id);

  const sessions = {
    kitchen_pos: await buildMemberSession('kitchen_pos'),
    member: await buildMemberSession('member'),
    admin: await buildMemberSession('admin'),
    owner: await buildMemberSession('owner'),
  };
  const banned = await buildMemberSession('owner', { role: 'SUPERUSER' });
  await knex('accounts').where('id', banned.account.id).update({ banned: true, ban_reason: 'access matrix' });

  // API keys: for each permission one key holding only it and one holding every other one.
  const keyOwner = await buildAccount({ role: 'SUPERUSER' });
  const everything = [...permissions, PROBE_PERMISSION];
  const only = new Map<string, string>();
  const allBut = new Map<string, string>();
  for (const permission of permissions) {
    only.set(permission, (await buildApiKey({ owner: keyOwner, permissions: permissionMap(permission) })).key);
    allBut.set(permission, (await buildApiKey({ owner: keyOwner, permissions: permissionMap(...everything.filter((p) => p !== permission)) })).key);
  }
  const probeOnly = (await buildApiKey({ owner: keyOwner, permissions: permissionMap(PROBE_PERMISSION) })).key;
  const allKey = (await buildApiKey({ owner: keyOwner, permissions: permissionMap(...everything) })).key;
  // A key with an empty permission map: admitted only where `x-api-key: any` says (the current principal).
  const emptyKey = (await buildApiKey({ owner: keyOwner, permissions: {} })).key;
  // The failing keys hold every permission, so only the failed check can explain a denial.
  const disabled = (await buildApiKey({ owner: keyOwner, enabled: false, permissions: permissionMap(...everything) })).key;
  const expired = (await buildApiKey({ owner: keyOwner, expiresAt: new Date(Date.now() - 60_000), permissions: permissionMap(...everything) })).key;
  const demoted = await buildApiKey({ permissions: permissionMap(...everything) });
  await knex('accounts').where('id', demoted.owner.id).update({ role: 'USER' });

  const withPermission = (op: Operation) => (op.permission ? only.get(op.permission)! : probeOnly);
  const withoutPermission = (op: Operation) => (op.permission ? allBut.get(op.permission)! : allKey);

  return [
    fixed('no identity', 'public', 'anonymous', {}),
    fixed('session without active organization', 'public', 'session', cookieHeader(noActiveToken)),
    fixed('session whose active organization has no membership', 'public', 'session', cookieHeader(elsewhereToken)),
    fixed('kitchen_pos member session', 'staff', 'session', cookieHeader(sessions.kitchen_pos.token)),
    fixed('member session', 'staff', 'session', cookieHeader(sessions.member.token)),
    fixed('admin session', 'admin', 'session', cookieHeader(sessions.admin.token)),
    fixed('owner session', 'superuser', 'session', cookieHeader(sessions.owner.token)),
    fixed('superuser token (x-api-token)', 'superuser', 'api-token', { 'x-api-token': SUPERUSER_TOKEN }),
    fixed('superuser token (Authorization: Bearer)', 'superuser', 'api-token', { authorization: `Bearer ${SUPERUSER_TOKEN}` }),
    {
      name: "API key with the operation's permission",
      role: 'superuser',
      authSource: 'api-key',
      permissionsFor: (op) => [op.permission ?? PROBE_PERMISSION],
      headersFor: (op) => ({ 'x-api-key': withPermission(op) }),
    },
    {
      name: "API key without the operation's permission",
      role: 'superuser',
      authSource: 'api-key',
      permissionsFor: (op) => everything.filter((p) => p !== op.permission),
      headersFor: (op) => ({ 'x-api-key': withoutPermission(op) }),
    },
    {
      name: 'API key holding no permission',
      role: 'superuser',
      authSource: 'api-key',
      permissionsFor: () => [],
      headersFor: () => ({ 'x-api-key': emptyKey }),
    },
    fixed('disabled API key', 'public', 'anonymous', { 'x-api-key': disabled }),
    fixed('expired API key', 'public', 'anonymous', { 'x-api-key': expired }),
    fixed('API key whose owner lost SUPERUSER', 'public', 'anonymous', { 'x-api-key': demoted.key }),
    fixed('session of an account banned afterwards', 'public', 'anonymous', cookieHeader(banned.token)),
  ];
}

// ---------------------------------------------------------------------------------------------------------
// Requests built from the contract, so that operations added later are exercised without new test code.

/** Follows local `$ref`s in the contract document (through the server's one resolver). */
export const resolveSchema = (schema: JsonSchema | undefined): JsonSchema => resolveRef<JsonSchema>(contract.document, schema ?? {}) ?? {};

const firstType = (schema: JsonSchema): string | undefined => {
  const type = schema.type;
  return Array.isArray(type) ? type.find((t) => t !== 'null') : (type as string | undefined);
};

/** A value the schema accepts, as a string (for path, query and header parameters). */
export function sampleValue(raw: JsonSchema): string {
  const schema = resolveSchema(raw);
  if (Array.isArray(schema.enum)) return String(schema.enum[0]);
  if (schema.const !== undefined) return String(schema.const);
  if (schema.default !== undefined) return String(schema.default);
  switch (firstType(schema)) {
    case 'integer':
    case 'number':
      return String(schema.minimum ?? 1);
    case 'boolean':
      return 'true';
  }
  switch (schema.format) {
    case 'uuid':
      return randomUUID();
    case 'date-time':
      return new Date().toISOString();
    case 'email':
      return 'probe@example.test';
  }
  return 'probe';
}

/** A string the parameter's schema rejects, or undefined when none can be derived from it. */
export function invalidValue(raw: JsonSchema): string | undefined {
  const schema = resolveSchema(raw);
  if (Array.isArray(schema.enum)) return 'not-one-of-the-values';
  switch (firstType(schema)) {
    case 'integer':
    case 'number':
      return 'not-a-number';
    case 'boolean':
      return 'not-a-boolean';
    case 'string':
      if (schema.format === 'uuid') return 'not-a-uuid';
      if (schema.format === 'date-time') return 'not-a-date';
      if (typeof schema.maxLength === 'number') return 'x'.repeat(schema.maxLength + 1);
      return undefined;
  }
  return undefined;
}

/** The path with every `{param}` filled with a value its schema accepts (random UUIDs for ids). */
export function samplePath(op: Operation, overrides: Record<string, string> = {}): string {
  return op.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const param = op.parameters.find((p) => p.in === 'path' && p.name === name);
    return encodeURIComponent(overrides[name] ?? sampleValue(param?.schema ?? {}));
  });
}

/** Required query parameters filled; `overrides` added (as is) on top. */
export function sampleQuery(op: Operation, overrides: Record<string, string> = {}): string {
  const query = new URLSearchParams();
  for (const param of op.parameters) {
    if (param.in === 'query' && param.required && !(param.name in overrides)) query.set(param.name, sampleValue(param.schema));
  }
  for (const [name, value] of Object.entries(overrides)) query.set(name, value);
  const text = query.toString();
  return text ? `?${text}` : '';
}

export const takesJson = (op: Operation): boolean => Boolean(op.requestBody && op.requestBody.content['application/json']);

/**
 * The least request that gets past access: a sample path, required query parameters, and `{}` for a JSON
 * body. `{}` never satisfies a destructive operation (the reset needs its confirmation), so an admitted
 * caller gets a 400 and nothing happens.
 */
export function probeRequest(op: Operation): { method: string; path: string; body?: unknown; headers: Record<string, string> } {
  const headers: Record<string, string> = {};
  for (const param of op.parameters) {
    if (param.in === 'header' && param.required) headers[param.name] = sampleValue(param.schema);
  }
  return { method: op.method, path: samplePath(op) + sampleQuery(op), body: takesJson(op) ? {} : undefined, headers };
}

/**
 * The first top-level body property with a plain type, and a value of another type for it
 * (`{ email: 12345 }`); undefined when the body schema has none.
 */
export function wrongTypeField(op: Operation): { field: string; value: unknown } | undefined {
  const schema = resolveSchema(op.requestBody?.content['application/json']);
  for (const [field, raw] of Object.entries<JsonSchema>((schema.properties as Record<string, JsonSchema>) ?? {})) {
    const type = firstType(resolveSchema(raw));
    if (type === 'string') return { field, value: 12345 };
    if (type === 'integer' || type === 'number') return { field, value: 'not-a-number' };
    if (type === 'boolean') return { field, value: 'not-a-boolean' };
    if (type === 'array' || type === 'object') return { field, value: 'not-a-structure' };
  }
  return undefined;
}

/** A schema any string satisfies up to its length: no format, pattern, enum or const to refuse a value first. */
export function isPlainString(raw: JsonSchema): boolean {
  const schema = resolveSchema(raw);
  return firstType(schema) === 'string' && !schema.format && !schema.pattern && !schema.enum && schema.const === undefined;
}

/** The first top-level body property that is a plain string (see isPlainString). */
export function plainStringField(op: Operation): string | undefined {
  const schema = resolveSchema(op.requestBody?.content['application/json']);
  return Object.entries<JsonSchema>((schema.properties as Record<string, JsonSchema>) ?? {}).find(([, raw]) => isPlainString(raw))?.[0];
}
