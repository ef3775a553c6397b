import type Koa from 'koa';
import type { PolicyMode } from '../config.ts';
import { roleAtLeast } from '../auth/roles.ts';
import { isTokenLevel } from './access.ts';
import type { Contract, Operation } from './contract.ts';
import { Forbidden, NoActiveMembership, Unauthenticated } from './problem.ts';
import type { AppState, AuthContext } from './state.ts';

export type PolicyLevel = 'public' | 'session' | 'staff' | 'admin' | 'superuser';

export interface PolicyEntry {
  /** A path (`exact`; a `{param}` segment matches the contract's templated segment) or a prefix ending in `/` (`prefix`). */
  path: string;
  match: 'exact' | 'prefix';
  /** Methods the entry covers; all when omitted. */
  methods?: string[];
  level: PolicyLevel;
}

/**
 * The public API policy registry (spec §5.5): route families → minimum access level. Each module declares its
 * own entries beside its handlers (`server/modules/<tag>/policy.ts`); the registry (`POLICY_REGISTRY` in
 * server/modules/index.ts) is their union with these base entries. Public families are explicit and narrow;
 * everything else under /api needs staff unless a narrower entry says more. The most specific entry (exact
 * before prefix, then longest) decides.
 */
export const BASE_POLICY: PolicyEntry[] = [
  { path: '/api/sudo/', match: 'prefix', level: 'superuser' },
  { path: '/api/', match: 'prefix', level: 'staff' },
];

/** Everything the registry does not name needs staff. */
const FALLBACK: PolicyEntry = { path: '/', match: 'prefix', level: 'staff' };

/** A public prefix must name at least three path segments (`/api/system/health/`), never `/api/` or `/api/auth/`. */
const MIN_PUBLIC_PREFIX_SEGMENTS = 3;

export function findPolicy(registry: PolicyEntry[], method: string, path: string): PolicyEntry {
  let best: PolicyEntry | undefined;
  for (const entry of registry) {
    if (entry.methods && !entry.methods.includes(method)) continue;
    const hit = entry.match === 'exact' ? path === entry.path || path === samplePath(entry.path) : path.startsWith(entry.path);
    if (!hit) continue;
    if (!best || specificity(entry) > specificity(best)) best = entry;
  }
  return best ?? FALLBACK;
}

const specificity = (entry: PolicyEntry) => (entry.match === 'exact' ? 1e6 : 0) + entry.path.length;

export function satisfiesPolicy(auth: AuthContext, level: PolicyLevel): boolean {
  if (level === 'public') return true;
  if (level === 'session') return auth.authSource === 'session' || auth.role !== 'public';
  return roleAtLeast(auth.role, level);
}

/** `/api/sudo/users/{userId}` → `/api/sudo/users/x`: a concrete path the registry's prefixes can be matched against. */
const samplePath = (openApiPath: string) => openApiPath.replace(/\{[^}]+\}/g, 'x');

const LEVEL_RANK: Record<PolicyLevel, number> = { public: 0, session: 1, staff: 2, admin: 3, superuser: 4 };

/**
 * Boot-time check of the registry against the contract. Every public operation must be covered by an
 * explicit, narrow public entry; no public prefix may be broad; no public entry may cover an operation that
 * is not public (a public family that swallows a guarded one is broad); and no entry may demand more than the
 * operation's x-access, or `enforce` would block callers the contract admits.
 */
export function checkPolicyRegistry(contract: Contract, registry: PolicyEntry[]): string[] {
  const problems: string[] = [];
  for (const entry of registry) {
    if (entry.level !== 'public' || entry.match !== 'prefix') continue;
    const segments = entry.path.split('/').filter(Boolean).length;
    if (segments < MIN_PUBLIC_PREFIX_SEGMENTS || !entry.path.endsWith('/')) {
      problems.push(`public prefix ${entry.path} is too broad: name the route family (at least ${MIN_PUBLIC_PREFIX_SEGMENTS} segments, ending in /)`);
    }
  }
  for (const op of contract.operations) {
    if (op.access === 'disabled') continue;
    const entry = findPolicy(registry, op.method, samplePath(op.path));
    // Token-level operations (webhooks, internal services) have no human caller: like public ones, they need
    // an explicit narrow public entry, and their own token check (x-access) guards them.
    const open = op.access === 'public' || isTokenLevel(op.access);
    if (open && entry.level !== 'public') {
      problems.push(`${op.operationId} (${op.method} ${op.path}) is ${op.access} but no explicit public policy entry covers it`);
    }
    if (!open && entry.level === 'public') {
      problems.push(`${op.operationId} (${op.method} ${op.path}) is ${op.access} but the public policy entry ${entry.path} covers it: public entries may cover public operations only`);
    }
    if (!open && LEVEL_RANK[entry.level] > LEVEL_RANK[op.access as PolicyLevel]) {
      problems.push(`${op.operationId} (${op.method} ${op.path}) admits ${op.access} but the policy entry ${entry.path} demands ${entry.level}`);
    }
  }
  return problems;
}

/**
 * `report` logs violations, `enforce` blocks them, `off` does nothing. Runs after the route is matched, with
 * the entry found once at boot for the operation's own method and path as the contract spells it, exactly as
 * `checkPolicyRegistry` checked it: the router also matches `/API/...`, a trailing `/` and HEAD for GET, and
 * those must not land on a different entry.
 */
export function publicApiPolicy(
  mode: PolicyMode,
  registry: PolicyEntry[],
  op: Pick<Operation, 'method' | 'path'>,
): Koa.Middleware<AppState> | undefined {
  const entry = findPolicy(registry, op.method, samplePath(op.path));
  // Nothing to check (undefined: no middleware at all): the mode is off, or the route's family is public.
  if (mode === 'off' || entry.level === 'public') return undefined;
  return (ctx, next) => {
    const auth = ctx.state.auth;
    if (!satisfiesPolicy(auth, entry.level)) {
      const path = ctx.state.logPath ?? ctx.path;
      ctx.state.log.warn(
        { policy: entry.path, required: entry.level, role: auth.role, method: ctx.method, path, mode },
        `[public-api-policy] ${ctx.method} ${path} by ${auth.role} needs ${entry.level} (${entry.path})`,
      );
      if (mode === 'enforce') {
        if (auth.role === 'public') throw auth.authSource === 'session' ? NoActiveMembership() : Unauthenticated();
        throw Forbidden('policy_blocked', `The public API policy requires ${entry.level} for this route.`);
      }
    }
    return next();
  };
}
