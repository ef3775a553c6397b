import type Koa from 'koa';
import { roleAtLeast, type Role } from '../auth/roles.ts';
import type { CredentialThrottle, FailedCredential } from '../auth/credentialThrottle.ts';
import { matchDigest, secretList, sha256 } from '../auth/secrets.ts';
import { TOKEN_LEVELS, isTokenLevel, type AccessTokens, type TokenLevel } from './accessLevels.ts';
import type { Operation } from './operation.ts';
import { Forbidden, NoActiveMembership, NotFound, Problem, ServiceUnavailable, Unauthenticated } from './problem.ts';
import type { AppState, AuthContext } from './state.ts';

/**
 * Every `x-access` level, in one table: who it admits, which security schemes of the contract present that
 * caller, and how the request is checked. The contract's `security` of each operation is derived from this
 * table (`npm run contract:bundle`), and boot refuses a contract whose `security` disagrees with it.
 *
 * - Human levels (`session`, `staff`, `admin`, `superuser`) rely on the identity resolved for every request
 *   (session cookie, superuser token, API key) and compare roles.
 * - Token levels admit one non-human caller holding a shared secret from configuration. The presented value
 *   and the configured one are both hashed, then compared in constant time. An unset secret makes the
 *   operation answer 503 `not_configured`: never open.
 */
export { ACCESS_LEVELS, HUMAN_LEVELS, TOKEN_LEVELS, isTokenLevel, type Access, type AccessTokens, type TokenLevel } from './accessLevels.ts';

interface TokenRule {
  /** The environment variable holding the secret (for messages and the README). */
  variable: string;
  /** What a wrong one counts as (the credential throttle's metric label). */
  credential: FailedCredential;
  /** Security schemes (components.securitySchemes) a caller may present the token with. */
  schemes: string[];
  /** Reads the presented token, or undefined. */
  read(ctx: Koa.ParameterizedContext<AppState>): string | undefined;
  /** The answer to a missing or wrong token. */
  refuse(): Problem;
  /** The answer when the secret is unset (default: 503 `not_configured`, naming the variable). */
  unconfigured?(): Problem;
}

const bearer = (ctx: Koa.ParameterizedContext<AppState>) => /^Bearer\s+(.+)$/i.exec(ctx.get('authorization'))?.[1]?.trim();
const firstQueryValue = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

export const TOKEN_RULES: Record<TokenLevel, TokenRule> = {
  // The internal assistant service (spec §5.4 `SVC_LLM_SERVICE_TOKEN`); the spec leaves the header open.
  'service-token': {
    variable: 'SVC_LLM_SERVICE_TOKEN',
    credential: 'service-token',
    schemes: ['serviceToken'],
    read: (ctx) => ctx.get('x-service-token') || undefined,
    refuse: () => new Problem(401, 'invalid_service_token', 'Authentication required', { detail: 'Present the service token in x-service-token.' }),
  },
  // The chat-automation platform's webhook (spec §5.4): header x-svc-chat-token or Authorization: Bearer.
  'chat-webhook-token': {
    variable: 'CHAT_WEBHOOK_TOKEN',
    credential: 'webhook-token',
    schemes: ['chatWebhookToken', 'chatWebhookBearer'],
    read: (ctx) => ctx.get('x-svc-chat-token') || bearer(ctx) || undefined,
    refuse: () =>
      new Problem(401, 'invalid_webhook_token', 'Authentication required', {
        detail: 'Present the webhook token in x-svc-chat-token or as a Bearer token.',
      }),
  },
  // The messaging platform's verification handshake (`hub.verify_token`); it expects 403 on a mismatch.
  'messaging-verify-token': {
    variable: 'MESSAGING_VERIFY_TOKEN',
    credential: 'verify-token',
    schemes: ['messagingVerifyToken'],
    read: (ctx) => firstQueryValue(ctx.query['hub.verify_token']) || undefined,
    refuse: () => Forbidden('invalid_verify_token', 'The verify token does not match.'),
  },
  // A Prometheus scraper (issue 25 §5): `Authorization: Bearer <METRICS_TOKEN>`. Unset (or metrics served on their own
  // METRICS_PORT instead), the API has no metrics endpoint at all: 404, as for any unknown path.
  'metrics-token': {
    variable: 'METRICS_TOKEN',
    credential: 'metrics-token',
    schemes: ['metricsBearer'],
    read: (ctx) => bearer(ctx) || undefined,
    refuse: () => new Problem(401, 'invalid_metrics_token', 'Authentication required', { detail: 'Present the metrics token as a Bearer token.' }),
    unconfigured: () => NotFound('Metrics are not served here (METRICS_TOKEN is unset, or METRICS_PORT serves them).'),
  },
};

/** Schemes that present a human or superuser identity (identity resolution, spec §5.1). */
const SESSION_SCHEMES = ['sessionCookie'];
const SUPERUSER_SCHEMES = ['superuserToken', 'superuserBearer'];
const API_KEY_SCHEMES = ['apiKey'];

/** The security schemes an operation admits, as its `x-access` (and `x-api-key`) say. */
export function schemesFor(op: Pick<Operation, 'access' | 'apiKey'>): string[] {
  switch (op.access) {
    case 'public':
    case 'disabled':
      return [];
    case 'session':
      return SESSION_SCHEMES;
    case 'staff':
    case 'admin':
    case 'superuser':
      return [...SESSION_SCHEMES, ...SUPERUSER_SCHEMES, ...(op.apiKey === 'deny' ? [] : API_KEY_SCHEMES)];
    default:
      return TOKEN_RULES[op.access].schemes;
  }
}

/** The OpenAPI `security` requirement list for an operation: any one of its schemes suffices. */
export const securityFor = (op: Pick<Operation, 'access' | 'apiKey'>): Array<Record<string, string[]>> =>
  schemesFor(op).map((scheme) => ({ [scheme]: [] }));

/**
 * Decides `x-access` (and `x-permission`, `x-api-key`) for a resolved human caller; enforced on every
 * operation in every policy mode. Returns undefined when allowed, or the problem to throw.
 */
export function accessDenial(op: Operation, auth: AuthContext): Problem | undefined {
  switch (op.access) {
    case 'public':
      return undefined;
    case 'session':
      return auth.authSource === 'session' ? undefined : Unauthenticated('Sign in to the dashboard first.');
    case 'staff':
    case 'admin':
    case 'superuser': {
      if (auth.role === 'public') {
        // A session whose active organization does not admit it resolves as `public` (spec §5.2): 401 too.
        return auth.authSource === 'session' ? NoActiveMembership() : Unauthenticated();
      }
      if (!roleAtLeast(auth.role, op.access as Role)) {
        return Forbidden('insufficient_role', `This operation needs the ${op.access} role.`);
      }
      if (auth.authSource === 'api-key') {
        if (op.apiKey === 'deny') return Forbidden('api_key_not_allowed', 'API keys cannot call this operation.');
        // `x-api-key: any`: every valid key, whatever its permission map (the principal: a key may ask who it is).
        if (op.apiKey === 'any') return undefined;
        if (!op.permission || !auth.permissions.includes(op.permission)) {
          return Forbidden('missing_permission', `This API key lacks the ${op.permission} permission.`);
        }
      }
      return undefined;
    }
    default:
      return Forbidden('operation_disabled', 'This operation is disabled.');
  }
}

/**
 * The access check of one operation, built once at boot; undefined for a public one (nothing to check). A wrong token
 * of a token level is counted by `throttle` (per client address; 429 past its limit, issue 32 §2); a missing one is
 * not (nothing was guessed).
 */
export function accessGuard(op: Operation, tokens: AccessTokens = {}, throttle?: CredentialThrottle): Koa.Middleware<AppState> | undefined {
  if (op.access === 'public') return undefined;
  if (isTokenLevel(op.access)) {
    const rule = TOKEN_RULES[op.access];
    const configured = tokens[op.access];
    if (!configured) {
      return () => {
        throw rule.unconfigured?.() ?? ServiceUnavailable('not_configured', `This operation is not configured on this server (${rule.variable} is unset).`);
      };
    }
    // One value, or several comma-separated while a secret is rotated (the old one accepted until callers have the new).
    const digests = secretList(configured).map(sha256);
    return (ctx, next) => {
      const presented = rule.read(ctx);
      if (presented === undefined) throw rule.refuse();
      throttle?.check(ctx.ip);
      if (matchDigest(presented, digests) >= 0) return next();
      if (!throttle) throw rule.refuse();
      return throttle.failed(ctx.ip, rule.credential).then(() => {
        throw rule.refuse();
      });
    };
  }
  return (ctx, next) => {
    const denial = accessDenial(op, ctx.state.auth);
    if (denial) throw denial;
    return next();
  };
}

/** Boot check: an operation's declared `security` must list exactly the schemes its `x-access` admits. */
export function checkSecurity(op: Operation & { security?: unknown }): string | undefined {
  const expected = schemesFor(op).sort();
  const declared = Array.isArray(op.security)
    ? (op.security as Array<Record<string, unknown>>).flatMap((requirement) => Object.keys(requirement ?? {})).sort()
    : undefined;
  if (declared === undefined) return `${op.operationId}: no security declared (x-access ${op.access} admits ${expected.join(', ') || 'no scheme'})`;
  if (declared.join(',') !== expected.join(',')) {
    return `${op.operationId}: security [${declared.join(', ')}] disagrees with x-access ${op.access}, which admits [${expected.join(', ')}]`;
  }
  return undefined;
}
