import { BaseModel } from '../../db/model.ts';
import { Account } from '../accounts/models.ts';

export type PermissionMap = Record<string, string[]>;

export class ApiKey extends BaseModel {
  static override tableName = 'api_keys';
  name!: string;
  prefix!: string;
  start!: string;
  keyHash!: string;
  accountId!: string;
  enabled!: boolean;
  expiresAt!: Date | null;
  permissions!: PermissionMap;
  requestCount!: number;
  lastUsedAt!: Date | null;
  account?: Account;

  static override get jsonAttributes() {
    return ['permissions'];
  }

  static override get relationMappings() {
    return {
      account: {
        relation: BaseModel.BelongsToOneRelation,
        modelClass: Account,
        join: { from: 'api_keys.account_id', to: 'accounts.id' },
      },
    };
  }
}

/** `{ shows: ['read'] }` → `['shows:read']`, sorted. */
export function flattenPermissions(map: PermissionMap | null | undefined): string[] {
  const out: string[] = [];
  for (const [resource, actions] of Object.entries(map ?? {})) {
    for (const action of actions ?? []) out.push(`${resource}:${action}`);
  }
  return out.sort();
}
