import type Koa from 'koa';
import { roleAtLeast } from '../auth/roles.ts';
import type { Operation } from './contract.ts';
import { Forbidden, NoActiveMembership, Unauthenticated } from './problem.ts';
import type { AppState, AuthContext } from './state.ts';

/**
 * Decides `x-access` (and `x-permission`, `x-api-key`) for one caller; enforced on every operation in every
 * policy mode. Returns undefined when allowed, or the problem to throw.
 */
export function accessDenial(op: Operation, auth: AuthContext) {
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
      if (!roleAtLeast(auth.role, op.access)) {
        return Forbidden('insufficient_role', `This operation needs the ${op.access} role.`);
      }
      if (auth.authSource === 'api-key') {
        if (op.apiKey === 'deny') return Forbidden('api_key_not_allowed', 'API keys cannot call this operation.');
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

/** The access check of one operation; undefined for a public one (nothing to check). */
export function accessGuard(op: Operation): Koa.Middleware<AppState> | undefined {
  if (op.access === 'public') return undefined;
  return (ctx, next) => {
    const denial = accessDenial(op, ctx.state.auth);
    if (denial) throw denial;
    return next();
  };
}
