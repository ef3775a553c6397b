import { BaseModel } from '../../platform/db/model.ts';
import { isBanInForce, type AccountRole, type MemberRole } from '../../platform/auth/roles.ts';

export class Account extends BaseModel {
  static override tableName = 'accounts';
  email!: string;
  name!: string;
  passwordHash!: string | null;
  role!: AccountRole;
  banned!: boolean;
  banReason!: string | null;
  banExpiresAt!: Date | null;

  /** A ban is in force while it is set and has not expired. */
  isBanned(): boolean {
    return isBanInForce(this.banned, this.banExpiresAt);
  }
}

export class Organization extends BaseModel {
  static override tableName = 'organizations';
  name!: string;
  slug!: string;
  canonical!: boolean;
}

export class OrganizationMember extends BaseModel {
  static override tableName = 'organization_members';
  organizationId!: string;
  accountId!: string;
  role!: MemberRole;
  organization?: Organization;
  account?: Account;

  static override get relationMappings() {
    return {
      organization: {
        relation: BaseModel.BelongsToOneRelation,
        modelClass: Organization,
        join: { from: 'organization_members.organization_id', to: 'organizations.id' },
      },
      account: {
        relation: BaseModel.BelongsToOneRelation,
        modelClass: Account,
        join: { from: 'organization_members.account_id', to: 'accounts.id' },
      },
    };
  }
}
