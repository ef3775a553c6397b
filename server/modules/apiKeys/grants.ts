import type { AppContext } from '../../platform/context.ts';
import { grantablePermissions } from '../../platform/http/contract.ts';
import { ValidationFailed, type FieldError } from '../../platform/http/problem.ts';
import { flattenPermissions, type PermissionMap } from './models.ts';

/** Every key starts with this readable prefix, so a leaked one is recognizable (secret scanners, logs). */
export const API_KEY_PREFIX = 'vk_';
/** How many of a key's first characters are kept (`start`) to tell keys apart. */
export const DISPLAYED_CHARACTERS = 11;

/** Only permissions some key-callable operation declares can be granted: a typo never silently grants nothing. */
export function checkGrant(app: Pick<AppContext, 'contract'>, body: { permissions?: PermissionMap; expiresAt?: string | null }): void {
  const grantable = grantablePermissions(app.contract);
  const errors: FieldError[] = [];
  for (const permission of flattenPermissions(body.permissions)) {
    if (!grantable.has(permission)) {
      errors.push({ path: `body/permissions/${permission.split(':')[0]}`, message: `${permission} is not a permission any operation declares`, code: 'enum' });
    }
  }
  if (body.expiresAt && new Date(body.expiresAt) <= new Date()) {
    errors.push({ path: 'body/expiresAt', message: 'must be in the future', code: 'minimum' });
  }
  if (errors.length) throw ValidationFailed(errors);
}
