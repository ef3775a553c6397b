/**
 * API-key permissions (`<resource>:<action>`, spec §5.3.1) and their stored form, a resource → actions map.
 * Pure functions with no imports: the server and the terminal app (which otherwise reaches the server only
 * through sdk/) share this one copy.
 */
export type PermissionMap = Record<string, string[]>;

/** `{ shows: ['read'] }` → `['shows:read']`, sorted. */
export function flattenPermissions(map: PermissionMap | null | undefined): string[] {
  const out: string[] = [];
  for (const [resource, actions] of Object.entries(map ?? {})) {
    for (const action of actions ?? []) out.push(`${resource}:${action}`);
  }
  return out.sort();
}

/** `['auth:read', 'shows:write']` → `{ auth: ['read'], shows: ['write'] }`. */
export function toPermissionMap(permissions: readonly string[]): PermissionMap {
  const map: PermissionMap = {};
  for (const permission of permissions) {
    const [resource, action] = permission.split(':');
    (map[resource] ??= []).push(action);
  }
  return map;
}
