import { ACCOUNT_ROLES } from '../../api/accounts.ts';

export const roleOptions = ACCOUNT_ROLES.map((role) => ({ label: role, value: role }));

export const required = (value: string) => (value.trim() ? undefined : 'required');

/** The contract's minimum; `optional` lets a blank through (keep the current password). */
export const passwordRule = (optional: boolean) => (value: string) => {
  if (!value) return optional ? undefined : 'required';
  return value.length < 8 ? 'at least 8 characters' : undefined;
};
