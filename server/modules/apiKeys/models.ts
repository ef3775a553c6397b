import { BaseModel } from '../../platform/db/model.ts';
import { Account } from '../accounts/index.ts';

import type { PermissionMap } from '../../platform/auth/permissions.ts';

export { flattenPermissions, type PermissionMap } from '../../platform/auth/permissions.ts';

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
