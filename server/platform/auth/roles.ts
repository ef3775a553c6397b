/** Normalized request roles and the helpers every access decision goes through (spec §5.3). */
export const ROLES = ['public', 'staff', 'admin', 'superuser'] as const;
export type Role = (typeof ROLES)[number];

export const MEMBER_ROLES = ['owner', 'admin', 'member', 'kitchen_pos'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

export const ACCOUNT_ROLES = ['SUPERUSER', 'USER'] as const;
export type AccountRole = (typeof ACCOUNT_ROLES)[number];

const RANK: Record<Role, number> = { public: 0, staff: 1, admin: 2, superuser: 3 };

export const isSuperuserRole = (role: Role | undefined): boolean => role === 'superuser';
export const canUseAdminRoutes = (role: Role | undefined): boolean => role === 'superuser' || role === 'admin';
export const canUseStaffRoutes = (role: Role | undefined): boolean =>
  role === 'superuser' || role === 'admin' || role === 'staff';

/** A ban is in force while it is set and has not expired. */
export const isBanInForce = (banned: boolean, expiresAt: Date | string | null | undefined): boolean =>
  banned && (!expiresAt || new Date(expiresAt) > new Date());

/** Staff and above see full error details (spec §7). */
export const isPrivileged = canUseStaffRoutes;

export function roleAtLeast(role: Role, minimum: Role): boolean {
  return RANK[role] >= RANK[minimum];
}

/** Membership role in the active organization → request role (spec §5.2). No membership → public. */
export function roleForMembership(memberRole: MemberRole | null | undefined): Role {
  switch (memberRole) {
    case 'owner':
      return 'superuser';
    case 'admin':
      return 'admin';
    case 'member':
    case 'kitchen_pos':
      return 'staff';
    default:
      return 'public';
  }
}
